/* stats.c - see stats.h. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double median(double *v, size_t n)
{
    if (n == 0) return NAN;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double min_of(const double *v, size_t n)
{
    double m = INFINITY;
    for (size_t i = 0; i < n; i++)
        if (v[i] < m) m = v[i];
    return m;
}

double sum_of(const double *v, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++) s += v[i];
    return s;
}

int percent_decimals(double fraction, double other)
{
    int d = 0;
    while (d < 3 && fabs(round(100 * fraction * pow(10, d)) - 100 * fraction * pow(10, d)) > 1e-6) d++;
    while (d < 3 && other != fraction &&
           round(100 * fraction * pow(10, d)) == round(100 * other * pow(10, d)))
        d++;
    return d;
}
