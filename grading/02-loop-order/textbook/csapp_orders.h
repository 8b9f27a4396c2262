/* csapp_orders.h - the unit-stride loop orders as R. E. Bryant and D. R. O'Hallaron teach them
 * (Computer Systems: A Programmer's Perspective, 3rd ed., 2016, section 6.6.2, "Rearranging
 * Loops to Increase Spatial Locality": six versions of matrix multiply in three classes, of which
 * kij and ikj, class BC, walk B and C by rows and run fastest), written in this workbook's own
 * code: the matrices viewed as two-dimensional arrays; the element of A that the inner loop
 * keeps fixed read once into a local r; the inner loop C[i][j] += r * B[k][j] over j. Lab
 * adaptations: the book's matrices are n x n; here C is m x n, A m x k and B k x n, viewed as
 * variable-length arrays of those row lengths; double precision, as in the book. A file including
 * this defines ORDER_IKJ or ORDER_KIJ first, and is graded on that stage only. */
#include <stddef.h>

static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    const double(*a)[k] = (const double(*)[k])A;
    const double(*b)[n] = (const double(*)[n])B;
    double(*c)[n] = (double(*)[n])C;
#ifdef ORDER_IKJ
    for (int i = 0; i < m; i++)
        for (int p = 0; p < k; p++) {
            double r = a[i][p];
            for (int j = 0; j < n; j++) c[i][j] += r * b[p][j];
        }
#else
    for (int p = 0; p < k; p++)
        for (int i = 0; i < m; i++) {
            double r = a[i][p];
            for (int j = 0; j < n; j++) c[i][j] += r * b[p][j];
        }
#endif
}

#include "planted/entry_points.h"
