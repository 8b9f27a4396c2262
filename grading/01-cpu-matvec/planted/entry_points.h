/* entry_points.h - included at the end of a planted submission: the lab's three functions, all
 * built on the file's own `static void product(m, n, A, x, y)`, so every stage shows the planted
 * behaviour. (Planted files are graded like student files; this folder is inside the lab folder,
 * so the include audit allows it.) */
#include <stddef.h>

void matvec_rows(int m, int n, const double *const *A, const double *x, double *y)
{
    /* small matrices are copied into one block, so state kept between calls sees one address */
    static double block[1 << 16];
    if ((size_t)m * n > sizeof block / sizeof block[0]) {
        for (int i = 0; i < m; i++) product(1, n, A[i], x, y + i);
        return;
    }
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) block[(size_t)i * n + j] = A[i][j];
    product(m, n, block, x, y);
}

void matvec_contiguous(int m, int n, const double *A, const double *x, double *y) { product(m, n, A, x, y); }
void matvec_unrolled(int m, int n, const double *A, const double *x, double *y) { product(m, n, A, x, y); }
