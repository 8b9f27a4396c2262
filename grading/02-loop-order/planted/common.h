/* common.h - an honest kernel the planted lab-02 submissions build on, so each plant differs
 * from correct work only in its planted behaviour: C += A B in i-k-j order (unit stride inside,
 * fast enough that the timed 1024^3 case takes well under the plants' 3-second limit). */
#include <stddef.h>

static void ikj(int m, int n, int k, const double *restrict A, const double *restrict B, double *restrict C)
{
    for (int i = 0; i < m; i++)
        for (int p = 0; p < k; p++) {
            double a = A[(size_t)i * k + p];
            for (int j = 0; j < n; j++) C[(size_t)i * n + j] += a * B[(size_t)p * n + j];
        }
}
