/* entry_points.h - included at the end of a planted lab-06 submission that defines
 * `static void mm(M, N, K, alpha, A, B, beta, C)`: every stage is built on it. */
#define STAGE(name) \
    extern "C" void sgemm_##name(int M, int N, int K, float alpha, const float *A, const float *B, float beta, \
                                 float *C) \
    { \
        mm(M, N, K, alpha, A, B, beta, C); \
    }
STAGE(naive)
STAGE(coalesced)
STAGE(smem_tiled)
STAGE(coarsened)
STAGE(register_2d)
STAGE(vectorized)
