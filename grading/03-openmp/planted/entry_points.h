/* entry_points.h - included at the end of a planted lab-03 submission that defines
 * `static void mv(m, n, A, x, y)`, `static double dt(n, x, y)` and
 * `static void mm(m, n, k, A, B, C)`: matvec is built on mv, dot on dt, matmul and blocked on
 * mm, so every stage shows the planted behaviour, and fails on its first case instead of being
 * graded in full (a lab-03 stage that passes is timed at 1, 2 and 3 threads: a minute).
 * A plant about some stages only defines PLANT_STAGES ("matvec,blocked") first: the other
 * stages then do nothing and fail at once as wrong. */
#ifdef PLANT_STAGES
static int plant_here(const char *stage) /* is `stage` one of the comma-separated PLANT_STAGES? */
{
    for (const char *s = PLANT_STAGES; *s;) {
        const char *t = stage;
        while (*s && *s != ',' && *s == *t) s++, t++;
        if ((!*s || *s == ',') && !*t) return 1;
        while (*s && *s != ',') s++;
        s += *s == ',';
    }
    return 0;
}
#else
#define plant_here(stage) 1
#endif

void omp_matvec(int m, int n, const double *A, const double *x, double *y)
{
    if (plant_here("matvec")) mv(m, n, A, x, y);
}
double omp_dot(int n, const double *x, const double *y) { return plant_here("dot") ? dt(n, x, y) : 0.0; }
void omp_matmul(int m, int n, int k, const double *A, const double *B, double *C)
{
    if (plant_here("matmul")) mm(m, n, k, A, B, C);
}
void omp_blocked(int m, int n, int k, const double *A, const double *B, double *C)
{
    if (plant_here("blocked")) mm(m, n, k, A, B, C);
}
