/* entry_points.h - included at the end of a planted lab-02 submission that defines
 * `static void mm(m, n, k, A, B, C)`: every stage is built on it, so every stage shows the
 * planted behaviour. */
#define STAGE(name) \
    void gemm_##name(int m, int n, int k, const double *A, const double *B, double *C) { mm(m, n, k, A, B, C); }
STAGE(ijk)
STAGE(ikj)
STAGE(jik)
STAGE(jki)
STAGE(kij)
STAGE(kji)
STAGE(blocked)
STAGE(register)
