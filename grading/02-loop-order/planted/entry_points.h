/* entry_points.h - included at the end of a planted lab-02 submission that defines
 * `static void mm(m, n, k, A, B, C)`: every stage is built on it, so every stage shows the
 * planted behaviour. A plant whose behaviour costs time (a hang, a cheat on the timed calls)
 * may define PLANT_STAGE ("register") first: only that stage then calls mm, and the others
 * leave C alone and fail at once as wrong, so the plant costs one stage's time, not eight. */
#ifdef PLANT_STAGE
static int plant_here(const char *stage)
{
    const char *s = PLANT_STAGE;
    while (*s && *s == *stage) s++, stage++;
    return *s == *stage;
}
#else
#define plant_here(stage) 1
#endif

#define STAGE(name) \
    void gemm_##name(int m, int n, int k, const double *A, const double *B, double *C) \
    { \
        if (plant_here(#name)) mm(m, n, k, A, B, C); \
    }
STAGE(ijk)
STAGE(ikj)
STAGE(jik)
STAGE(jki)
STAGE(kij)
STAGE(kji)
STAGE(blocked)
STAGE(register)
