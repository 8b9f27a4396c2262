/* check07.cpp - lab 07 on the CPU (scripts/emu/run.sh): every stage of SRC, C = A B with A and B in
 * half precision and C in float, on small shapes (multiples of 16, as wmma_gemm.h promises, none a
 * multiple of every block tile: M and N past 128 and 256 by 16, K not a multiple of 32) against a
 * reference in double, within lab.c's bound (problems.c's hgemm_reference: twice (K + 2) 2^-24
 * |A||B|, since tensor cores may truncate). Each call gets fresh inputs, multiples of 2^-8 in
 * [-1, 1] as the grader's (so a kept result shows), from a seed of its shape and stage (SIZE= and
 * STAGE= replay them); the 1024 elements either side of C are checked, and A and B unchanged.
 * The GPU emulated is an H100: __CUDA_ARCH__ 900 for the file (cp.async, ldmatrix and mma.sync
 * paths), compute capability 9.0 and 227 KB of opt-in shared memory from cudaDeviceGetAttribute.
 * Building by hand with -D__CUDA_ARCH__=800 or 750 emulates an A100 or a Turing GPU instead. */
#include "emu.h"
#include "emu_ptx.h"
#include "emu_wmma.h"
#include "guards.h"
#include <cmath>
#include <cstdio>
#include <cstdlib>
#ifndef __CUDA_ARCH__
#define __CUDA_ARCH__ 900
#endif
#define __CUDACC__ /* wmma_gemm.h: lab_half is __half, as nvcc compiles it */
/* POSIX's pipe(), which <csignal> brings in here and nvcc's headers do not, is a name the
 * reference gives its tile shapes */
#define pipe emu_lab_pipe
#include SRC
#undef pipe
typedef void (*fn)(int, int, int, const lab_half *, const lab_half *, float *);
/* A launch asking for more than 48 KB of dynamic shared memory fails on a GPU unless
 * cudaFuncSetAttribute raised the kernel's limit first (emu.h keeps the largest raise). */
static bool opted_in(size_t bytes)
{
    if (bytes <= 48 * 1024 || bytes <= emu_dynamic_optin) return true;
    fprintf(
        stderr,
        "emu: a launch asks for %zu bytes of dynamic shared memory (in %s), more than the 48 KB a kernel gets "
        "unless cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) raised it first: on a "
        "GPU the launch fails (invalid argument) and nothing runs\n",
        bytes, emu_where);
    return false;
}
int main()
{
    const char *names[] = {"warp_tile", "block_tile", "padded", "pipelined"};
    fn f[] = {wmma_warp_tile, wmma_block_tile, wmma_padded, wmma_pipelined};
    /* the smallest; lab.c's 48 x 80 x 32; M past 128 and N past 256 by a fragment, K a 32-step and a
     * half; a long K (304: 2 x 128 + 48, rings of 2 and 3 stages wrap); M past 256 with one fragment
     * column; whole 128 x 256 x 128 tiles (no partial one to hide a grid one too large); a shape of
     * no pattern. EMU_QUICK=1 (scripts/emu/all.sh, for planted files): the first three. */
    int shapes[][3] = {{16, 16, 16},  {48, 80, 32},    {144, 272, 48}, {32, 48, 304},
                       {272, 16, 80}, {128, 256, 128}, {208, 400, 112}};
    bool quick = getenv("EMU_QUICK") && *getenv("EMU_QUICK") == '1';
    int nshapes = quick ? 3 : (int)(sizeof shapes / sizeof *shapes), fails = 0;
    size_t optin[4] = {0, 0, 0, 0}; /* each stage's kernels keep their raised limits from call to call */
    double worst = 0;
    if (!emu_stage_known(names, 4)) return 2;
    emu_begin();
    printf("the GPU emulated: compute capability %d.%d; cp.async copies land at the wait_group that completes them\n",
           EMU_CC / 10, EMU_CC % 10);
    emu_launch_check = opted_in;
    for (int s = 0; s < nshapes; s++) {
        int M = shapes[s][0], N = shapes[s][1], K = shapes[s][2];
        size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
        char size[64];
        snprintf(size, sizeof size, "m=%d n=%d k=%d", M, N, K);
        if (!emu_size_wanted(size)) continue;
        for (int st = 0; st < 4; st++) {
            if (!emu_stage_wanted(names[st])) continue;
            const __half nan = __ushort_as_half(0x7e00);
            __half *A = guarded(na, nan), *B = guarded(nb, nan), *A0 = guarded(na, nan), *B0 = guarded(nb, nan);
            float *C = guarded(nc, -12345.0f);
            unsigned long long x = (unsigned long long)(s * 4 + st + 1) * 0x9e3779b97f4a7c15ull;
            for (size_t k = 0; k < na + nb; k++) {
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                __half v = __float2half((float)((int)(x % 513) - 256) / 256); /* k / 256, k in [-256, 256] */
                (k < na ? A[k] : B[k - na]) = v, (k < na ? A0[k] : B0[k - na]) = v;
            }
            emu_dynamic_optin = optin[st];
            emu_at(names[st], size);
            f[st](M, N, K, A, B, C);
            optin[st] = emu_dynamic_optin;
            long bad = 0, oob = 0, changed = 0;
            int fi = 0, fj = 0;
            double fgot = 0, fwant = 0, fbound = 0;
            for (int i = 0; i < M; i++)
                for (int j = 0; j < N; j++) {
                    double r = 0, mag = 0;
                    for (int k = 0; k < K; k++) {
                        double p = (double)(float)A0[(size_t)i * K + k] * (float)B0[(size_t)k * N + j];
                        r += p, mag += fabs(p);
                    }
                    double g = C[(size_t)i * N + j], bound = 2 * (K + 2) * ldexp(mag, -24);
                    if (!(fabs(g - r) <= bound)) {
                        if (!bad++) fi = i, fj = j, fgot = g, fwant = r, fbound = bound;
                    } else if (bound > 0 && fabs(g - r) / bound > worst)
                        worst = fabs(g - r) / bound;
                }
            for (size_t k = 0; k < G; k++) oob += C[-1 - (long)k] != -12345.0f || C[nc + k] != -12345.0f;
            changed = memcmp(A - G, A0 - G, (na + 2 * G) * 2) != 0 || memcmp(B - G, B0 - G, (nb + 2 * G) * 2) != 0;
            if (bad || oob || changed) {
                fails++;
                printf("%s %s: %ld wrong, %ld outside%s\n", names[st], size, bad, oob,
                       changed ? ", and A or B changed" : "");
                if (bad)
                    printf("  first: C[%d][%d] = %.9g%s, expected %.9g (|error| must be <= %.3g)\n", fi, fj, fgot,
                           EMU_UNWRITTEN(fgot), fwant, fbound);
            }
            free(A - G), free(B - G), free(A0 - G), free(B0 - G), free(C - G);
        }
    }
    if (emu_nothing_checked()) return 2;
    printf("%s: %d failures; worst error of the passing outputs %.3f of the bound\n", SRC, fails, worst);
    return fails != 0;
}
