/* textbook: naive
 * A 2D convolution straight from global memory, following the design of the basic kernel in
 * chapter 7 of Kirk and Hwu, Programming Massively Parallel Processors (4th ed., 2022; section
 * 7.2, Fig. 7.7), written in this workbook's own code: one output pixel a thread, its column and
 * row from the 2D grid; the sum of all (2r + 1)^2 taps in two nested loops, filter row outside,
 * filter column inside; each tap's input position tested against the image, all four bounds in
 * one test inside the inner loop, so that taps on ghost cells add nothing (zero padding); image
 * values and weights both read from global memory through plain pointers; blocks of 16 x 16
 * threads (the chapter gives no launch for this kernel; 16 x 16 is the book's customary 2D block
 * for images, chapter 3, and the one textbook/pmpp_constant.cu uses). Lab adaptations: the
 * filter is a flat K x K array with K a run-time value, indexed row * K + column where the book
 * writes F[fRow][fCol], with r = K / 2; the grid is rounded up and the store checked against the
 * image, which the book's kernel does not do; the image is n wide and m high; the input and
 * filter pointers are const. Graded on `naive` only: the other stages are stubs. */
#include "textbook/pmpp_kernel.h"

extern "C" void conv_naive(int m, int n, int K, const float *in, const float *filter, float *out)
{
    one_pixel_a_thread<false>(m, n, K, in, filter, out);
}
EMPTY_STAGE(constant)
EMPTY_STAGE(tiled)
EMPTY_STAGE(coarsened)
