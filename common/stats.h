/* stats.h - robust statistics for timings. */
#ifndef STATS_H
#define STATS_H

#include <stddef.h>

/* Median of v[0..n) (v is reordered). Returns NaN for n == 0. */
double median(double *v, size_t n);
/* Smallest and sum of v[0..n). */
double min_of(const double *v, size_t n);
double sum_of(const double *v, size_t n);

#endif
