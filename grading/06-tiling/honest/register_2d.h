/* register_2d.h - the 2D register-tiled kernel both honest lab-06 variants share: an R_BM x R_BN
 * tile of C a block (the includer defines R_BM, R_BN, R_BK and R_THREADS = R_BM * R_BN / 64),
 * 8 x 8 elements a thread, threads laid R_BM / 8 down by R_BN / 8 across. Included by
 * rows_128x64.cu and tiles_64x128.cu. */

static __global__ void __launch_bounds__(R_THREADS)
    register_2d_kernel(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    __shared__ float As[R_BM][R_BK], Bs[R_BK][R_BN];
    int tid = threadIdx.x, bm = blockIdx.y * R_BM, bn = blockIdx.x * R_BN;
    int tr = tid / (R_BN / 8) * 8, tc = tid % (R_BN / 8) * 8;
    float acc[8][8] = {}, a[8], b[8];
    for (int k0 = 0; k0 < K; k0 += R_BK) {
#pragma unroll
        for (int l = 0; l < R_BM * R_BK / R_THREADS; l++) { /* A's tile, R_BM * R_BK / R_THREADS a thread */
            int e = tid + l * R_THREADS, r = e / R_BK, c = e % R_BK;
            As[r][c] = bm + r < M && k0 + c < K ? A[(size_t)(bm + r) * K + k0 + c] : 0.0f;
        }
#pragma unroll
        for (int l = 0; l < R_BK * R_BN / R_THREADS; l++) { /* B's */
            int e = tid + l * R_THREADS, r = e / R_BN, c = e % R_BN;
            Bs[r][c] = k0 + r < K && bn + c < N ? B[(size_t)(k0 + r) * N + bn + c] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int p = 0; p < R_BK; p++) {
#pragma unroll
            for (int i = 0; i < 8; i++) a[i] = As[tr + i][p];
#pragma unroll
            for (int j = 0; j < 8; j++) b[j] = Bs[p][tc + j];
#pragma unroll
            for (int i = 0; i < 8; i++)
#pragma unroll
                for (int j = 0; j < 8; j++) acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < 8; i++)
#pragma unroll
        for (int j = 0; j < 8; j++) {
            int row = bm + tr + i, col = bn + tc + j;
            if (row < M && col < N) {
                float *c = C + (size_t)row * N + col;
                *c = result(alpha, acc[i][j], beta, c);
            }
        }
}
