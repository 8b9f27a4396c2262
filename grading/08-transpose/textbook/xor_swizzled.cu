/* textbook: swizzled
 * Lei Mao, "CUDA Shared Memory Swizzling" (leimao.github.io, 2024), the kernel
 * transpose_swizzling<T, BLOCK_TILE_SIZE_X = 32, BLOCK_TILE_SIZE_Y = 32> and its launcher: blocks
 * of 32 x 32 threads, one element a thread, an unpadded __shared__ T shm[32][32] in which element
 * (y, x) is stored at column (x ^ y) % 32; the block stores its tile along rows of the input,
 * and after one __syncthreads() re-numbers its threads column-major (thread_idx / 32, % 32) to
 * read the tile down its columns, un-swizzling with the same XOR, and write rows of the output.
 * The post's kernel already takes an M x N row-major input, writes the N x M output
 * (output_matrix_x + output_matrix_y * M), rounds its grid up and tests both phases' bounds.
 * Added for the lab's interface: only the instantiation for float and the entry point's order of
 * arguments (the launcher's stream argument dropped: the default stream). Graded on `swizzled`
 * only: the other stages are stubs. */
#include "transpose.h"

#include <cuda_runtime.h>

#define CDIV(M, N) (((M) + (N) - 1) / (N))

template <typename T, size_t BLOCK_TILE_SIZE_X = 32, size_t BLOCK_TILE_SIZE_Y = 32>
static __global__ void transpose_swizzling(T *output_matrix, T const *input_matrix, size_t M, size_t N)
{
    __shared__ T shm[BLOCK_TILE_SIZE_Y][BLOCK_TILE_SIZE_X];

    size_t const input_matrix_x = threadIdx.x + blockIdx.x * blockDim.x;
    size_t const input_matrix_y = threadIdx.y + blockIdx.y * blockDim.y;
    size_t const input_matrix_idx = input_matrix_x + input_matrix_y * N;
    size_t const shm_to_x = threadIdx.x;
    size_t const shm_to_y = threadIdx.y;
    size_t const shm_to_x_swizzled = (shm_to_x ^ shm_to_y) % BLOCK_TILE_SIZE_X;

    if ((input_matrix_y < M) && (input_matrix_x < N)) {
        // Coalesced global memory access.
        shm[shm_to_y][shm_to_x_swizzled] = input_matrix[input_matrix_idx];
    }

    // Make sure the buffer in a block is filled.
    __syncthreads();

    size_t const block_thread_idx = threadIdx.x + threadIdx.y * blockDim.x;
    size_t const shm_from_x = block_thread_idx / BLOCK_TILE_SIZE_Y;
    size_t const shm_from_y = block_thread_idx % BLOCK_TILE_SIZE_Y;
    size_t const shm_from_x_swizzled = (shm_from_x ^ shm_from_y) % BLOCK_TILE_SIZE_X;

    size_t const output_matrix_x = shm_from_y + blockIdx.y * blockDim.y;
    size_t const output_matrix_y = shm_from_x + blockIdx.x * blockDim.x;
    size_t const output_matrix_idx = output_matrix_x + output_matrix_y * M;

    if ((output_matrix_y < N) && (output_matrix_x < M)) {
        // Coalesced global memory access.
        // No shared memory bank conflict.
        output_matrix[output_matrix_idx] = shm[shm_from_y][shm_from_x_swizzled];
    }
}

template <typename T>
static void launch_transpose_without_shm_bank_conflict_via_swizzling(T *d_output_matrix, T const *d_input_matrix,
                                                                     size_t M, size_t N)
{
    constexpr size_t BLOCK_TILE_SIZE_X{32};
    constexpr size_t BLOCK_TILE_SIZE_Y{32};
    dim3 const block_size{BLOCK_TILE_SIZE_X, BLOCK_TILE_SIZE_Y};
    dim3 const grid_size{static_cast<unsigned int>(CDIV(N, block_size.x)),
                         static_cast<unsigned int>(CDIV(M, block_size.y))};
    transpose_swizzling<T, BLOCK_TILE_SIZE_X, BLOCK_TILE_SIZE_Y><<<grid_size, block_size>>>(d_output_matrix,
                                                                                           d_input_matrix, M, N);
}

extern "C" void transpose_naive(int m, int n, const float *in, float *out)
{
    (void)m, (void)n, (void)in, (void)out;
}

extern "C" void transpose_tiled(int m, int n, const float *in, float *out)
{
    (void)m, (void)n, (void)in, (void)out;
}

extern "C" void transpose_padded(int m, int n, const float *in, float *out)
{
    (void)m, (void)n, (void)in, (void)out;
}

extern "C" void transpose_swizzled(int m, int n, const float *in, float *out)
{
    launch_transpose_without_shm_bank_conflict_via_swizzling<float>(out, in, (size_t)m, (size_t)n);
}

extern "C" void transpose_vectorized(int m, int n, const float *in, float *out)
{
    (void)m, (void)n, (void)in, (void)out;
}
