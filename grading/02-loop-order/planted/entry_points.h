/* entry_points.h - included at the end of a planted lab-02 submission that defines
 * `static void mm(m, n, k, A, B, C)`: every stage is built on it, so every stage shows the
 * planted behaviour. A plant whose behaviour costs time (a hang, a cheat on the timed calls)
 * may define PLANT_STAGES ("register", or "ikj,kij") first: only those stages then call mm, and
 * the others leave C alone and fail at once as wrong, so the plant costs one stage's time, not
 * eight. */
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
