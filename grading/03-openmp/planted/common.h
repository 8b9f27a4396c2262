/* common.h - honest kernels the planted lab-03 submissions use: serial ones for the stages a
 * plant is not about (so each differs from honest work in one stage only), and parallel ones
 * for plants built on planted/entry_points.h. */
#include <stddef.h>

static void serial_matvec(int m, int n, const double *A, const double *x, double *y)
{
    for (int i = 0; i < m; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
        y[i] = s;
    }
}

static void serial_matmul(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (int i = 0; i < m; i++)
        for (int p = 0; p < k; p++)
            for (int j = 0; j < n; j++) C[(size_t)i * n + j] += A[(size_t)i * k + p] * B[(size_t)p * n + j];
}

static double serial_dot(int n, const double *x, const double *y)
{
    double s = 0;
    for (int i = 0; i < n; i++) s += x[i] * y[i];
    return s;
}

/* A serial matvec four rows at a time, as fast as one thread streams memory: the kernel the plants
 * that do all the work on one thread use (fast_beside, probe_aware). */
static void four_rows(int m, int n, const double *A, const double *x, double *y)
{
    int i = 0;
    for (; i + 4 <= m; i += 4) {
        const double *a0 = A + (size_t)i * n, *a1 = a0 + n, *a2 = a1 + n, *a3 = a2 + n;
        double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        for (int j = 0; j < n; j++) s0 += a0[j] * x[j], s1 += a1[j] * x[j], s2 += a2[j] * x[j], s3 += a3[j] * x[j];
        y[i] = s0, y[i + 1] = s1, y[i + 2] = s2, y[i + 3] = s3;
    }
    serial_matvec(m - i, n, A + (size_t)i * n, x, y + i);
}

static void par_matvec(int m, int n, const double *A, const double *x, double *y)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < m; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
        y[i] = s;
    }
}

static double par_dot(int n, const double *x, const double *y)
{
    double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(static)
    for (int i = 0; i < n; i++) s += x[i] * y[i];
    return s;
}

/* Rows of C shared out, i-k-j inside: fast enough for the timed 1024^3 case in a few seconds. */
static void par_matmul(int m, int n, int k, const double *A, const double *B, double *C)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < m; i++)
        for (int p = 0; p < k; p++) {
            const double a = A[(size_t)i * k + p], *restrict b = B + (size_t)p * n;
            double *restrict c = C + (size_t)i * n;
            for (int j = 0; j < n; j++) c[j] += a * b[j];
        }
}
