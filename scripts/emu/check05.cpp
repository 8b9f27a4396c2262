/* check05.cpp - lab 05 on the CPU (scripts/emu/run.sh): every stage of SRC as the grader calls it
 * (runner.c): create, then run several times, each on new inputs with y poisoned, the device
 * synchronised before y is read (streams.h: y must be complete when the grader next looks, which is
 * after a device synchronisation), then the device synchronised and destroy, after which nothing it
 * made may be left. Streams, events and graphs are emu_streams.h's: work is queued and runs, in a
 * shuffled order each dependency allows, only when the host waits, so a missing wait between streams
 * shows as a wrong y. Small shapes: n = 1, chunks above n, chunks that do not divide n, more streams
 * than chunks, one stream; y checked against Horner's rule in double within lab.c's bound, x and c
 * against their copies, the 1024 elements either side of x and y against their poison. */
#include "emu_streams.h"
#include "guards.h"
#include <cstdio>
#include <cstdlib>
/* unistd.h (emu.h needs it) declares pipe(), which nvcc's headers do not: a student's type of that
 * name (honest/role_streams.cu has one) would clash with it. */
#define pipe emu_student_pipe
/* A file written before stage 5 came has no matvec functions: weak here, as the runner's stand-ins
 * are, so its other stages are checked and this one is said to be missing. */
#include "streams.h"
extern "C" void *matvec_create(int, int, const double *, const double *, double *) __attribute__((weak));
extern "C" void matvec_run(void *) __attribute__((weak));
extern "C" void matvec_destroy(void *) __attribute__((weak));
#include SRC
#undef pipe

static uint64_t data_state; /* the inputs' generator: seeded by the size, so SIZE= replays the same data */
static double uniform()
{
    data_state ^= data_state << 13, data_state ^= data_state >> 7, data_state ^= data_state << 17;
    return -1 + 2 * ((data_state >> 11) * 0x1p-53);
}

/* Where a stage's call stands, for a crash, a hang, an error said by emu_streams.h or an exit(). */
static const char *stage_now, *size_now;
static void at(const char *phase)
{
    static char buf[160];
    snprintf(buf, sizeof buf, "%s, in %s", size_now, phase);
    emu_at(stage_now, buf);
}
static bool in_student;
static void student_exited()
{
    if (!in_student) return;
    printf("\nemu: crashed (exit() called: a CUDA_CHECK that failed? its message is above) in %s\n", emu_where);
    fflush(stdout);
    _exit(1);
}

/* A NaN read from device memory nothing wrote (cudaMalloc's poison here), said as such. */
static const char *hint(double v)
{
    return v != v ? " (NaN: device memory nothing had written yet? cudaMalloc'd memory starts as NaN here)"
                  : EMU_UNWRITTEN(v);
}

/* What a stage's check found, said as one line (and the first wrong element's). */
struct verdict {
    long wrong = 0, oob = 0;
    const char *changed = nullptr; /* an input the call changed */
    int call = 0;                  /* the run it was found at, from 1 */
    char first[300] = "";
};

static const char *const names[] = {"pageable", "pinned", "pipelined", "graph", "matvec"};
struct poly_shape {
    int streams, n, chunks;
};
typedef void *(*plain_create)(int, const float *, float *, const float *);
typedef void *(*pipe_create)(int, int, int, const float *, float *, const float *);
static plain_create plain[] = {pageable_create, pinned_create};
static pipe_create piped[] = {pipelined_create, graph_create};
static void (*runs[])(void *) = {pageable_run, pinned_run, pipelined_run, graph_run, matvec_run};
static void (*destroys[])(void *) = {pageable_destroy, pinned_destroy, pipelined_destroy, graph_destroy,
                                     matvec_destroy};

/* The end of a stage at one size: destroy after the grader's synchronisation, then what it left
 * and the errors the emulator said, all in one report. 1 when the stage failed there. */
static int finish(int st, void *state, const verdict &v, int calls)
{
    emu_checker_sync();
    at("destroy");
    in_student = true;
    destroys[st](state);
    in_student = false;
    char left[400];
    int leaked = emu_left_behind(left, sizeof left), errors = emu_stage_errors;
    if (!v.wrong && !v.oob && !v.changed && !leaked && !errors) return 0;
    printf("%s %s:", names[st], size_now);
    if (v.wrong || v.oob)
        printf(" %ld wrong, %ld outside (call %d of %d, new inputs each)", v.wrong, v.oob, v.call, calls);
    if (v.changed) printf("%s %s changed (inputs are read-only)", v.wrong || v.oob ? ";" : "", v.changed);
    if (leaked) printf("%s %s", v.wrong || v.oob || v.changed ? ";" : "", left);
    if (errors)
        printf("%s %d CUDA call%s refused (said above)", v.wrong || v.oob || v.changed || leaked ? ";" : "", errors,
               errors > 1 ? "s" : "");
    printf("\n");
    if (v.wrong) printf("  first: %s\n", v.first);
    return 1;
}

/* Stages 1 to 4 at one shape: y = p(x), each call on new x. */
static int check_poly(int st, int number, poly_shape sh, int calls)
{
    char size[80];
    if (st < 2)
        snprintf(size, sizeof size, "n=%d", sh.n);
    else
        snprintf(size, sizeof size, "streams=%d n=%d chunks=%d", sh.streams, sh.n, sh.chunks);
    if (!emu_stage_wanted(names[st]) || !emu_size_wanted(size)) return 0;
    stage_now = names[st], size_now = size;
    data_state = 0x9e3779b97f4a7c15ull * (unsigned)(number + 1);
    emu_streams_begin_size(st, number);
    size_t n = sh.n, nc = POLY_DEGREE + 1;
    float *x = guarded<float>(n, NAN), *y = guarded<float>(n, -12345.0f), *c = guarded<float>(nc, NAN);
    float *x0 = (float *)malloc(n * 4), *c0 = (float *)malloc(nc * 4);
    double *ref = (double *)malloc(n * 8), *bound = (double *)malloc(n * 8);
    for (size_t k = 0; k < nc; k++) c[k] = c0[k] = (float)uniform();
    for (size_t k = 0; k < n; k++) x[k] = (float)uniform();
    at("create");
    in_student = true;
    void *state = st < 2 ? plain[st](sh.n, x, y, c) : piped[st - 2](sh.n, sh.chunks, sh.streams, x, y, c);
    in_student = false;
    emu_checker_sync();
    verdict v;
    for (int call = 1; call <= calls && !v.wrong && !v.oob && !v.changed; call++) {
        for (size_t k = 0; k < n; k++) x[k] = x0[k] = (float)uniform(), y[k] = -12345.0f;
        char phase[40];
        snprintf(phase, sizeof phase, "run (call %d)", call);
        at(phase);
        in_student = true;
        runs[st](state);
        in_student = false;
        emu_checker_sync();
        for (size_t i = 0; i < n; i++) { /* Horner in double, lab.c's bound from a second pass on |c| and |x| */
            double r = c0[nc - 1], m = fabs((double)c0[nc - 1]), a = fabs((double)x0[i]);
            for (int k = POLY_DEGREE - 1; k >= 0; k--) r = r * x0[i] + c0[k], m = m * a + fabs((double)c0[k]);
            ref[i] = r, bound[i] = 2.5 * (POLY_DEGREE + 1) * 0x1p-24 * m + 0x1p-100;
        }
        v.call = call;
        for (size_t i = 0; i < n; i++)
            if (!(fabs(y[i] - ref[i]) <= bound[i]) && !v.wrong++)
                snprintf(v.first, sizeof v.first, "y[%zu] = %.9g%s, expected %.9g (|error| must be <= %.3g)", i, y[i],
                         hint(y[i]), ref[i], bound[i]);
        v.oob = outside(y, n, -12345.0f);
        if (memcmp(x, x0, n * 4) || outside(x, n, (float)NAN)) v.changed = "x";
        if (memcmp(c, c0, nc * 4) || outside(c, nc, (float)NAN)) v.changed = "c";
    }
    int failed = finish(st, state, v, calls);
    free(x - G), free(y - G), free(c - G), free(x0), free(c0), free(ref), free(bound);
    return failed;
}

/* Stage 5 at one shape: y = A x in double, A and x new at each call. */
static int check_matvec(int number, int m, int n, int calls)
{
    char size[64];
    snprintf(size, sizeof size, "m=%d n=%d", m, n);
    if (!emu_stage_wanted(names[4]) || !emu_size_wanted(size)) return 0;
    if (!matvec_create || !matvec_run || !matvec_destroy) {
        printf("matvec %s: matvec_create, matvec_run and matvec_destroy are not in your file: stage 5 (matvec) not "
               "written (its prototypes are in streams.h; the starter has them)\n",
               size);
        emu_checked++;
        return 1;
    }
    stage_now = names[4], size_now = size;
    data_state = 0x51afd6c2b3e4a9f1ull * (unsigned)(number + 1);
    emu_streams_begin_size(4, number);
    size_t mn = (size_t)m * n;
    double *A = guarded<double>(mn, NAN), *x = guarded<double>(n, NAN), *y = guarded<double>(m, -12345.0);
    double *A0 = (double *)malloc(mn * 8), *x0 = (double *)malloc(n * 8);
    for (size_t k = 0; k < mn; k++) A[k] = uniform();
    for (int k = 0; k < n; k++) x[k] = uniform();
    at("create");
    in_student = true;
    void *state = matvec_create(m, n, A, x, y);
    in_student = false;
    emu_checker_sync();
    verdict v;
    for (int call = 1; call <= calls && !v.wrong && !v.oob && !v.changed; call++) {
        for (size_t k = 0; k < mn; k++) A[k] = A0[k] = uniform();
        for (int k = 0; k < n; k++) x[k] = x0[k] = uniform();
        for (int k = 0; k < m; k++) y[k] = -12345.0;
        char phase[40];
        snprintf(phase, sizeof phase, "run (call %d)", call);
        at(phase);
        in_student = true;
        matvec_run(state);
        in_student = false;
        emu_checker_sync();
        v.call = call;
        for (int i = 0; i < m; i++) { /* lab.c's (problems.c's) reference and bound: n eps sum |a x| */
            long double r = 0, mag = 0;
            for (int j = 0; j < n; j++)
                r += (long double)A0[(size_t)i * n + j] * x0[j],
                    mag += fabsl((long double)A0[(size_t)i * n + j] * x0[j]);
            double b = (double)(n * (long double)DBL_EPSILON * mag);
            if (!(fabs(y[i] - (double)r) <= b) && !v.wrong++)
                snprintf(v.first, sizeof v.first, "y[%d] = %.17g%s, expected %.17g (|error| must be <= %.3g)", i, y[i],
                         hint(y[i]), (double)r, b);
        }
        v.oob = outside(y, m, -12345.0);
        if (memcmp(A, A0, mn * 8) || outside(A, mn, (double)NAN)) v.changed = "A";
        if (memcmp(x, x0, n * 8) || outside(x, n, (double)NAN)) v.changed = "x";
    }
    int failed = finish(4, state, v, calls);
    free(A - G), free(x - G), free(y - G), free(A0), free(x0);
    return failed;
}

int main()
{
    /* (streams, n, chunks), after lab.c's: one element; fewer elements than chunks; chunks that do
     * not divide n; more streams than chunks, n prime; chunks over fewer streams; one stream. Stages
     * 1 and 2 take n alone. */
    poly_shape shapes[] = {{1, 1, 1}, {3, 5, 8}, {2, 1000, 3}, {8, 1031, 5}, {3, 2053, 12}, {1, 700, 4}};
    /* after lab.c's mv_cases: edges, short rows, a row longer than a block's stride, rows of two
     * segments of the reference's long-row kernel, more rows than some pipelines' chunk of 256 */
    int mv_shapes[][2] = {{1, 1}, {3, 5}, {17, 1000}, {301, 17}, {3, 4099}, {2, 16411}};
    bool quick = getenv("EMU_QUICK") && *getenv("EMU_QUICK") == '1'; /* all.sh, for plants: the first three */
    int nshapes = quick ? 3 : 6, calls = quick ? 2 : 3, fails = 0;
    if (!emu_stage_known(names, 5)) return 2;
    emu_begin();
    printf("the streams' queued work runs in a shuffled order as it waits for the host (EMU_SEED too), "
           "each dependency kept\n");
    atexit(student_exited);
    emu_constant_reset(); /* their contents as the program starts, kept */
    for (int st = 0; st < 4; st++)
        for (int s = 0; s < nshapes; s++) fails += check_poly(st, s, shapes[s], calls);
    for (int s = 0; s < nshapes; s++) fails += check_matvec(s, mv_shapes[s][0], mv_shapes[s][1], calls);
    if (emu_nothing_checked()) return 2;
    printf("%s: %d failures\n", SRC, fails);
    return fails != 0;
}
