/* stats.h - robust statistics for timings. */
#ifndef STATS_H
#define STATS_H

#include <stddef.h>

/* Median of v[0..n) (v is reordered). Returns NaN for n == 0. */
double median(double *v, size_t n);
/* Smallest and sum of v[0..n). */
double min_of(const double *v, size_t n);
double sum_of(const double *v, size_t n);

/* Decimals to print a fraction as a percentage with: as many as it was set with (0.005 is 0.5%,
 * 0.60 is 60%), at most 3; given `other`, also enough that the two do not print the same when
 * they differ (a rate just short of its requirement never reads as equal to it). */
int percent_decimals(double fraction, double other);

#endif
