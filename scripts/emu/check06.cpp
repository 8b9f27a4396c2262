/* check06.cpp - lab 06 on the CPU (scripts/emu/run.sh): every stage of SRC, C = alpha A B + beta C,
 * on small shapes (none a multiple of every tile) against a reference in double, within the
 * grader's bound ((K + 2) 2^-24 (|alpha| |A||B| + |beta| |C|), problems.c's fp32_gemm_bound), the
 * 1024 floats either side of C checked. alpha and beta are lab.c's, neither 0 nor 1. */
#include "emu.h"
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include SRC
typedef void (*fn)(int, int, int, float, const float *, const float *, float, float *);
static const size_t G = 1024;
static float *guarded(size_t n, float poison)
{
    float *p = (float *)aligned_alloc(64, ((n + 2 * G) * 4 + 63) / 64 * 64);
    for (size_t k = 0; k < n + 2 * G; k++) p[k] = poison;
    return p + G;
}
int main()
{
    const char *names[] = {"naive", "coalesced", "smem_tiled", "coarsened", "register_2d", "vectorized"};
    fn f[] = {sgemm_naive, sgemm_coalesced, sgemm_smem_tiled, sgemm_coarsened, sgemm_register_2d, sgemm_vectorized};
    int shapes[][3] = {{1, 1, 1}, {17, 17, 17}, {33, 65, 31}, {64, 64, 64}, {100, 37, 129}, {128, 128, 128}, {130, 260, 70}, {7, 300, 4}};
    const float alpha = 1.5f, beta = -0.5f;
    int fails = 0;
    double worst = 0;
    if (!emu_stage_known(names, 6)) return 2;
    emu_begin();
    for (int s = 0; s < (int)(sizeof shapes / sizeof *shapes); s++) {
        int M = shapes[s][0], N = shapes[s][1], K = shapes[s][2];
        float *A = guarded((size_t)M * K, NAN), *B = guarded((size_t)K * N, NAN), *C0 = guarded((size_t)M * N, NAN);
        for (size_t k = 0; k < (size_t)M * K; k++) A[k] = -1 + 2 * (rand() / (RAND_MAX + 1.0f));
        for (size_t k = 0; k < (size_t)K * N; k++) B[k] = -1 + 2 * (rand() / (RAND_MAX + 1.0f));
        for (size_t k = 0; k < (size_t)M * N; k++) C0[k] = -1 + 2 * (rand() / (RAND_MAX + 1.0f));
        char size[64];
        snprintf(size, sizeof size, "m=%d n=%d k=%d", M, N, K);
        if (!emu_size_wanted(size)) continue;
        for (int st = 0; st < 6; st++) {
            if (!emu_stage_wanted(names[st])) continue;
            float *C = guarded((size_t)M * N, -12345.0f);
            for (size_t k = 0; k < (size_t)M * N; k++) C[k] = C0[k];
            emu_at(names[st], size);
            f[st](M, N, K, alpha, A, B, beta, C);
            long bad = 0, oob = 0;
            int fi = 0, fj = 0;
            double fgot = 0, fwant = 0, fbound = 0;
            for (int i = 0; i < M; i++)
                for (int j = 0; j < N; j++) {
                    double r = 0, mag = 0;
                    for (int k = 0; k < K; k++) r += (double)A[(size_t)i * K + k] * B[(size_t)k * N + j], mag += fabs((double)A[(size_t)i * K + k] * B[(size_t)k * N + j]);
                    double c0 = C0[(size_t)i * N + j], want = alpha * r + beta * c0, g = C[(size_t)i * N + j];
                    double bound = (K + 2) * ldexp(fabs(alpha) * mag + fabs(beta * c0), -24);
                    if (!(fabs(g - want) <= bound)) {
                        if (!bad++) fi = i, fj = j, fgot = g, fwant = want, fbound = bound;
                    } else if (bound > 0 && fabs(g - want) / bound > worst)
                        worst = fabs(g - want) / bound;
                }
            for (size_t k = 0; k < G; k++) oob += C[-1 - (long)k] != -12345.0f || C[(size_t)M * N + k] != -12345.0f;
            if (bad || oob) {
                fails++;
                printf("%s %s: %ld wrong, %ld outside\n", names[st], size, bad, oob);
                if (bad) printf("  first: C[%d][%d] = %.9g%s, expected %.9g (|error| must be <= %.3g)\n", fi, fj, fgot,
                                EMU_UNWRITTEN(fgot), fwant, fbound);
            }
            free(C - G);
        }
        free(A - G), free(B - G), free(C0 - G);
    }
    if (emu_nothing_checked()) return 2;
    printf("%s: %d failures; worst error of the passing outputs %.3f of the bound\n", SRC, fails, worst);
    return fails != 0;
}
