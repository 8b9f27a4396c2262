/* entry_points.h - included at the end of a planted lab-04 submission that defines
 * `static void sum(int n, const float *in, float *out, float *work)`, `static void add(...)` and
 * `static void mv(...)`: every stage is built on them, so every stage shows the planted behaviour. */
extern "C" void vector_add(int n, const float *a, const float *b, float *c) { add(n, a, b, c); }
extern "C" void reduce_interleaved(int n, const float *in, float *out, float *work) { sum(n, in, out, work); }
extern "C" void reduce_strided(int n, const float *in, float *out, float *work) { sum(n, in, out, work); }
extern "C" void reduce_sequential(int n, const float *in, float *out, float *work) { sum(n, in, out, work); }
extern "C" void reduce_shuffle(int n, const float *in, float *out, float *work) { sum(n, in, out, work); }
extern "C" void reduce_vectorized(int n, const float *in, float *out, float *work) { sum(n, in, out, work); }
extern "C" void matvec_thread(int m, int n, const double *A, const double *x, double *y) { mv(m, n, A, x, y); }
extern "C" void matvec_warp(int m, int n, const double *A, const double *x, double *y) { mv(m, n, A, x, y); }
extern "C" void matvec_block(int m, int n, const double *A, const double *x, double *y) { mv(m, n, A, x, y); }
