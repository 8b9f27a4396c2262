/* vec_tile.h - the vectorised stage both honest lab-06 variants share, at the tile shape each
 * one picks (its template arguments): included by rows_128x64.cu and tiles_64x128.cu. */

/* A BM x BN tile of C, K in steps of BK, 8 x 8 elements a thread (BM / 8 x BN / 8 threads, tx
 * along N). Thread (ty, tx) owns rows 4 ty + {0..3} and BM / 2 + 4 ty + {0..3}, columns
 * 4 tx + {0..3} and BN / 2 + 4 tx + {0..3}: four 4 x 4 quads, so that every shared-memory read
 * is a float4 and the 16 lanes with one ty read 256 consecutive bytes of B (the two ty of a warp
 * read the same ones), while A's tile, stored transposed, gives a thread its 4 rows as one
 * float4 (two addresses a warp). A is padded by 4 floats a row against the transposing stores'
 * bank conflicts. The next tile's global loads are issued before this tile's products and
 * stored after them (two barriers a tile, one shared buffer). VEC4: K % 4 == N % 4 == 0 and
 * 16-byte aligned pointers, so global loads and C's stores are float4 too; otherwise scalars. */
template <int BM, int BN, int BK, bool VEC4>
static __global__ void __launch_bounds__(BM / 8 * BN / 8, 2)
    vec_kernel(int M, int N, int K, float alpha, const float *__restrict__ A, const float *__restrict__ B, float beta,
               float *__restrict__ C)
{
    constexpr int THREADS = BM / 8 * BN / 8, TX = BN / 8;
    constexpr int A4 = BM * BK / 4 / THREADS, B4 = BK * BN / 4 / THREADS; /* float4s a thread a tile */
    static_assert(A4 * THREADS * 4 == BM * BK && B4 * THREADS * 4 == BK * BN, "whole float4s for every thread");
    __shared__ __align__(16) float As[BK][BM + 4]; /* As[p][i] = A(bm + i, k0 + p) */
    __shared__ __align__(16) float Bs[BK][BN];
    int tid = threadIdx.x, ty = tid / TX, tx = tid % TX;
    int bm = blockIdx.y * BM, bn = blockIdx.x * BN;

    float4 ra[A4], rb[B4];
    /* element e (of BM x BK / 4 float4s of A, row-major) is row e / (BK / 4), column 4 (e % (BK / 4)) */
    auto fetch = [&](int k0) {
#pragma unroll
        for (int l = 0; l < A4; l++) {
            int e = tid + l * THREADS, r = e / (BK / 4), c = e % (BK / 4) * 4;
            int gr = bm + r, gc = k0 + c;
            float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            if (gr < M) {
                const float *q = A + (size_t)gr * K + gc;
                if (VEC4) {
                    if (gc < K) v = *(const float4 *)q;
                } else {
                    if (gc < K) v.x = q[0];
                    if (gc + 1 < K) v.y = q[1];
                    if (gc + 2 < K) v.z = q[2];
                    if (gc + 3 < K) v.w = q[3];
                }
            }
            ra[l] = v;
        }
#pragma unroll
        for (int l = 0; l < B4; l++) {
            int e = tid + l * THREADS, r = e / (BN / 4), c = e % (BN / 4) * 4;
            int gr = k0 + r, gc = bn + c;
            float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            if (gr < K) {
                const float *q = B + (size_t)gr * N + gc;
                if (VEC4) {
                    if (gc < N) v = *(const float4 *)q;
                } else {
                    if (gc < N) v.x = q[0];
                    if (gc + 1 < N) v.y = q[1];
                    if (gc + 2 < N) v.z = q[2];
                    if (gc + 3 < N) v.w = q[3];
                }
            }
            rb[l] = v;
        }
    };
    auto stash = [&]() {
#pragma unroll
        for (int l = 0; l < A4; l++) {
            int e = tid + l * THREADS, r = e / (BK / 4), c = e % (BK / 4) * 4;
            As[c][r] = ra[l].x, As[c + 1][r] = ra[l].y, As[c + 2][r] = ra[l].z, As[c + 3][r] = ra[l].w;
        }
#pragma unroll
        for (int l = 0; l < B4; l++) {
            int e = tid + l * THREADS, r = e / (BN / 4), c = e % (BN / 4) * 4;
            *(float4 *)&Bs[r][c] = rb[l];
        }
    };

    float acc[8][8] = {};
    fetch(0);
    stash();
    __syncthreads();
    for (int k0 = 0; k0 < K; k0 += BK) {
        if (k0 + BK < K) fetch(k0 + BK); /* in flight during the products below */
#pragma unroll
        for (int p = 0; p < BK; p++) {
            float4 a0 = *(const float4 *)&As[p][4 * ty], a1 = *(const float4 *)&As[p][BM / 2 + 4 * ty];
            float4 b0 = *(const float4 *)&Bs[p][4 * tx], b1 = *(const float4 *)&Bs[p][BN / 2 + 4 * tx];
            float a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int i = 0; i < 8; i++)
#pragma unroll
                for (int j = 0; j < 8; j++) acc[i][j] += a[i] * b[j];
        }
        if (k0 + BK < K) {
            __syncthreads(); /* everyone is done with this tile */
            stash();
            __syncthreads(); /* the next one is whole */
        }
    }

#pragma unroll
    for (int i = 0; i < 8; i++) {
        int row = bm + (i < 4 ? 4 * ty + i : BM / 2 + 4 * ty + i - 4);
        if (row >= M) continue;
#pragma unroll
        for (int h = 0; h < 2; h++) {
            int col = bn + h * (BN / 2) + 4 * tx;
            float *c = C + (size_t)row * N + col;
            const float *v = &acc[i][4 * h];
            if (VEC4) {
                if (col >= N) continue; /* N % 4 == 0: the quad is all in or all out */
                float4 out = make_float4(alpha * v[0], alpha * v[1], alpha * v[2], alpha * v[3]);
                if (beta != 0.0f) {
                    float4 old = *(const float4 *)c;
                    out.x += beta * old.x, out.y += beta * old.y, out.z += beta * old.z, out.w += beta * old.w;
                }
                *(float4 *)c = out;
            } else {
#pragma unroll
                for (int j = 0; j < 4; j++)
                    if (col + j < N) c[j] = result(alpha, v[j], beta, c + j);
            }
        }
    }
}

static bool aligned16(const void *p) { return (uintptr_t)p % 16 == 0; }
