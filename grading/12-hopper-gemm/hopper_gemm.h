/* hopper_gemm.h - lab 12: the functions you write in labs/12-hopper-gemm/hopper_gemm.cu. Do not edit.
 *
 * Each computes C = A B on a Hopper GPU's tensor cores through wgmma: A is M x K half (element
 * (i, k) at A[i * K + k]), B is K x N half (B[k * N + j]), C is M x N float (C[i * N + j]), all
 * row-major, products summed in float: lab 07's problem. C is overwritten: what it held before is
 * garbage and must not be read. M and N are multiples of 256 and K of 64, every stage.
 *
 * Every pointer is a device pointer from cudaMalloc (so at least 256-byte aligned). Each
 * function launches its kernels on the default stream and returns; the grader synchronises
 * and times. Built for sm_90a only: wgmma and setmaxnreg exist on no other architecture. */
#ifndef HOPPER_GEMM_H
#define HOPPER_GEMM_H

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

/* Stage 1: one warpgroup a tile of C, wgmma reading A and B from shared memory, the tiles put
 * there by plain 16-byte copies in the 128-byte swizzled layout. */
void hopper_wgmma(int M, int N, int K, const lab_half *A, const lab_half *B, float *C);

/* Stage 2: the tiles brought by the tensor memory accelerator (TMA) into a ring of shared-memory
 * stages, each completing on an mbarrier, while the tensor cores work on the stage before. */
void hopper_tma(int M, int N, int K, const lab_half *A, const lab_half *B, float *C);

/* Stage 3: warp specialisation: a producer warpgroup that only issues copies (its registers
 * given to the others by setmaxnreg) and consumer warpgroups that only issue MMAs. */
void hopper_specialised(int M, int N, int K, const lab_half *A, const lab_half *B, float *C);

/* Stage 4: a persistent grid walking its tiles in a cache-friendly order, and clusters of 2
 * blocks sharing a tile of B by TMA multicast. */
void hopper_persistent(int M, int N, int K, const lab_half *A, const lab_half *B, float *C);

#ifdef __cplusplus
}
#endif

#endif
