/* expect: forbidden-syscall
 * threats: 33, 34 (rows of ../shared/GRADER_THREATS.md)
 * Keeps its results across runner processes in SysV shared memory, through raw shmget/shmat (no
 * symbol for the audit to see): a later runner given the same inputs (a retime of the same case)
 * copies the kept product instead of computing it. What it returns is always the right product,
 * so only the shared memory could fail it. The allowlist kills the runner at shmget; a private
 * IPC namespace per runner would leave the segment empty even without it. */
#include <stddef.h>
#include <string.h>
#include "matvec.h"

enum { KEEP = 1 << 20 }; /* doubles kept */

static long raw3(long nr, long a, long b, long c)
{
    long r;
    __asm__ volatile("syscall" : "=a"(r) : "a"(nr), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
    return r;
}

/* The segment: a fingerprint of the inputs, then the product for them. */
typedef struct kept {
    int m, n;
    double a0, a_last, x0, x_last;
    double y[KEEP];
} kept;

static kept *segment(void)
{
    static kept *k;
    if (!k) {
        long id = raw3(29, 0x5eed, (long)sizeof(kept), 01000 | 0666); /* shmget(key, size, IPC_CREAT | 0666) */
        long at = id < 0 ? -1 : raw3(30, id, 0, 0);                     /* shmat(id, NULL, 0) */
        k = at < 0 && at > -4096 ? NULL : (kept *)at;
    }
    return k;
}

static int same(const kept *k, int m, int n, const double *A, const double *x)
{
    return k->m == m && k->n == n && k->a0 == A[0] && k->a_last == A[(size_t)m * n - 1] && k->x0 == x[0] &&
           k->x_last == x[n - 1];
}

static void product(int m, int n, const double *A, const double *x, double *y)
{
    kept *k = segment();
    if (k && m <= KEEP && same(k, m, n, A, x)) {
        memcpy(y, k->y, (size_t)m * sizeof *y);
        return;
    }
    for (int i = 0; i < m; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
        y[i] = s;
    }
    if (k && m <= KEEP) {
        k->m = m, k->n = n, k->a0 = A[0], k->a_last = A[(size_t)m * n - 1], k->x0 = x[0], k->x_last = x[n - 1];
        memcpy(k->y, y, (size_t)m * sizeof *y);
    }
}

#include "planted/entry_points.h"
