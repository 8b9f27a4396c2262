/* expect: wrong
 * threats: 28 (rows of ../shared/GRADER_THREATS.md)
 * diagnosis: gave a different result when run again
 * Wrong by an amount that changes from one run to the next on the same inputs, as code with a
 * race or a read of memory never written is: here the amount comes from where the stack happens
 * to be (address-space randomisation), so two runs almost never agree. */
#include <stddef.h>
#include <stdint.h>
#include "matvec.h"

static void product(int m, int n, const double *A, const double *x, double *y)
{
    for (int i = 0; i < m; i++) {
        double sum = 0;
        for (int j = 0; j < n; j++) sum += A[(size_t)i * n + j] * x[j];
        volatile uintptr_t where = (uintptr_t)&sum;
        y[i] = sum + 1 + (double)((where >> 4) & 0xffff);
    }
}

#include "planted/entry_points.h"
