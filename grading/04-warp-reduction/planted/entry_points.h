/* entry_points.h - included at the end of a planted lab-04 submission that defines
 * `static void sum(int n, const float *in, float *out, float *work)`, `static void add(...)` and
 * `static void mv(...)`: every stage is built on them, so every stage shows the planted behaviour.
 * A plant about some stages only (or whose behaviour costs time, like a hang) defines
 * PLANT_STAGES ("vector_add,mv_warp") first: the other stages then launch nothing, leave their
 * poisoned output as it is and fail at once as wrong. */
#ifdef PLANT_STAGES
static bool plant_here(const char *stage) /* is `stage` one of the comma-separated PLANT_STAGES? */
{
    for (const char *s = PLANT_STAGES; *s;) {
        const char *t = stage;
        while (*s && *s != ',' && *s == *t) s++, t++;
        if ((!*s || *s == ',') && !*t) return true;
        while (*s && *s != ',') s++;
        s += *s == ',';
    }
    return false;
}
#else
static bool plant_here(const char *) { return true; }
#endif

extern "C" void vector_add(int n, const float *a, const float *b, float *c)
{
    if (plant_here("vector_add")) add(n, a, b, c);
}
#define SUM_STAGE(name) \
    extern "C" void reduce_##name(int n, const float *in, float *out, float *work) \
    { \
        if (plant_here(#name)) sum(n, in, out, work); \
    }
SUM_STAGE(interleaved)
SUM_STAGE(strided)
SUM_STAGE(sequential)
SUM_STAGE(shuffle)
SUM_STAGE(vectorized)
#define MV_STAGE(name) \
    extern "C" void matvec_##name(int m, int n, const double *A, const double *x, double *y) \
    { \
        if (plant_here("mv_" #name)) mv(m, n, A, x, y); \
    }
MV_STAGE(thread)
MV_STAGE(warp)
MV_STAGE(block)
