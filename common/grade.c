/* grade.c - the scorer: grades one lab's work and decides the score. It never runs student code.
 *
 * Per lab it builds the student's runner (build.c), then for every stage runs each size in a
 * fresh sandboxed runner process (sandbox.c), generating the inputs and computing the reference
 * here, checking every element of every output, the guard zones and the inputs, and finally
 * times one large case against this machine's ceiling measured in the same run. */
#define _GNU_SOURCE
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build.h"
#include "grade.h"
#include "proto.h"
#include "sandbox.h"
#include "stats.h"
#include "util.h"
#include "verify.h"

typedef struct options {
    const char *lab_dir, *work, *build, *runner_base, *results;
    uint64_t seed;
    int have_seed, bench, list, calibrate;
    double timeout;
} options;

/* Everything one stage's cases need. */
typedef struct grader {
    lab_run *run;
    char runner[PATH_MAX], scratch[1024], output[1100];
    sandbox_limits lim;
    double min_time;
    unsigned min_calls, max_calls, trials;
} grader;

/* The outcome of one case in one runner process. */
typedef struct outcome {
    int ok, fatal; /* fatal: the runner died or hung; later sizes would too */
    const char *reason;
    char detail[2048];
} outcome;

/* ---------------------------------------------------------------- inputs and buffers */

static uint64_t case_seed(uint64_t seed, int stage, int which, int trial)
{
    uint64_t key[4] = {seed, (uint64_t)stage, (uint64_t)which, (uint64_t)trial};
    return fnv1a(key, sizeof key, 0);
}

static void fill_uniform(double *v, size_t n, uint64_t seed)
{
    rng r;
    rng_seed(&r, seed);
    for (size_t i = 0; i < n; i++) v[i] = rng_uniform(&r, -1.0, 1.0);
}

/* The scorer's copy of a case's buffers: inputs packed as the runner expects them. */
typedef struct bufset {
    lab_buf b[LAB_MAX_BUFS];
    double *buf[LAB_MAX_BUFS]; /* inputs point into packed; the output is the student's result */
    double *packed, *ref, *bound;
    size_t packed_bytes, nout;
} bufset;

static void bufset_init(bufset *s, lab_shape shape)
{
    memset(s, 0, sizeof *s);
    LAB.layout(shape, s->b);
    s->packed_bytes = inputs_bytes(shape);
    s->packed = xmalloc(s->packed_bytes);
    char *p = (char *)s->packed;
    for (int i = 0; i < LAB.nbufs; i++) {
        if (s->b[i].role != ROLE_IN) continue;
        s->buf[i] = (double *)p;
        p += buf_bytes(&s->b[i]);
    }
    s->nout = s->b[LAB.out].rows * s->b[LAB.out].cols;
    s->buf[LAB.out] = xmalloc(s->nout * sizeof(double));
    s->ref = xmalloc(s->nout * sizeof(double));
    s->bound = xmalloc(s->nout * sizeof(double));
}

static void bufset_fill(bufset *s, uint64_t seed)
{
    for (int i = 0; i < LAB.nbufs; i++)
        if (s->b[i].role == ROLE_IN) fill_uniform(s->buf[i], s->b[i].rows * s->b[i].cols, seed + (uint64_t)i);
}

static void bufset_free(bufset *s)
{
    free(s->packed);
    free(s->buf[LAB.out]);
    free(s->ref);
    free(s->bound);
}

static void shape_text(lab_shape s, char *buf, size_t len)
{
    if (s.k) snprintf(buf, len, "m=%d n=%d k=%d", s.m, s.n, s.k);
    else snprintf(buf, len, "m=%d n=%d", s.m, s.n);
}

/* ---------------------------------------------------------------- checks on what came back */

static int fail(outcome *o, const char *reason, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(outcome *o, const char *reason, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    o->ok = 0;
    o->reason = reason;
    vsnprintf(o->detail, sizeof o->detail, fmt, ap);
    va_end(ap);
    return -1;
}

static int check_guards(const bufset *s, lab_shape shape, const unsigned char *g, outcome *o)
{
    char sh[64];
    shape_text(shape, sh, sizeof sh);
    size_t gb = GUARD_DOUBLES * sizeof(double);
    for (int i = 0; i < LAB.nbufs; i++)
        for (size_t k = 0; k < 2 * gb; k++)
            if (g[2 * gb * (size_t)i + k] != GUARD_BYTE)
                return fail(o, "out-of-bounds", "%s: wrote %s %s (the guard zone %s it was overwritten)", sh,
                            k < gb ? "before the start of" : "past the end of", s->b[i].name, k < gb ? "before" : "after");
    return 0;
}

static int check_inputs(const bufset *s, lab_shape shape, const void *back, outcome *o)
{
    char sh[64];
    shape_text(shape, sh, sizeof sh);
    const char *p = back, *q = (const char *)s->packed;
    for (int i = 0; i < LAB.nbufs; i++) {
        if (s->b[i].role != ROLE_IN) continue;
        size_t n = buf_bytes(&s->b[i]);
        if (memcmp(p, q, n)) return fail(o, "input-modified", "%s: changed its input %s (inputs are read-only)", sh, s->b[i].name);
        p += n;
        q += n;
    }
    return 0;
}

/* Compare s->buf[LAB.out] with the reference for the current inputs. */
static int check_output(bufset *s, lab_shape shape, double poison, const char *when, outcome *o)
{
    LAB.reference(shape, s->buf, s->ref, s->bound);
    size_t first = 0, bad = count_bad(s->buf[LAB.out], s->ref, s->bound, s->nout, &first);
    if (bad == 0) return 0;
    char sh[64], why[512];
    shape_text(shape, sh, sizeof sh);
    const lab_buf *ob = &s->b[LAB.out];
    diagnose_output(s->buf[LAB.out], s->ref, s->bound, ob->rows, ob->cols, poison, why, sizeof why);
    return fail(o, "wrong", "%s%s: %zu of %zu elements wrong; first %s[%zu] = %.17g, expected %.17g (|error| must be <= %.3g)%s%s",
                sh, when, bad, s->nout, ob->name, first, s->buf[LAB.out][first], s->ref[first], s->bound[first],
                why[0] ? "\n  likely cause: " : "", why);
}

/* How the runner ended, when it did not send everything. */
static void runner_failed(const runner_end *e, lab_shape shape, outcome *o)
{
    char text[256], sh[64];
    runner_end_text(e, text, sizeof text);
    shape_text(shape, sh, sizeof sh);
    const char *reason = e->timed_out ? "timeout"
                         : e->signaled && e->sig == SIGSYS ? "forbidden-syscall"
                         : e->signaled && e->sig == SIGXFSZ ? "output-flood"
                         : e->signaled ? "crash"
                         : e->exited && e->code == 0 ? "no-record"
                                                     : "crash";
    if (!e->timed_out && !e->signaled && e->exited && e->code == 0)
        snprintf(text, sizeof text, "the program exited (status 0) in the middle of the test without a result: "
                                    "does your code call exit()?");
    fail(o, reason, "%s: %s", sh, text);
    o->fatal = 1;
}

/* ---------------------------------------------------------------- running cases */

static int start(grader *g, runner_proc *p, const job *j)
{
    if (runner_start(p, g->runner, g->scratch, g->output, &g->lim)) die("cannot start %s", g->runner);
    return runner_send(p, MSG_JOB, j, sizeof *j);
}

/* Correctness: `trials` calls, each on fresh inputs, each output and the inputs checked. */
static outcome run_correctness(grader *g, int stage, int index, lab_shape shape)
{
    outcome o = {.ok = 1, .reason = "ok"};
    bufset s;
    bufset_init(&s, shape);
    unsigned char *guards = xmalloc(guards_bytes()), *back = xmalloc(s.packed_bytes);
    job j = {.stage = (uint32_t)stage, .s = shape, .trials = g->trials};
    runner_proc p;
    int io = start(g, &p, &j);
    for (unsigned t = 0; t < g->trials && io == 0 && o.ok; t++) {
        bufset_fill(&s, case_seed(g->run->seed, stage, index, (int)t));
        io = runner_send(&p, MSG_INPUT, s.packed, s.packed_bytes);
        io = io ? io : runner_recv(&p, MSG_OUTPUT, s.buf[LAB.out], s.nout * sizeof(double));
        io = io ? io : runner_recv(&p, MSG_GUARDS, guards, guards_bytes());
        io = io ? io : runner_recv(&p, MSG_INPUTS, back, s.packed_bytes);
        if (io == 0 && check_guards(&s, shape, guards, &o) == 0 && check_inputs(&s, shape, back, &o) == 0)
            check_output(&s, shape, poison_value(t), t ? " (second call, new inputs)" : "", &o);
    }
    if (io == 0 && o.ok) io = runner_recv(&p, MSG_DONE, NULL, 0);
    runner_end e = runner_finish(&p);
    if (io != 0 && o.ok) runner_failed(&e, shape, &o);
    bufset_free(&s);
    free(guards);
    free(back);
    return o;
}

/* Timing: calls on fresh variants of LAB.vary, every output checked afterwards. */
static outcome run_timed(grader *g, int stage, lab_shape shape, stage_result *res)
{
    outcome o = {.ok = 1, .reason = "ok"};
    bufset s;
    bufset_init(&s, shape);
    const lab_buf *vb = &s.b[LAB.vary];
    size_t nvary = vb->rows * vb->cols, nout = s.nout, maxc = g->max_calls;
    double *variants = xmalloc(maxc * nvary * sizeof(double)), *outs = xmalloc(maxc * nout * sizeof(double));
    double *times = xmalloc((maxc + 1) * sizeof(double));
    unsigned char *guards = xmalloc(guards_bytes()), *back = xmalloc(s.packed_bytes);
    bufset_fill(&s, case_seed(g->run->seed, stage, 1000, 0));
    for (size_t c = 0; c < maxc; c++) fill_uniform(variants + c * nvary, nvary, case_seed(g->run->seed, stage, 1001, (int)c));
    job j = {.stage = (uint32_t)stage, .s = shape, .timed = 1, .min_calls = g->min_calls + 1,
             .max_calls = (uint32_t)maxc, .min_time = g->min_time};
    runner_proc p;
    int io = start(g, &p, &j);
    io = io ? io : runner_send(&p, MSG_INPUT, s.packed, s.packed_bytes);
    io = io ? io : runner_send(&p, MSG_VARIANTS, variants, maxc * nvary * sizeof(double));
    io = io ? io : runner_recv(&p, MSG_READY, NULL, 0);
    double t0 = now_s();
    io = io ? io : runner_recv(&p, MSG_TIMES, times, (maxc + 1) * sizeof(double));
    double wall = now_s() - t0;
    size_t calls = io == 0 && times[0] >= 2 && times[0] <= (double)maxc ? (size_t)times[0] : 0;
    if (io == 0 && calls == 0) io = fail(&o, "channel", "the runner reported an impossible number of calls");
    for (size_t c = 0; c < calls && io == 0; c++) io = runner_recv(&p, MSG_OUTPUT, outs + c * nout, nout * sizeof(double));
    io = io ? io : runner_recv(&p, MSG_GUARDS, guards, guards_bytes());
    io = io ? io : runner_recv(&p, MSG_INPUTS, back, s.packed_bytes);
    io = io ? io : runner_recv(&p, MSG_DONE, NULL, 0);
    runner_end e = runner_finish(&p);
    if (io != 0 && o.ok) runner_failed(&e, shape, &o);
    if (o.ok && check_guards(&s, shape, guards, &o) == 0) {
        for (size_t c = 0; c < calls && o.ok; c++) { /* every timed call's output, on its own variant */
            char when[64];
            snprintf(when, sizeof when, " (timed call %zu of %zu)", c + 1, calls);
            memcpy(s.buf[LAB.vary], variants + c * nvary, nvary * sizeof(double));
            memcpy(s.buf[LAB.out], outs + c * nout, nout * sizeof(double));
            check_output(&s, shape, poison_value((unsigned)c), when, &o);
        }
        if (o.ok) check_inputs(&s, shape, back, &o); /* the vary buffer now holds the last variant */
    }
    if (o.ok) {
        res->seconds = median(times + 2, calls - 1); /* times[1] is the warm-up */
        res->timed = 1;
        res->timed_shape = shape;
        double per_call = wall / (double)calls;
        if (res->seconds < config_num(&g->run->cfg, "wallclock_margin") * per_call)
            fail(&o, "wallclock", "reported %.3g s per call, but the wall clock saw %.3g s per call", res->seconds,
                 per_call);
    }
    bufset_free(&s);
    free(variants);
    free(outs);
    free(times);
    free(guards);
    free(back);
    return o;
}

/* ---------------------------------------------------------------- one stage */

static double intensity(lab_shape s) { return LAB.flops(s) / LAB.bytes(s); }

/* Rate, ceiling, verdict and points of a timed stage. */
static void judge_speed(grader *g, int stage, stage_result *res, outcome *o)
{
    const config *cfg = &g->run->cfg;
    lab_shape s = res->timed_shape;
    res->gflops = LAB.flops(s) / res->seconds * 1e-9;
    res->gbs = LAB.bytes(s) / res->seconds * 1e-9;
    res->ceiling_gflops = g->run->now.triad_gbs * intensity(s);
    res->fraction = res->gflops / res->ceiling_gflops;
    double limit = config_num(cfg, "impossible_margin") * fmax(g->run->now.read_gbs, g->run->now.triad_gbs) * intensity(s);
    if (res->gflops > limit) {
        fail(o, "impossible", "%.2f GFLOP/s is more than this machine can read from memory allows (%.2f): "
                              "the timing is not trustworthy", res->gflops, limit);
        return;
    }
    res->fast_enough = res->fraction >= res->required;
    double from = config_num(cfg, "partial_from") * res->required;
    double credit = res->required > from ? (res->fraction - from) / (res->required - from) : res->fast_enough;
    res->points_speed = res->max_speed * fmin(1.0, fmax(0.0, credit));
    if (!res->fast_enough)
        fail(o, "too-slow", "%.2f GFLOP/s is %.0f%% of the ceiling; this stage needs %.0f%% (%.2f GFLOP/s)", res->gflops,
             100 * res->fraction, 100 * res->required, res->required * res->ceiling_gflops);
    (void)stage;
}

static void grade_stage(grader *g, int stage, const lab_case *cases, int ncases, stage_result *res)
{
    const config *cfg = &g->run->cfg;
    res->required = config_num(cfg, LAB.stages[stage].name);
    res->max_correct = config_num(cfg, "points_correct");
    res->max_speed = config_num(cfg, "points_speed");
    snprintf(res->reason, sizeof res->reason, "ok");
    int ok[LAB_MAX_CASES] = {0}, ncheck = 0, reported = 0;
    lab_case checked[LAB_MAX_CASES];
    for (int i = 0; i < ncases; i++) {
        if (cases[i].timed) continue;
        outcome o = run_correctness(g, stage, i, cases[i].s);
        checked[ncheck] = cases[i];
        ok[ncheck++] = o.ok;
        res->cases_ok += o.ok;
        if (!o.ok && !reported++) {
            snprintf(res->reason, sizeof res->reason, "%s", o.reason);
            snprintf(res->detail, sizeof res->detail, "%s", o.detail);
        }
        if (o.fatal) break; /* a crash or hang would repeat on every size: stop here */
    }
    res->cases_total = ncheck;
    if (reported) {
        char why[256];
        diagnose_sizes(checked, ok, ncheck, why, sizeof why);
        if (why[0]) snprintf(res->detail + strlen(res->detail), sizeof res->detail - strlen(res->detail),
                             "\n  across sizes: %s", why);
        return;
    }
    for (int i = 0; i < ncases; i++) {
        if (!cases[i].timed) continue;
        outcome o = run_timed(g, stage, cases[i].s, res);
        if (o.ok) {
            res->correct = 1;
            res->points_correct = res->max_correct;
            judge_speed(g, stage, res, &o);
        }
        if (!o.ok) {
            snprintf(res->reason, sizeof res->reason, "%s", o.reason);
            snprintf(res->detail, sizeof res->detail, "%s", o.detail);
        }
    }
}

/* ---------------------------------------------------------------- set-up */

static void usage(void)
{
    fprintf(stderr, "usage: grade --lab-dir grading/NN-name --work DIR --build DIR --runner-base OBJ\n"
                    "             [--results DIR] [--seed S] [--timeout SECONDS] [--bench | --list | --calibrate]\n");
    exit(2);
}

static options parse_args(int argc, char **argv)
{
    options o = {0};
    static const struct option longs[] = {
        {"lab-dir", 1, 0, 'l'}, {"work", 1, 0, 'w'}, {"build", 1, 0, 'b'}, {"runner-base", 1, 0, 'r'},
        {"seed", 1, 0, 's'}, {"timeout", 1, 0, 't'}, {"bench", 0, 0, 'B'}, {"list", 0, 0, 'L'},
        {"calibrate", 0, 0, 'C'}, {"results", 1, 0, 'R'}, {0, 0, 0, 0},
    };
    int c;
    char *end;
    while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        switch (c) {
        case 'l': o.lab_dir = optarg; break;
        case 'w': o.work = optarg; break;
        case 'b': o.build = optarg; break;
        case 'r': o.runner_base = optarg; break;
        case 's':
            o.seed = strtoull(optarg, &end, 0);
            if (*end || !*optarg) die("SEED=%s is not a number (e.g. SEED=0x1f2e3d4c5b6a7988)", optarg);
            o.have_seed = 1;
            break;
        case 't': o.timeout = atof(optarg); break;
        case 'B': o.bench = 1; break;
        case 'L': o.list = 1; break;
        case 'C': o.calibrate = 1; break;
        case 'R': o.results = optarg; break;
        default: usage();
        }
    }
    if (!o.lab_dir || !o.build || (!o.list && !o.calibrate && (!o.work || !o.runner_base)) || optind != argc) usage();
    return o;
}

static void list_stages(void)
{
    printf("%s: %s (edit %s)\n", LAB.id, LAB.title, LAB.source);
    for (int i = 0; i < LAB.nstages; i++)
        printf("  %d  %-12s %-22s %s\n", i + 1, LAB.stages[i].name, LAB.stages[i].function, LAB.stages[i].what);
}

/* Build the runner for `source` with `cflags`; a build failure is reported on every stage. */
static int build(const options *opt, grader *g, const char *source, const char *cflags, char *msg, size_t len)
{
    const char *fns[16];
    for (int i = 0; i < LAB.nstages; i++) fns[i] = LAB.stages[i].function;
    const char *libs = config_str(&g->run->cfg, "ldlibs");
    const char *allow = config_str(&g->run->cfg, "allow_calls");
    build_spec b = {source, opt->lab_dir, g->scratch, opt->runner_base, cflags, libs ? libs : "-lm", fns, LAB.nstages,
                    allow ? allow : ""};
    int status = build_runner(&b, msg, len);
    char rel[1100];
    snprintf(rel, sizeof rel, "%s/runner", g->scratch);
    if (status == BUILD_OK && !realpath(rel, g->runner)) die("cannot find %s", rel); /* exec'd after chdir */
    return status;
}

/* A scratch folder for this lab and tree: build/scratch/<tree>/<lab>; the student's code runs in it. */
static void make_scratch(const options *opt, grader *g)
{
    char tree[256];
    snprintf(tree, sizeof tree, "%s", opt->work);
    for (char *p = tree; *p; p++)
        if (*p == '/' || *p == '.') *p = '_';
    snprintf(g->scratch, sizeof g->scratch, "%s/scratch/%s/%s", opt->build, tree, LAB.id);
    if (mkdirs(g->scratch)) die("cannot create %s", g->scratch);
    snprintf(g->output, sizeof g->output, "%s/output.txt", g->scratch);
}

static void setup(const options *opt, lab_run *r, grader *g)
{
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/thresholds.conf", opt->lab_dir);
    if (config_load(&r->cfg, path, err, sizeof err)) die("%s", err);
    machine_read(&r->mach);
    snprintf(path, sizeof path, "%s/calibration", opt->build);
    mkdirs(path);
    if (calibration(path, &r->mach, LAB.threads, opt->calibrate, &r->cached))
        fprintf(stderr, "grade: warning: could not write the calibration cache in %s\n", path);
    r->seed = opt->have_seed ? opt->seed : rng_fresh_seed();
    r->work = opt->work;
    g->run = r;
    g->lim.timeout_s = opt->timeout > 0 ? opt->timeout : config_num(&r->cfg, "timeout_s");
    g->lim.output_bytes = (size_t)config_num(&r->cfg, "output_bytes");
    g->lim.threads = LAB.threads;
    g->min_time = config_num(&r->cfg, "min_time_s");
    g->min_calls = (unsigned)config_num(&r->cfg, "min_calls");
    g->max_calls = (unsigned)config_num(&r->cfg, "max_calls");
    g->trials = (unsigned)config_num(&r->cfg, "trials");
}

/* Address space for a runner: its buffers (and a stage's private copy) with room to spare. */
static void size_limits(grader *g, const lab_case *cases, int n)
{
    double biggest = 0;
    for (int i = 0; i < n; i++) {
        lab_buf b[LAB_MAX_BUFS];
        double total = 0;
        LAB.layout(cases[i].s, b);
        for (int k = 0; k < LAB.nbufs; k++) total += (double)buf_bytes(&b[k]);
        total += (double)g->max_calls * (double)(b[LAB.out].rows * b[LAB.out].cols + b[LAB.vary].rows * b[LAB.vary].cols) * 8;
        biggest = fmax(biggest, total);
    }
    g->lim.memory_bytes = (size_t)(3 * biggest) + ((size_t)1 << 30);
}

/* ---------------------------------------------------------------- bench */

static void bench_row(grader *g, int stage, lab_shape s, const char *label)
{
    stage_result res = {0};
    unsigned keep = g->max_calls;
    g->max_calls = (unsigned)fmin(2000, fmax(10, 2e8 / LAB.flops(s)));
    outcome o = run_timed(g, stage, s, &res);
    g->max_calls = keep;
    char sh[64];
    shape_text(s, sh, sizeof sh);
    double mib = LAB.bytes(s) / (1 << 20);
    if (!o.ok) {
        printf("  %-8s %-22s %9.1f  %-12s  %s\n", label, sh, mib, LAB.stages[stage].name, o.reason);
        return;
    }
    double gf = LAB.flops(s) / res.seconds * 1e-9, gbs = LAB.bytes(s) / res.seconds * 1e-9;
    printf("  %-8s %-22s %9.1f  %-12s %9.2f %9.2f %8.0f%%\n", label, sh, mib, LAB.stages[stage].name, gf, gbs,
           100 * gbs / g->run->now.triad_gbs);
}

/* Several sizes at the grading flags, then the timed size at -O0 .. -O3 (the compiler study). */
static int bench(const options *opt, grader *g, const char *source)
{
    char msg[4096];
    const char *cflags = config_str(&g->run->cfg, "cflags");
    if (build(opt, g, source, cflags, msg, sizeof msg) != BUILD_OK) {
        fprintf(stderr, "%s: %s\n", source, msg);
        return 1;
    }
    lab_case cases[LAB_MAX_CASES];
    int n = LAB.bench_cases(g->run->mach.llc_bytes, cases);
    printf("%s bench: %s; triad %.1f GB/s (%d thread%s) this run; seed 0x%016" PRIx64 "\n", LAB.id, g->run->mach.cpu,
           g->run->now.triad_gbs, LAB.threads, LAB.threads > 1 ? "s" : "", g->run->seed);
    printf("  %-8s %-22s %9s  %-12s %9s %9s %9s\n", "flags", "size", "MiB", "stage", "GFLOP/s", "GB/s", "of triad");
    for (int i = 0; i < n; i++)
        for (int st = 0; st < LAB.nstages; st++) bench_row(g, st, cases[i].s, "default");
    static const char *levels[] = {"-O0", "-O1", "-O2", "-O3"};
    lab_case timed = cases[0];
    rng r;
    rng_seed(&r, g->run->seed);
    lab_case graded[LAB_MAX_CASES];
    int ng = LAB.cases(&r, g->run->mach.llc_bytes, graded);
    for (int i = 0; i < ng; i++)
        if (graded[i].timed) timed = graded[i];
    printf("\ncompiler study: the graded timed size at each optimisation level (flags: %s, level replaced)\n", cflags);
    for (int l = 0; l < 4; l++) {
        char flags[512], *o3;
        snprintf(flags, sizeof flags, "%s", cflags);
        if ((o3 = strstr(flags, "-O3"))) memcpy(o3, levels[l], 3);
        if (build(opt, g, source, flags, msg, sizeof msg) != BUILD_OK) {
            printf("  %s: %s\n", levels[l], msg);
            continue;
        }
        for (int st = 0; st < LAB.nstages; st++) bench_row(g, st, timed.s, levels[l]);
    }
    return 0;
}

/* ---------------------------------------------------------------- main */

int main(int argc, char **argv)
{
    options opt = parse_args(argc, argv);
    if (opt.list) {
        list_stages();
        return 0;
    }
    static lab_run r;
    static grader g;
    setup(&opt, &r, &g);
    if (opt.calibrate) {
        printf("%s: %s, %d cores, last-level cache %.1f MiB: triad %.2f GB/s, read %.2f GB/s (%d thread%s)\n", LAB.id,
               r.mach.cpu, r.mach.cores, r.mach.llc_bytes / 1048576.0, r.cached.triad_gbs, r.cached.read_gbs,
               LAB.threads, LAB.threads > 1 ? "s" : "");
        return 0;
    }
    make_scratch(&opt, &g);
    r.now = measure_bandwidth(LAB.threads, 4 * r.mach.llc_bytes);
    lab_case cases[LAB_MAX_CASES];
    rng sizes;
    rng_seed(&sizes, r.seed);
    int n = LAB.cases(&sizes, r.mach.llc_bytes, cases);
    size_limits(&g, cases, n);
    char source[2048];
    snprintf(source, sizeof source, "%s/%s/%s", opt.work, LAB.id, LAB.source);
    if (opt.bench) return bench(&opt, &g, source);

    r.build_status = build(&opt, &g, source, config_str(&r.cfg, "cflags"), r.build_error, sizeof r.build_error);
    int all = 1;
    for (int st = 0; st < LAB.nstages; st++) {
        stage_result *res = &r.stages[st];
        if (r.build_status == BUILD_OK) grade_stage(&g, st, cases, n, res);
        else {
            res->required = config_num(&r.cfg, LAB.stages[st].name);
            res->max_correct = config_num(&r.cfg, "points_correct");
            res->max_speed = config_num(&r.cfg, "points_speed");
            snprintf(res->reason, sizeof res->reason, "%s", r.build_status == BUILD_AUDIT ? "audit" : "build");
            snprintf(res->detail, sizeof res->detail, "%s", r.build_error);
        }
        all &= res->correct && res->fast_enough;
    }
    report_table(&r, stdout);
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.json", opt.results ? opt.results : "build/results", LAB.id);
    if (report_json(&r, path)) fprintf(stderr, "grade: could not write %s\n", path);
    return all ? 0 : 1;
}
