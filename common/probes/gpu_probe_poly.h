/* gpu_probe_poly.h - the GPU probe's polynomial kernels at the one degree a lab's build names
 * (UNROLLED_DEGREE, from its lab.mk: lab 05's POLY_DEGREE), fully unrolled as the lab's own kernel
 * is. A translation unit of their own (gpu_probe_poly.cu): unrolling 2048 multiply-adds is most of
 * the probe's compile, and apart it runs beside the rest of the build. */
#pragma once
#include <cuda_runtime.h>

int poly_unrolled_degree(void); /* UNROLLED_DEGREE, or -1 where the build named none */
/* c[0..degree], degree the unrolled degree: copied to the kernels' constant memory */
void poly_set_coefficients(const float *c, int degree);
/* y = c[0] + c[1] x + ... by Horner's rule on n elements, ilp (1, 2 or 4) of them a thread, on s */
void poly_unrolled(int ilp, int n, const float *x, float *y, cudaStream_t s);
