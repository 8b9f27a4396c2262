/* common.h - serial kernels the planted lab-03 submissions use for the stages they are not
 * about, so each plant differs from honest work in one stage only. */
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
