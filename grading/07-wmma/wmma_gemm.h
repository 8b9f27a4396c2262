/* wmma_gemm.h - lab 07: the functions you write in labs/07-wmma/wmma_gemm.cu. Do not edit.
 *
 * Each computes C = A B on the tensor cores: A is M x K half (element (i, k) at A[i * K + k]),
 * B is K x N half (B[k * N + j]), C is M x N float (C[i * N + j]), all row-major, products
 * summed in float. C is overwritten: what it held before is garbage and must not be read.
 * M, N and K are multiples of 16 (one WMMA fragment), but not necessarily of your block tile.
 *
 * Every pointer is a device pointer from cudaMalloc (so at least 256-byte aligned). Each
 * function launches its kernels on the default stream and returns; the grader synchronises
 * and times. */
#ifndef WMMA_GEMM_H
#define WMMA_GEMM_H

/* A half-precision (IEEE binary16) value: __half in CUDA code, its same 16 bits in plain C,
 * where the harness only moves the values and converts them itself. */
#ifdef __CUDACC__
#include <cuda_fp16.h>
typedef __half lab_half;
#else
typedef unsigned short lab_half;
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Stage 1: one warp per 16 x 16 tile of C, fragments loaded straight from global memory. */
void wmma_warp_tile(int M, int N, int K, const lab_half *A, const lab_half *B, float *C);

/* Stage 2: 128 x 128 x 32 block tiles staged in shared memory, 16 warps of 32 x 32 each. */
void wmma_block_tile(int M, int N, int K, const lab_half *A, const lab_half *B, float *C);

/* Stage 3: padded shared rows (no bank conflicts), 16-byte loads, bigger warp tiles. */
void wmma_padded(int M, int N, int K, const lab_half *A, const lab_half *B, float *C);

/* Stage 4: a multi-stage cp.async pipeline that loads the next tiles while computing. */
void wmma_pipelined(int M, int N, int K, const lab_half *A, const lab_half *B, float *C);

#ifdef __cplusplus
}
#endif

#endif
