/* samples_tensorcore.h - compute_gemm of NVIDIA's cuda-samples cudaTensorCoreGemm
 * (Samples/3_CUDA_Features/cudaTensorCoreGemm), for lab 07's textbook files. Its shape, kept:
 * a CTA of 8 warps (256 threads) computes one 128 x 128 tile of C at a time, each warp a 32 x 64
 * piece (WARP_COL_TILES x WARP_ROW_TILES = 2 x 4 fragments of 16 x 16); K is walked in chunks of
 * CHUNK_K = 4 fragments (64 halves: the sample's default, SHARED_MEMORY_LIMIT_64K); warps 0-3
 * copy the chunk of A and warps 4-7 the chunk of B into shared memory with one int4 (8 halves) a
 * lane; the B fragment is loaded once and reused against both A fragments; the finished tile goes
 * through shared memory (the same bytes, as floats) and out with int4 stores, a warp 16 rows;
 * the grid is one CTA a multiprocessor, each sliding over the 128 x 128 tiles (persistent).
 * SKEW is the sample's SKEW_HALF: 16 halves added to every shared row (samples_tensorcore_skew.cu)
 * or 0 (samples_tensorcore_block.cu, the same staging without it).
 *
 * Adapted to the lab's interface, and nothing else:
 *  - B is row-major K x N here (the sample's B is column-major, so its shared rows are B's
 *    columns): B's chunk is kept as it lies, 64 k-rows of 128 halves (+ SKEW), and the matrix_b
 *    fragment is row_major. Each B-copying warp copies 16 of those rows, 2 a step (a row is 256
 *    bytes, 16 lanes), 8 steps: the A warps' 8 steps of 4 rows of 128 bytes.
 *  - D = A B: alpha = 1, beta = 0, and the lab's C is garbage that must not be read, so the
 *    accumulators start at zero (fill_fragment) instead of loading and scaling C.
 *  - M, N and K are runtime arguments (the sample's compile-time M_GLOBAL ...), multiples of 16,
 *    not of 128 or 64: int4 chunks past M, N or K are stored as zeros, the tile walk rounds
 *    N_TILES up to whole CTA tiles, and the output rows and int4 chunks past M or N are not
 *    stored.
 *  - The grid is the multiprocessor count read with cudaDeviceGetAttribute (the sample reads
 *    cudaDeviceProp.multiProcessorCount), and the dynamic shared memory (64 KB, the C tile's
 *    floats, over 48 KB) is opted into with cudaFuncSetAttribute, as the sample does. */
#include <cuda_runtime.h>
#include <mma.h>

using namespace nvcuda;

#define WARP_SIZE 32

/* MMA matrix tile dimensions (the sample's M, N, K, renamed: the lab's arguments are M, N, K). */
#define WMMA_M 16
#define WMMA_N 16
#define WMMA_K 16

#define WARPS_PER_BLOCK 8
#define THREADS_PER_BLOCK (WARP_SIZE * WARPS_PER_BLOCK)

#define CHUNK_K 4

#define CHUNK_LINE_BYTES (CHUNK_K * WMMA_K * sizeof(half))
#define WARP_COPY_BYTES (WARP_SIZE * sizeof(int4))
#define CHUNK_COPY_LINES_PER_WARP (WARP_COPY_BYTES / CHUNK_LINE_BYTES)
#define CHUNK_COPY_LINE_LANES (WARP_SIZE / CHUNK_COPY_LINES_PER_WARP)

#define BLOCK_ROW_WARPS 2
#define BLOCK_COL_WARPS 4

#define WARP_ROW_TILES 4
#define WARP_COL_TILES 2

#define BLOCK_ROW_TILES (WARP_ROW_TILES * BLOCK_ROW_WARPS)
#define BLOCK_COL_TILES (WARP_COL_TILES * BLOCK_COL_WARPS)

#define SHMEM_STRIDE (WMMA_N * BLOCK_ROW_TILES)
#define SHMEM_OFFSET (WMMA_N * WARP_ROW_TILES)

/* The lab's row-major B: a chunk is CHUNK_K * WMMA_K rows of the CTA's 128 columns. */
#define B_LINE_BYTES (WMMA_N * BLOCK_ROW_TILES * sizeof(half))
#define B_COPY_LINES_PER_WARP (WARP_COPY_BYTES / B_LINE_BYTES)
#define B_COPY_LINE_LANES (WARP_SIZE / B_COPY_LINES_PER_WARP)

#define SKEW_HALF 16

/* Shared memory of the CTA: the chunks of A and B, or the 128 x 128 floats of the C tile. */
#define SHMEM_AB(SKEW)                                                                                                 \
    (sizeof(half) * ((BLOCK_COL_TILES * WMMA_M) * (CHUNK_K * WMMA_K + (SKEW)) +                                        \
                     (CHUNK_K * WMMA_K) * (WMMA_N * BLOCK_ROW_TILES + (SKEW))))
#define SHMEM_C                                                                                                        \
    (WMMA_M * (BLOCK_ROW_WARPS * WARP_ROW_TILES) * WMMA_N * (BLOCK_COL_WARPS * WARP_COL_TILES) * sizeof(float))
#define SHMEM_SZ(SKEW) (SHMEM_AB(SKEW) > SHMEM_C ? SHMEM_AB(SKEW) : SHMEM_C)

template <int SKEW>
static __global__ void compute_gemm(const half *A, const half *B, float *D, int M_GLOBAL, int N_GLOBAL, int K_GLOBAL)
{
    extern __shared__ half shmem[][CHUNK_K * WMMA_K + SKEW];

    const unsigned int M_TILES = M_GLOBAL / WMMA_M, K_TILES = K_GLOBAL / WMMA_K;
    /* the tile walk needs whole CTA tiles across */
    const unsigned int N_TILES = (N_GLOBAL / WMMA_N + BLOCK_ROW_TILES - 1) / BLOCK_ROW_TILES * BLOCK_ROW_TILES;
    const size_t GLOBAL_MEM_STRIDE = N_GLOBAL;

    // Warp and lane identification.
    const unsigned int warpId = threadIdx.x / WARP_SIZE;
    const unsigned int laneId = threadIdx.x % WARP_SIZE;

    // Offset in shared memory from which the B matrix is stored.
    const size_t shmem_idx_b_off = BLOCK_COL_TILES * WMMA_M;
    /* B's chunk as it lies in the lab's row-major B: CHUNK_K * WMMA_K rows of 128 (+ SKEW) */
    half(*shmem_b)[WMMA_N * BLOCK_ROW_TILES + SKEW] =
        reinterpret_cast<half(*)[WMMA_N * BLOCK_ROW_TILES + SKEW]>(&shmem[shmem_idx_b_off][0]);

    // This pointer is used to access the C and D matrix tiles this warp computes.
    float *shmem_warp_tile_ptr =
        (float *)&shmem[0][0] + (warpId / 2) * SHMEM_STRIDE * WMMA_K * 2 + (warpId % 2) * SHMEM_OFFSET;

    // This pointer is used to stream the C and D matrices block-wide tile to and from shared memory.
    float *shmem_warp_stream_ptr = (float *)&shmem[0][0] + warpId * SHMEM_STRIDE * WMMA_K;

    // Each CTA slides along the 128 x 128 tiles from the top left corner of the matrix to the
    // right and down, and selects the next tile to compute. Once there's no such tile, all warps
    // in this CTA exit.
    for (unsigned int block_pos = blockIdx.x;; block_pos += gridDim.x) {
        const unsigned int block_tile_i = ((block_pos * BLOCK_ROW_TILES) / N_TILES) * (BLOCK_COL_TILES);
        const unsigned int block_tile_j = (block_pos * BLOCK_ROW_TILES) % N_TILES;

        // Stop when there are no more D matrix tiles to compute in this CTA.
        if (block_tile_i >= M_TILES) {
            break;
        }

        // This warp's pointer to the D matrix data (C is not read: beta = 0).
        const size_t gmem_idx = (size_t)(block_tile_i + warpId) * WMMA_M * GLOBAL_MEM_STRIDE + block_tile_j * WMMA_N;

        // These fragments will accumulate the result of A and B matrix fragment multiplications
        // along the K_GLOBAL dimension.
        wmma::fragment<wmma::accumulator, WMMA_M, WMMA_N, WMMA_K, float> c[WARP_COL_TILES][WARP_ROW_TILES];

#pragma unroll
        for (int i = 0; i < WARP_COL_TILES; i++) {
#pragma unroll
            for (int j = 0; j < WARP_ROW_TILES; j++) {
                wmma::fill_fragment(c[i][j], 0.0f);
            }
        }

        // Select what warp copies what matrix to shared memory.
        // Warps 0-3 copy the A matrix, warps 4-7 copy the B matrix.
        const unsigned int copy_row =
            warpId < 4 ? block_tile_i * WMMA_M + WMMA_M * (warpId % 4) * 2 : CHUNK_K * WMMA_K / 4 * (warpId % 4);

        // Go through the global K dimension by a fixed step at a time.
        for (unsigned int tile_k = 0; tile_k < K_TILES; tile_k += CHUNK_K) {
            // Copy slices of the A and B matrices to shared memory.
            // The first half of the warps in the CTA copy the A matrix, the rest copy the B matrix.
            if (warpId < (WARPS_PER_BLOCK / 2)) {
                size_t shmem_idx = WMMA_M * (warpId % (WARPS_PER_BLOCK / 2)) * 2;

                // A quarter of the warp copies each row of the chunk.
                unsigned int row = copy_row + laneId / CHUNK_COPY_LINE_LANES;
                unsigned int col = tile_k * WMMA_K + (laneId % CHUNK_COPY_LINE_LANES) * 8;

                shmem_idx += laneId / CHUNK_COPY_LINE_LANES;

#pragma unroll
                for (int i = 0; i < ((WARP_SIZE / 2) / CHUNK_COPY_LINES_PER_WARP) * 2; i++) {
                    // Copy 16 bytes at once in each lane (zeros past M or K).
                    *((int4 *)&shmem[shmem_idx][0] + (laneId % CHUNK_COPY_LINE_LANES)) =
                        row < (unsigned)M_GLOBAL && col < (unsigned)K_GLOBAL
                            ? *(const int4 *)&A[(size_t)row * K_GLOBAL + col]
                            : make_int4(0, 0, 0, 0);

                    // Advance the global memory row and the shared memory index.
                    row += CHUNK_COPY_LINES_PER_WARP;
                    shmem_idx += CHUNK_COPY_LINES_PER_WARP;
                }
            } else {
                // Half of the warp copies each row of B's chunk (256 bytes).
                unsigned int shmem_row = copy_row + laneId / B_COPY_LINE_LANES;
                unsigned int row = tile_k * WMMA_K + shmem_row;
                unsigned int col = block_tile_j * WMMA_N + (laneId % B_COPY_LINE_LANES) * 8;

#pragma unroll
                for (int i = 0; i < CHUNK_K * WMMA_K / 4 / B_COPY_LINES_PER_WARP; i++) {
                    *((int4 *)&shmem_b[shmem_row][0] + (laneId % B_COPY_LINE_LANES)) =
                        row < (unsigned)K_GLOBAL && col < (unsigned)N_GLOBAL
                            ? *(const int4 *)&B[(size_t)row * N_GLOBAL + col]
                            : make_int4(0, 0, 0, 0);

                    row += B_COPY_LINES_PER_WARP;
                    shmem_row += B_COPY_LINES_PER_WARP;
                }
            }

            __syncthreads();

            // Compute a grid of C matrix tiles in each warp.
#pragma unroll
            for (int k_step = 0; k_step < CHUNK_K; k_step++) {
                wmma::fragment<wmma::matrix_a, WMMA_M, WMMA_N, WMMA_K, half, wmma::row_major> a[WARP_COL_TILES];
                wmma::fragment<wmma::matrix_b, WMMA_M, WMMA_N, WMMA_K, half, wmma::row_major> b[WARP_ROW_TILES];

#pragma unroll
                for (int i = 0; i < WARP_COL_TILES; i++) {
                    size_t shmem_idx_a = (warpId / 2) * WMMA_M * 2 + (i * WMMA_M);
                    const half *tile_ptr = &shmem[shmem_idx_a][k_step * WMMA_K];

                    wmma::load_matrix_sync(a[i], tile_ptr, WMMA_K * CHUNK_K + SKEW);

#pragma unroll
                    for (int j = 0; j < WARP_ROW_TILES; j++) {
                        if (i == 0) {
                            // Load the B matrix fragment once, because it is going to be reused
                            // against the other A matrix fragments.
                            size_t shmem_idx_b = (WARP_ROW_TILES * WMMA_N) * (warpId % 2) + (j * WMMA_N);
                            const half *tile_ptr = &shmem_b[k_step * WMMA_K][shmem_idx_b];

                            wmma::load_matrix_sync(b[j], tile_ptr, WMMA_N * BLOCK_ROW_TILES + SKEW);
                        }

                        wmma::mma_sync(c[i][j], a[i], b[j], c[i][j]);
                    }
                }
            }

            __syncthreads();
        }

        // Store the D fragments to shared memory.
#pragma unroll
        for (int i = 0; i < WARP_COL_TILES; i++) {
#pragma unroll
            for (int j = 0; j < WARP_ROW_TILES; j++) {
                float *tile_ptr = shmem_warp_tile_ptr + i * SHMEM_STRIDE * WMMA_K + j * WMMA_N;

                wmma::store_matrix_sync(tile_ptr, c[i][j], SHMEM_STRIDE, wmma::mem_row_major);
            }
        }

        __syncthreads();

        // Now that shared memory contains all the D tiles, stream them to global memory
        // (the rows and int4 chunks inside D only).
        float *dst_gmem_warp_stream_ptr = &D[gmem_idx];
        const bool col_in = block_tile_j * WMMA_N + laneId * 4 < (unsigned)N_GLOBAL;

#pragma unroll
        for (int i = 0; i < WMMA_K; i++) {
            if (col_in && (block_tile_i + warpId) * WMMA_M + i < (unsigned)M_GLOBAL)
                *((int4 *)(dst_gmem_warp_stream_ptr + GLOBAL_MEM_STRIDE * i) + laneId) =
                    *((int4 *)(shmem_warp_stream_ptr + SHMEM_STRIDE * i) + laneId);
        }

        __syncthreads();
    }
}

/* The sample's host side: opt in to the dynamic shared memory, one CTA a multiprocessor. */
template <int SKEW> static void samples_tensorcore_gemm(int M, int N, int K, const half *A, const half *B, float *C)
{
    int device = 0, sms = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaFuncSetAttribute(compute_gemm<SKEW>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)SHMEM_SZ(SKEW));
    compute_gemm<SKEW><<<sms, THREADS_PER_BLOCK, SHMEM_SZ(SKEW)>>>(A, B, C, M, N, K);
}
