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
#include <sys/resource.h>
#include <unistd.h>

#include "build.h"
#include "grade.h"
#include "problems.h"
#include "proto.h"
#include "sandbox.h"
#include "stats.h"
#include "util.h"
#include "verify.h"

typedef struct options {
    const char *lab_dir, *work, *build, *runner_base, *results, *cuda_arch, *cuda_home, *nvcc, *profile;
    uint64_t seed;
    int have_seed, bench, list, calibrate, sanitize;
    double timeout;
} options;

/* Everything one stage's cases need. */
typedef struct grader {
    lab_run *run;
    char runner[PATH_MAX], scratch[1024], output[1100];
    sandbox_limits lim;
    double min_time;
    unsigned min_calls, max_calls, trials;
    int same_inputs; /* bench: no fresh variant per call, so one reference serves every call */
    int correct_threads[8], ncorrect_threads; /* thread counts every correctness case runs at */
} grader;

/* SANITIZE=1 (CPU labs): the student's file instrumented; a finding ends the runner (sandbox.c). */
#define SANITIZE_FLAGS "-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g"

/* Timed calls report at most this many output positions each (all of a smaller output). */
#define MAX_SAMPLES 8192

/* The outcome of one case in one runner process. */
typedef struct outcome {
    int ok, fatal; /* fatal: the runner died or hung; later sizes would too */
    const char *reason;
    char detail[2048];
} outcome;

static void size_limits(grader *g, const lab_problem *p, const lab_case *cases, int n);

/* ---------------------------------------------------------------- inputs and buffers */

static uint64_t case_seed(uint64_t seed, int stage, int which, int trial)
{
    uint64_t key[4] = {seed, (uint64_t)stage, (uint64_t)which, (uint64_t)trial};
    return fnv1a(key, sizeof key, 0);
}

/* Random values of the problem's distribution, stored in the buffer's type. */
static void fill_random(const lab_problem *p, const lab_buf *b, void *v, uint64_t seed)
{
    rng r;
    rng_seed(&r, seed);
    for (size_t i = 0, n = buf_elems(b); i < n; i++) {
        double x = rng_uniform(&r, p->lo, p->hi);
        if (p->quantum > 0) x = nearbyint(x / p->quantum) * p->quantum; /* symmetric: no bias */
        elem_set(v, b->type, i, x);
    }
}

/* The scorer's copy of a case's buffers: inputs packed as the runner expects them, the
 * student's output as received, the same as doubles, and the reference with its bound. */
typedef struct bufset {
    const lab_problem *p;
    lab_buf b[LAB_MAX_BUFS];
    void *buf[LAB_MAX_BUFS]; /* what was sent (IN, INOUT) points into packed */
    void *recv;              /* the output as received */
    unsigned char *packed;
    double *got, *ref, *bound;
    size_t packed_bytes, nout;
} bufset;

static void bufset_init(bufset *s, const lab_problem *p, lab_shape shape)
{
    memset(s, 0, sizeof *s);
    s->p = p;
    p->layout(shape, s->b);
    s->packed_bytes = inputs_bytes(p, shape);
    s->packed = xmalloc(s->packed_bytes + 1);
    unsigned char *q = s->packed;
    for (int i = 0; i < p->nbufs; i++) {
        if (!is_sent(&s->b[i])) continue;
        s->buf[i] = q;
        q += buf_bytes(&s->b[i]);
    }
    s->nout = buf_elems(&s->b[p->out]);
    s->recv = xmalloc(buf_bytes(&s->b[p->out]));
    s->got = xmalloc(s->nout * sizeof(double));
    s->ref = xmalloc(s->nout * sizeof(double));
    s->bound = xmalloc(s->nout * sizeof(double));
}

static void bufset_fill(bufset *s, uint64_t seed)
{
    for (int i = 0; i < s->p->nbufs; i++)
        if (is_sent(&s->b[i])) fill_random(s->p, &s->b[i], s->buf[i], seed + (uint64_t)i);
}

static void bufset_free(bufset *s)
{
    free(s->packed);
    free(s->recv);
    free(s->got);
    free(s->ref);
    free(s->bound);
}

static void shape_text(const lab_problem *p, lab_shape s, char *buf, size_t len)
{
    if (p && p->dim_names[0])
        snprintf(buf, len, "n=%d %s=%d %s=%d", s.n, p->dim_names[0], s.m, p->dim_names[2], s.k);
    else if (s.k) snprintf(buf, len, "m=%d n=%d k=%d", s.m, s.n, s.k);
    else if (s.m) snprintf(buf, len, "m=%d n=%d", s.m, s.n);
    else snprintf(buf, len, "n=%d", s.n);
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
    size_t gb = GUARD_DOUBLES * sizeof(double);
    char sh[64];
    shape_text(s->p, shape, sh, sizeof sh);
    for (int i = 0; i < s->p->nbufs; i++)
        for (size_t k = 0; k < 2 * gb; k++)
            if (g[2 * gb * (size_t)i + k] != GUARD_BYTE)
                return fail(o, "out-of-bounds", "%s: wrote %s %s (the guard zone %s it was overwritten)", sh,
                            k < gb ? "before the start of" : "past the end of", s->b[i].name, k < gb ? "before" : "after");
    return 0;
}

static int check_inputs(const bufset *s, lab_shape shape, const void *back, outcome *o)
{
    const unsigned char *p = back, *q = s->packed;
    char sh[64];
    shape_text(s->p, shape, sh, sizeof sh);
    for (int i = 0; i < s->p->nbufs; i++) {
        if (!is_sent(&s->b[i])) continue;
        size_t n = buf_bytes(&s->b[i]);
        if (s->b[i].role == ROLE_IN && memcmp(p, q, n))
            return fail(o, "input-modified", "%s: changed its input %s (inputs are read-only)", sh, s->b[i].name);
        p += s->b[i].role == ROLE_IN ? n : 0; /* only inputs come back */
        q += n;
    }
    return 0;
}

/* Elements `at` (or all, when at is NULL) of the output in `out` against the reference, which
 * the caller has computed for the current inputs. */
static int check_values(bufset *s, lab_shape shape, const void *out, const uint64_t *at, size_t count, double poison,
                        const char *when, outcome *o)
{
    const lab_buf *ob = &s->b[s->p->out];
    size_t bad = 0, first = 0;
    for (size_t k = 0; k < count; k++) {
        size_t i = at ? at[k] : k;
        double g = elem_get(out, ob->type, k);
        if (!(fabs(g - s->ref[i]) <= s->bound[i]) || !isfinite(g)) {
            if (bad++ == 0) first = k;
        }
        if (!at) s->got[i] = g;
    }
    if (bad == 0) return 0;
    char sh[64], why[512] = "";
    shape_text(s->p, shape, sh, sizeof sh);
    size_t fi = at ? at[first] : first;
    if (!at) diagnose_output(s->got, s->ref, s->bound, ob->rows, ob->cols, ob->type == F32 ? (double)(float)poison : poison,
                             why, sizeof why);
    return fail(o, "wrong", "%s%s: %zu of %zu %s wrong; first %s[%zu] = %.9g, expected %.9g (|error| must be <= %.3g)%s%s",
                sh, when, bad, count, at ? "checked elements" : "elements", ob->name, fi, elem_get(out, ob->type, first),
                s->ref[fi], s->bound[fi], why[0] ? "\n  likely cause: " : "", why);
}

static void cublas_note(lab_run *r, const lab_problem *p)
{
    snprintf(r->blas_note, sizeof r->blas_note, "cuBLAS %s%s", p->blas,
             strcmp(p->blas, "sgemm") ? ", fp16 in, fp32 accumulate" : ", FP32 without TF32");
}

/* A vendor-library rate measured in this run at shape s (OpenBLAS or cuBLAS), kept for its ceiling. */
static void remember_blas(lab_run *r, lab_shape s, double gflops)
{
    for (int i = 0; i < r->nblas; i++)
        if (!memcmp(&r->blas[i].s, &s, sizeof s)) return; /* the first measurement judges every stage */
    if (r->nblas >= (int)(sizeof r->blas / sizeof r->blas[0])) return;
    r->blas[r->nblas].s = s;
    r->blas[r->nblas++].gflops = gflops;
}

static int probe_checks(const lab_problem *p, lab_shape shape)
{
    return LAB.gpu && p->blas && p->probe_flops > 0 && p->flops(shape) > p->probe_flops;
}

/* The exact result for the case's inputs, with its bound: the problem's own reference, or for a
 * large GPU gemm, cuBLAS on the same inputs through the GPU probe, which also times cuBLAS at
 * this shape (the ceiling of this run). cuBLAS and the student each meet the float bound, so
 * they may differ by twice it. */
static void reference(grader *g, bufset *s, lab_shape shape)
{
    const lab_problem *p = s->p;
    if (!probe_checks(p, shape)) {
        p->reference(shape, s->buf, s->ref, s->bound);
        return;
    }
    char probe[1024];
    snprintf(probe, sizeof probe, "%s/common/gpu-probe", g->run->build_dir);
    float *out = xmalloc(2 * s->nout * sizeof *out);
    double gf = gpu_gemm(probe, g->scratch, p->blas, shape.m, shape.n, shape.k, p->alpha, p->beta, s->packed,
                         s->packed_bytes, out);
    if (gf <= 0) die("could not run cuBLAS for the reference (see %s/gemm-probe.txt)", g->scratch);
    double twice = strcmp(p->blas, "hgemm") ? 2 : 4; /* hgemm: tensor cores may truncate (problems.h) */
    for (size_t i = 0; i < s->nout; i++) {
        s->ref[i] = out[i];
        s->bound[i] = twice * fp32_gemm_bound(shape.k, out[s->nout + i]);
    }
    remember_blas(g->run, shape, gf);
    cublas_note(g->run, p);
    free(out);
}

static int check_output(grader *g, bufset *s, lab_shape shape, const void *out, double poison, const char *when,
                        outcome *o)
{
    reference(g, s, shape);
    return check_values(s, shape, out, NULL, s->nout, poison, when, o);
}

/* The end of what the student's code printed (a CUDA error message, say), for a crash report. */
static void output_tail(const char *path, char *buf, size_t len)
{
    char *text = read_text(path, 1 << 20);
    size_t n = text ? strlen(text) : 0;
    const char *start = n > 600 ? text + n - 600 : text;
    snprintf(buf, len, "%s", start && *start ? start : "");
    free(text);
}

/* The sanitizers' report in words: its first line (the kind of bug), the access, and the lines of
 * the student's file on the stack, found with addr2line in the runner binary (non-PIE under the
 * sanitizers, so the addresses printed are the ones in the file). UBSan names the line itself. */
static void sanitizer_summary(const grader *g, char *out, size_t len)
{
    char *text = read_text(g->output, 1 << 20), *save = NULL;
    size_t used = 0;
    int frames = 0, in_stack = 0;
    out[0] = '\0';
    for (char *line = text ? strtok_r(text, "\n", &save) : NULL; line && used + 200 < len; line = strtok_r(NULL, "\n", &save)) {
        char *what = strstr(line, "ERROR: AddressSanitizer: "), *ub = strstr(line, "runtime error: ");
        unsigned long long pc;
        if (ub) { /* UBSan names the line: ".../student.c:12:5: runtime error: ..." */
            const char *at = strstr(line, "/student.");
            at = at && at < ub ? strchr(at, ':') : NULL;
            used += (size_t)snprintf(out + used, len - used, "    %s%.*s%s\n", at ? LAB.source : "",
                                     at ? (int)(ub - at) : 0, at ? at : "", ub);
            in_stack = 1;
        } else if (what) {
            used += (size_t)snprintf(out + used, len - used, "    %s%s\n", what + 7,
                                     strstr(what, "use-after-poison") ? "\n    (\"poison\" here is the grader's guard "
                                     "zone around each array: an access outside the array)" : "");
            in_stack = 1;
        } else if (in_stack && (strstr(line, "READ of size") || strstr(line, "WRITE of size"))) {
            used += (size_t)snprintf(out + used, len - used, "    %.*s\n", (int)strcspn(line, "\n"), line);
        } else if (in_stack && frames < 3 && sscanf(line, " #%*d %*s (%*[^+]+0x%llx)", &pc) == 1) {
            char addr[32], where[1100];
            snprintf(addr, sizeof addr, "0x%llx", pc);
            snprintf(where, sizeof where, "%s/addr2line.txt", g->scratch);
            char *argv[] = {"addr2line", "-f", "-e", (char *)g->runner, addr, NULL};
            char *found = run_tool(argv, where, 10) == 0 ? read_text(where, 4096) : NULL;
            char fn[256] = "", loc[512] = "";
            if (found && sscanf(found, "%255s %511s", fn, loc) == 2 && strstr(loc, "/student.")) {
                used += (size_t)snprintf(out + used, len - used, "    at %s%s in %s\n", LAB.source, strchr(strrchr(loc, '/'), ':'), fn);
                frames++;
            }
            free(found);
        } else if (in_stack && line[0] == '\0') {
            in_stack = 0;
        }
    }
    free(text);
}

/* Did a sanitizer report? (UBSan, inside AddressSanitizer's runtime, may exit with status 1.) */
static int sanitizer_spoke(const grader *g)
{
    char *text = read_text(g->output, 1 << 20);
    int said = text && (strstr(text, "ERROR: AddressSanitizer") || strstr(text, "runtime error: "));
    free(text);
    return said;
}

/* How the runner ended, when it did not send everything. */
static void runner_failed(const grader *g, const runner_end *e, const lab_problem *p, lab_shape shape, outcome *o)
{
    char text[256], sh[64];
    runner_end_text(e, text, sizeof text);
    shape_text(p, shape, sh, sizeof sh);
    const char *reason = e->timed_out ? "timeout"
                         : e->signaled && e->sig == SIGSYS ? "forbidden-syscall"
                         : e->signaled && e->sig == SIGXFSZ ? "output-flood"
                         : e->signaled ? "crash"
                         : e->exited && e->code == 0 ? "no-record"
                                                     : "crash";
    if (!e->timed_out && !e->signaled && e->exited && e->code == 0)
        snprintf(text, sizeof text, "the program exited (status 0) in the middle of the test without a result: "
                                    "does your code call exit()?");
    if (e->exited && e->code == RUNNER_NO_SANDBOX) snprintf(text, sizeof text, "the sandbox (seccomp) could not be set up on this machine");
    if (e->exited && e->code == RUNNER_NO_GPU) snprintf(text, sizeof text, "the runner could not initialise the GPU");
    if (e->exited && e->code == RUNNER_CUDA_ERROR) snprintf(text, sizeof text, "stopped by a CUDA error");
    if (e->exited && e->code != 0 && g->lim.sanitize && sanitizer_spoke(g)) {
        reason = "sanitizer";
        snprintf(text, sizeof text, "the sanitizers found a bug (their report, and the lines of your file it "
                                    "points at, are below)");
    }
    if (e->exited && e->code == RUNNER_LEAK) {
        reason = "leak";
        snprintf(text, sizeof text, "destroy left behind what create made (the counts are below)");
    }
    char tail[700];
    output_tail(g->output, tail, sizeof tail);
    if (!strcmp(reason, "sanitizer")) {
        sanitizer_summary(g, tail, sizeof tail);
        fail(o, reason, "%s: %s\n%s", sh, text, tail);
    } else fail(o, reason, "%s: %s%s%s", sh, text, tail[0] ? "\n  its output ended with:\n" : "", tail);
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
    const lab_problem *pr = LAB.stages[stage].problem;
    outcome o = {.ok = 1, .reason = "ok"};
    bufset s;
    bufset_init(&s, pr, shape);
    unsigned char *guards = xmalloc(guards_bytes(pr)), *back = xmalloc(s.packed_bytes + 1);
    void *out = s.recv;
    size_t back_size = back_bytes(pr, shape);
    size_t out_bytes = buf_bytes(&s.b[pr->out]);
    job j = {.stage = (uint32_t)stage, .s = shape, .trials = g->trials};
    runner_proc p;
    int io = start(g, &p, &j);
    for (unsigned t = 0; t < g->trials && io == 0 && o.ok; t++) {
        bufset_fill(&s, case_seed(g->run->seed, stage, index, (int)t));
        io = runner_send(&p, MSG_INPUT, s.packed, s.packed_bytes);
        io = io ? io : runner_recv(&p, MSG_OUTPUT, out, out_bytes);
        io = io ? io : runner_recv(&p, MSG_GUARDS, guards, guards_bytes(pr));
        io = io ? io : runner_recv(&p, MSG_INPUTS, back, back_size);
        if (io == 0 && check_guards(&s, shape, guards, &o) == 0 && check_inputs(&s, shape, back, &o) == 0)
            check_output(g, &s, shape, out, poison_value(t), t ? " (second call, new inputs)" : "", &o);
    }
    if (io == 0 && o.ok) io = runner_recv(&p, MSG_DONE, NULL, 0);
    runner_end e = runner_finish(&p);
    if (io != 0 && o.ok) runner_failed(g, &e, s.p, shape, &o);
    bufset_free(&s);
    free(guards);
    free(back);
    return o;
}

/* Output positions reported for every timed call: all of them when the output is small,
 * otherwise the first, the last and random ones between. */
static uint64_t *sample_positions(uint64_t seed, size_t nout, unsigned *count)
{
    *count = (unsigned)(nout < MAX_SAMPLES ? nout : MAX_SAMPLES);
    uint64_t *at = xmalloc(*count * sizeof *at);
    rng r;
    rng_seed(&r, seed);
    for (unsigned k = 0; k < *count; k++) at[k] = nout <= MAX_SAMPLES ? k : rng_next(&r) % nout;
    if (nout > MAX_SAMPLES) at[0] = 0, at[1] = nout - 1;
    return at;
}

/* The received timed outputs against the reference: the first and last calls whole, the
 * sampled positions of every call; with a vary input, each call against its own variant. */
static void check_timed(grader *g, bufset *s, lab_shape shape, int vary, const unsigned char *variants, const unsigned char *outs,
                        const unsigned char *samples, const uint64_t *at, unsigned nsample, size_t calls, outcome *o)
{
    size_t vbytes = vary >= 0 ? buf_bytes(&s->b[vary]) : 0, out_bytes = buf_bytes(&s->b[s->p->out]);
    size_t esz = elem_bytes(s->b[s->p->out].type);
    for (size_t c = 0; c < calls && o->ok; c++) {
        char when[64];
        snprintf(when, sizeof when, " (timed call %zu of %zu)", c + 1, calls);
        if (vary >= 0 || c == 0) {
            if (vary >= 0) memcpy(s->buf[vary], variants + c * vbytes, vbytes);
            int whole = c == 0 || c == calls - 1 || !s->p->reference_at;
            if (whole) reference(g, s, shape);
            else s->p->reference_at(shape, s->buf, at, nsample, s->ref, s->bound);
        }
        if (c == 0) check_values(s, shape, outs, NULL, s->nout, poison_value(0), when, o);
        if (o->ok && c == calls - 1)
            check_values(s, shape, outs + out_bytes, NULL, s->nout, poison_value((unsigned)c), when, o);
        if (o->ok) check_values(s, shape, samples + c * nsample * esz, at, nsample, poison_value((unsigned)c), when, o);
    }
}

/* Timing: warm-up and timed calls in one runner, then every output checked. */
static outcome run_timed(grader *g, int stage, lab_shape shape, stage_result *res)
{
    const lab_problem *pr = LAB.stages[stage].problem;
    outcome o = {.ok = 1, .reason = "ok"};
    bufset s;
    bufset_init(&s, pr, shape);
    int vary = g->same_inputs ? -1 : pr->vary;
    size_t vbytes = vary >= 0 ? buf_bytes(&s.b[vary]) : 0, maxc = g->max_calls;
    size_t out_bytes = buf_bytes(&s.b[pr->out]), esz = elem_bytes(s.b[pr->out].type);
    unsigned nsample;
    uint64_t *at = sample_positions(case_seed(g->run->seed, stage, 1002, 0), s.nout, &nsample);
    unsigned char *variants = xmalloc(maxc * vbytes + 1), *outs = xmalloc(2 * out_bytes);
    unsigned char *samples = xmalloc(maxc * nsample * esz + 1);
    double *times = xmalloc((maxc + 1) * sizeof(double));
    unsigned char *guards = xmalloc(guards_bytes(pr)), *back = xmalloc(s.packed_bytes + 1);
    bufset_fill(&s, case_seed(g->run->seed, stage, 1000, 0));
    for (size_t c = 0; c < maxc && vary >= 0; c++)
        fill_random(pr, &s.b[vary], variants + c * vbytes, case_seed(g->run->seed, stage, 1001, (int)c));
    job j = {.stage = (uint32_t)stage, .s = shape, .timed = 1, .min_calls = g->min_calls + 1,
             .max_calls = (uint32_t)maxc, .nsample = nsample, .vary = vary, .min_time = g->min_time};
    runner_proc p;
    int io = start(g, &p, &j);
    io = io ? io : runner_send(&p, MSG_INPUT, s.packed, s.packed_bytes);
    if (vary >= 0) io = io ? io : runner_send(&p, MSG_VARIANTS, variants, maxc * vbytes);
    io = io ? io : runner_send(&p, MSG_SAMPLE_AT, at, nsample * sizeof *at);
    io = io ? io : runner_recv(&p, MSG_READY, NULL, 0);
    double t0 = now_s();
    io = io ? io : runner_recv(&p, MSG_TIMES, times, (maxc + 1) * sizeof(double));
    double wall = now_s() - t0;
    size_t calls = io == 0 && times[0] >= 2 && times[0] <= (double)maxc ? (size_t)times[0] : 0;
    if (io == 0 && calls == 0) io = fail(&o, "channel", "the runner reported an impossible number of calls");
    io = io ? io : runner_recv(&p, MSG_OUTPUT, outs, out_bytes);
    io = io ? io : runner_recv(&p, MSG_OUTPUT, outs + out_bytes, out_bytes);
    io = io ? io : runner_recv(&p, MSG_SAMPLES, samples, calls * nsample * esz);
    io = io ? io : runner_recv(&p, MSG_GUARDS, guards, guards_bytes(pr));
    io = io ? io : runner_recv(&p, MSG_INPUTS, back, back_bytes(pr, shape));
    trace_msg *trace = LAB.traced ? xcalloc(1, sizeof *trace) : NULL;
    if (trace) io = io ? io : runner_recv(&p, MSG_TRACE, trace, sizeof *trace);
    io = io ? io : runner_recv(&p, MSG_DONE, NULL, 0);
    runner_end e = runner_finish(&p);
    if (io != 0 && o.ok) runner_failed(g, &e, s.p, shape, &o);
    if (o.ok && check_guards(&s, shape, guards, &o) == 0) {
        check_timed(g, &s, shape, vary, variants, outs, samples, at, nsample, calls, &o);
        if (o.ok) check_inputs(&s, shape, back, &o); /* the vary buffer now holds the last variant */
    }
    if (o.ok) {
        res->seconds = median(times + 2, calls - 1); /* times[1] is the warm-up */
        res->best_seconds = times[2];
        for (size_t c = 3; c <= calls; c++) res->best_seconds = fmin(res->best_seconds, times[c]);
        res->timed = 1;
        res->timed_shape = shape;
        if (trace && !res->trace && trace->count >= 0 && trace->count <= TRACE_MAX) {
            res->ntrace = trace->count;
            res->trace = xmalloc(((size_t)trace->count + 1) * sizeof *res->trace);
            memcpy(res->trace, trace->ev, (size_t)trace->count * sizeof *res->trace);
        }
        double per_call = wall / (double)calls;
        if (res->seconds < config_num(&g->run->cfg, "wallclock_margin") * per_call && !LAB.gpu)
            fail(&o, "wallclock", "reported %.3g s per call, but the wall clock saw %.3g s per call", res->seconds,
                 per_call);
    }
    bufset_free(&s);
    free(at);
    free(variants);
    free(outs);
    free(samples);
    free(times);
    free(guards);
    free(back);
    free(trace);
    return o;
}

/* ---------------------------------------------------------------- one stage */

/* The sizes of a problem this run: drawn from the seed and the problem's name, so every stage
 * of one problem sees the same sizes and a replay sees them again. */
static int problem_cases(const lab_run *r, const lab_problem *p, lab_case *out)
{
    rng sizes;
    rng_seed(&sizes, r->seed ^ fnv1a(p->name, strlen(p->name), 0));
    return p->cases(&sizes, r->mach.llc_bytes, out);
}

static double intensity(const lab_problem *p, lab_shape s) { return p->flops(s) / p->bytes(s); }

/* The vendor library at shape s, measured once per shape in this run: OpenBLAS dgemm with the
 * lab's threads, or on a GPU the problem's cuBLAS routine (already timed if it was the reference). */
static double blas_ceiling(grader *g, const lab_problem *p, lab_shape s)
{
    lab_run *r = g->run;
    for (int i = 0; i < r->nblas; i++)
        if (!memcmp(&r->blas[i].s, &s, sizeof s)) return r->blas[i].gflops;
    char probe[1024];
    double gf;
    if (LAB.gpu) {
        snprintf(probe, sizeof probe, "%s/common/gpu-probe", r->build_dir);
        gf = gpu_gemm(probe, g->scratch, p->blas, s.m, s.n, s.k, p->alpha, p->beta, NULL, 0, NULL);
        cublas_note(r, p);
    } else {
        snprintf(probe, sizeof probe, "%s/common/blas-probe", r->build_dir);
        gf = blas_dgemm_gflops(probe, g->scratch, s.m, s.n, s.k, r->threads, r->blas_note, sizeof r->blas_note);
    }
    if (gf <= 0) die("could not measure the %s ceiling with %s", LAB.gpu ? "cuBLAS" : "OpenBLAS dgemm (is libopenblas-dev installed?)", probe);
    remember_blas(r, s, gf);
    return gf;
}

/* Data that starts and ends in host memory: the probe times copy in, its own kernel and copy out
 * at n, once per n in this run. Their maximum is the ideal overlapped time. */
static pipeline_times pipeline_ceiling(grader *g, const lab_problem *p, lab_shape s)
{
    lab_run *r = g->run;
    for (int i = 0; i < r->npipe; i++)
        if (r->pipe[i].n == s.n) return r->pipe[i].t;
    char probe[1024];
    snprintf(probe, sizeof probe, "%s/common/gpu-probe", r->build_dir);
    pipeline_times t;
    if (gpu_pipeline(probe, g->scratch, s.n, p->poly_degree, &t))
        die("could not measure the copy and kernel times with %s (see %s/pipeline-probe.txt)", probe, g->scratch);
    if (r->npipe < (int)(sizeof r->pipe / sizeof r->pipe[0])) r->pipe[r->npipe].n = s.n, r->pipe[r->npipe++].t = t;
    return t;
}

/* Rate, ceiling, verdict and points of a timed stage. */
static void judge_speed(grader *g, const lab_problem *p, stage_result *res, outcome *o)
{
    const config *cfg = &g->run->cfg;
    lab_shape s = res->timed_shape;
    res->gflops = p->flops(s) / res->seconds * 1e-9;
    res->gbs = p->bytes(s) / res->seconds * 1e-9;
    int blas = p->ceiling == CEIL_BLAS, pipe = p->ceiling == CEIL_PIPELINE;
    if (pipe) {
        res->pipe = pipeline_ceiling(g, p, s);
        res->ceiling_gflops = p->flops(s) / pipeline_ideal(&res->pipe) * 1e-9;
    } else {
        res->ceiling_gflops = blas ? blas_ceiling(g, p, s) : g->run->now.stream_gbs * intensity(p, s);
    }
    res->fraction = res->gflops / res->ceiling_gflops;
    /* The fastest this machine has been seen to stream, in this run or at calibration: a busy
     * moment during this run's measurement must not make honest code look impossible. */
    const lab_run *r = g->run;
    double stream = fmax(fmax(r->now.read_gbs, r->now.stream_gbs), fmax(r->cached.read_gbs, r->cached.stream_gbs));
    double limit = config_num(cfg, "impossible_margin") * (blas || pipe ? res->ceiling_gflops : stream * intensity(p, s));
    if (res->gflops > limit) {
        fail(o, "impossible", "%.2f GFLOP/s is more than this machine can do (%.2f: the ceiling times the "
                              "margin in thresholds.conf): the timing is not trustworthy", res->gflops, limit);
        return;
    }
    res->fast_enough = res->fraction >= res->required;
    double from = config_num(cfg, "partial_from") * res->required;
    double credit = res->required > from ? (res->fraction - from) / (res->required - from) : res->fast_enough;
    res->points_speed = res->max_speed * fmin(1.0, fmax(0.0, credit));
    if (!res->fast_enough)
        fail(o, "too-slow", "%.2f GFLOP/s is %.0f%% of the ceiling; this stage needs %.0f%% (%.2f GFLOP/s)", res->gflops,
             100 * res->fraction, 100 * res->required, res->required * res->ceiling_gflops);
}

/* A shared machine only ever slows a call down, and a neighbour busy through one whole timed run
 * slows its median. So a stage short of its threshold is timed again, twice at most, and judged on
 * its fastest median; every call of every run is checked as the first run's were. */
static void retime_if_short(grader *g, int stage, lab_shape shape, stage_result *res, outcome *o)
{
    const lab_problem *p = LAB.stages[stage].problem;
    for (int attempt = 0; attempt < 2 && !o->ok && !strcmp(o->reason, "too-slow"); attempt++) {
        stage_result again = {0};
        outcome o2 = run_timed(g, stage, shape, &again);
        free(again.trace);
        if (!o2.ok) { /* wrong now, or a cheat the wall clock saw: that is the verdict */
            *o = o2;
            res->correct = 0, res->points_correct = 0, res->points_speed = 0, res->fast_enough = 0;
            return;
        }
        res->seconds = fmin(res->seconds, again.seconds);
        res->best_seconds = fmin(res->best_seconds, again.best_seconds);
        *o = (outcome){.ok = 1, .reason = "ok"};
        judge_speed(g, p, res, o);
        if (!o->ok && attempt == 1) {
            size_t used = strlen(o->detail);
            snprintf(o->detail + used, sizeof o->detail - used, " (timed three times: the fastest median)");
        }
    }
}

static void stage_points(const config *cfg, int stage, stage_result *res)
{
    res->required = config_num(cfg, LAB.stages[stage].name);
    res->max_correct = config_num(cfg, "points_correct");
    res->max_speed = config_num(cfg, "points_speed");
}

/* Threaded labs: the same timed case at one thread. The speedup (time at 1 thread / time at the
 * lab's thread count) must reach `<stage>_speedup` from thresholds.conf. It compares the fastest
 * calls: a shared machine only ever slows a call down. But a neighbour busy through one whole
 * measurement spoils it either way (a slowed 1-thread run flatters serial code), so both counts
 * are measured at least twice, alternately, keeping the fastest call of each, and a speedup that
 * falls short is measured a third time. */
static void judge_speedup(grader *g, int stage, lab_shape shape, stage_result *res, outcome *o)
{
    char key[96];
    snprintf(key, sizeof key, "%s_speedup", LAB.stages[stage].name);
    res->speedup_required = config_num_or(&g->run->cfg, key, 0);
    if (res->speedup_required <= 0 || g->run->threads < 2) return;
    double best_n = res->best_seconds, best_1 = INFINITY;
    /* A stage already too slow for its ceiling is measured once: its verdict can't change. */
    for (int attempt = 0; attempt < (o->ok ? 3 : 1); attempt++) {
        if (attempt >= 2 && best_n * res->speedup_required <= best_1) break;
        stage_result one = {0}, again = {0};
        outcome on = {.ok = 1}, o1;
        if (attempt > 0 && (on = run_timed(g, stage, shape, &again)).ok) best_n = fmin(best_n, again.best_seconds);
        g->lim.threads = 1;
        if (on.ok) o1 = run_timed(g, stage, shape, &one);
        g->lim.threads = g->run->threads;
        if (!on.ok || !o1.ok) { /* every call is checked: a race may show only now */
            fail(o, on.ok ? o1.reason : on.reason, "%s%s", on.ok ? "at 1 thread: " : "timed again: ",
                 on.ok ? o1.detail : on.detail);
            res->correct = 0, res->points_correct = 0, res->points_speed = 0, res->fast_enough = 0;
            return;
        }
        best_1 = fmin(best_1, one.best_seconds);
    }
    res->speedup = best_1 / best_n;
    if (res->speedup >= res->speedup_required || !o->ok) return;
    res->fast_enough = 0;
    res->points_speed = 0;
    fail(o, "no-speedup", "fastest call %.3g s at 1 thread, %.3g s at %d (three tries each): a speedup of %.2fx; this "
         "stage needs %.2fx", best_1, best_n, g->run->threads, res->speedup, res->speedup_required);
}

/* A wrong case run again on the same inputs, with the same poison: deterministic code gives the
 * same wrong answer. A different one means the result depends on timing (a race) or on memory
 * the code reads before writing. */
static int differs_when_repeated(grader *g, int stage, int index, lab_shape shape, const outcome *first)
{
    outcome again = run_correctness(g, stage, index, shape);
    return again.ok || strcmp(again.detail, first->detail) != 0;
}
static const char again_hint[] = "\n  likely cause: the same inputs gave a different result when run again: a race "
                                 "(threads or blocks updating shared data unsynchronised, a missing __syncthreads) "
                                 "or reading memory that was never written";

/* The sentence added when a case that was right at 1 thread went wrong at more. */
static const char race_hint[] = "\n  likely cause: correct with 1 thread, wrong with more: a race (threads updating "
                                "shared data without a reduction, atomic or private copy) or a partition of the "
                                "loop that drops or repeats iterations";

static void grade_stage(grader *g, int stage, stage_result *res)
{
    const lab_problem *p = LAB.stages[stage].problem;
    lab_case cases[LAB_MAX_CASES], checked[LAB_MAX_CASES];
    int ncases = problem_cases(g->run, p, cases);
    int ok[LAB_MAX_CASES] = {0}, ncheck = 0, reported = 0, race = 0, unstable = 0;
    size_limits(g, p, cases, ncases);
    snprintf(res->reason, sizeof res->reason, "ok");
    for (int i = 0; i < ncases && ncheck < LAB_MAX_CASES; i++) {
        if (cases[i].timed) continue;
        int ok_at_one = 0, fatal = 0;
        for (int t = 0; t < g->ncorrect_threads && !fatal; t++) {
            int threads = g->correct_threads[t];
            g->lim.threads = threads;
            outcome o = run_correctness(g, stage, 8 * i + t, cases[i].s);
            ok_at_one |= threads == 1 && o.ok;
            res->cases_ok += o.ok;
            res->cases_total++;
            fatal = o.fatal;
            if (!o.ok && !reported++) {
                snprintf(res->reason, sizeof res->reason, "%s", o.reason);
                if (g->ncorrect_threads > 1) snprintf(res->detail, sizeof res->detail, "%d thread%s, %s", threads,
                                                      threads > 1 ? "s" : "", o.detail);
                else snprintf(res->detail, sizeof res->detail, "%s", o.detail);
                race = threads > 1 && ok_at_one;
                if (!race && !strcmp(o.reason, "wrong"))
                    unstable = differs_when_repeated(g, stage, 8 * i + t, cases[i].s, &o);
            }
            if (t == g->ncorrect_threads - 1 || !o.ok) {
                checked[ncheck] = cases[i];
                ok[ncheck++] = o.ok;
            }
            if (!o.ok) break;
        }
        if (fatal) break; /* a crash or hang would repeat on every size: stop here */
    }
    g->lim.threads = g->run->threads;
    if (reported) {
        char why[256];
        diagnose_sizes(checked, ok, ncheck, why, sizeof why);
        size_t used = strlen(res->detail);
        if (race || unstable) snprintf(res->detail + used, sizeof res->detail - used, "%s", race ? race_hint : again_hint);
        else if (why[0]) snprintf(res->detail + used, sizeof res->detail - used, "\n  across sizes: %s", why);
        return;
    }
    if (g->lim.sanitize) { /* correctness only: instrumented code is not timed, and earns no points */
        res->correct = res->fast_enough = 1;
        return;
    }
    for (int i = 0; i < ncases; i++) {
        if (!cases[i].timed) continue;
        outcome o = run_timed(g, stage, cases[i].s, res);
        if (o.ok) {
            res->correct = 1;
            res->points_correct = res->max_correct;
            judge_speed(g, p, res, &o);
            retime_if_short(g, stage, cases[i].s, res, &o);
            if (res->correct) judge_speedup(g, stage, cases[i].s, res, &o);
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
                    "             [--results DIR] [--seed S] [--timeout SECONDS] [--cuda-arch NN] [--cuda-home DIR]\n"
                    "             [--nvcc PATH (empty: no CUDA toolkit)]\n"
                    "             [--sanitize (correctness only, under AddressSanitizer and UBSan)]\n"
                    "             [--bench | --list | --calibrate | --profile STAGE]\n");
    exit(2);
}

static options parse_args(int argc, char **argv)
{
    options o = {0};
    static const struct option longs[] = {
        {"lab-dir", 1, 0, 'l'}, {"work", 1, 0, 'w'}, {"build", 1, 0, 'b'}, {"runner-base", 1, 0, 'r'},
        {"seed", 1, 0, 's'}, {"timeout", 1, 0, 't'}, {"bench", 0, 0, 'B'}, {"list", 0, 0, 'L'},
        {"calibrate", 0, 0, 'C'}, {"results", 1, 0, 'R'}, {"cuda-arch", 1, 0, 'a'}, {"cuda-home", 1, 0, 'h'},
        {"nvcc", 1, 0, 'n'}, {"sanitize", 0, 0, 'S'}, {"profile", 1, 0, 'P'}, {0, 0, 0, 0},
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
        case 'a': o.cuda_arch = optarg; break;
        case 'h': o.cuda_home = optarg; break;
        case 'n': o.nvcc = optarg; break;
        case 'S': o.sanitize = 1; break;
        case 'P': o.profile = optarg; break;
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

/* The student's compile flags: the lab's, and for CUDA the architecture of the GPU graded on
 * (CUDA_ARCH overrides; with no GPU, a default set, so the code still compiles). */
static void compile_flags(const options *opt, const lab_run *r, const char *cflags, char *out, size_t len)
{
    if (!LAB.gpu) {
        snprintf(out, len, "%s", cflags);
        return;
    }
    if (opt->cuda_arch && *opt->cuda_arch)
        snprintf(out, len, "%s -gencode=arch=compute_%s,code=sm_%s", cflags, opt->cuda_arch, opt->cuda_arch);
    else if (r->device[0])
        snprintf(out, len, "%s -gencode=arch=compute_%s,code=sm_%s", cflags, config_str(&r->gpu, "arch"),
                 config_str(&r->gpu, "arch"));
    else snprintf(out, len, "%s -gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90,code=sm_90", cflags);
}

/* "gcc (Debian 12.2.0-14) 12.2.0": the first line of `compiler --version` (nvcc's last). */
static void compiler_version(const char *compiler, const char *scratch, char *out, size_t len)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/compiler-version.txt", scratch);
    char *argv[] = {(char *)compiler, "--version", NULL};
    char *text = run_tool(argv, path, 30) == 0 ? read_text(path, 1 << 16) : NULL;
    const char *line = text ? text : compiler;
    if (text && strstr(compiler, "nvcc")) { /* "Cuda compilation tools, release 13.0, V13.0.88" */
        char *rel = strstr(text, "Cuda compilation tools");
        if (rel) line = rel;
    }
    snprintf(out, len, "%.*s", (int)strcspn(line, "\n"), line);
    free(text);
}

/* A hash of a file's bytes (0 if unreadable): the grader program, or a lab's thresholds. */
static unsigned long long file_hash(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    uint64_t h = 0;
    unsigned char buf[1 << 16];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) h = fnv1a(buf, n, h);
    fclose(f);
    return (unsigned long long)h;
}

/* Build the runner for `source` with `cflags`; a build failure is reported on every stage. */
static int build(const options *opt, grader *g, const char *source, const char *cflags, char *msg, size_t len)
{
    const char *fns[64];
    char names[1024] = "", *save = NULL;
    int nfns = 0;
    for (int i = 0; i < LAB.nstages; i++) /* a stage's `function` may name several, space separated */
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s ", LAB.stages[i].function);
    for (char *w = strtok_r(names, " ", &save); w && nfns < 64; w = strtok_r(NULL, " ", &save)) fns[nfns++] = w;
    const config *cfg = &g->run->cfg;
    const char *libs = config_str(cfg, "ldlibs"), *allow = config_str(cfg, "allow_calls");
    const char *compiler = config_str(cfg, "compiler");
    if (compiler && !strcmp(compiler, "nvcc") && opt->nvcc && *opt->nvcc) compiler = opt->nvcc;
    char flags[1024];
    compile_flags(opt, g->run, cflags, flags, sizeof flags);
    snprintf(g->run->cflags, sizeof g->run->cflags, "%s", flags);
    compiler_version(compiler ? compiler : "gcc", g->scratch, g->run->compiler, sizeof g->run->compiler);
    build_spec b = {compiler ? compiler : "gcc", opt->cuda_home, source, opt->lab_dir, g->scratch, opt->runner_base,
                    flags, libs ? libs : "-lm", fns, nfns, allow ? allow : "", config_str(cfg, "forbid_ptx"),
                    g->lim.sanitize ? SANITIZE_FLAGS : NULL};
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

/* A GPU lab's device, ceilings and busy check, all through the probe program. Sets skip_why
 * where this machine can't run the lab. */
static void setup_gpu(const options *opt, lab_run *r, const char *calib_dir)
{
    char probe[1024], out[1100];
    snprintf(probe, sizeof probe, "%s/common/gpu-probe", opt->build);
    snprintf(out, sizeof out, "%s/gpu-probe.txt", calib_dir);
    r->ceiling = "device copy";
    if ((opt->nvcc && !*opt->nvcc) || access(probe, X_OK) || access(opt->runner_base ? opt->runner_base : probe, R_OK)) {
        snprintf(r->skip_why, sizeof r->skip_why, "skipped: no CUDA toolkit (nvcc not found; install it, or set NVCC=/path/to/nvcc)");
        return;
    }
    if (gpu_probe(probe, opt->calibrate ? "" : "--copy", out, &r->gpu) || config_num_or(&r->gpu, "devices", 0) < 1) {
        snprintf(r->skip_why, sizeof r->skip_why, "skipped: no CUDA device");
        return;
    }
    snprintf(r->device, sizeof r->device, "%s", config_str(&r->gpu, "name"));
    r->gpu_busy = (int)config_num_or(&r->gpu, "other_processes", -1);
    r->mach.llc_bytes = (size_t)config_num(&r->gpu, "l2_bytes");
    r->now.stream_gbs = r->now.read_gbs = config_num_or(&r->gpu, "copy_gbs", 0);
    config cal = {0};
    if (gpu_calibration(calib_dir, &r->mach, r->device, probe, opt->calibrate, &cal) == 0) {
        r->cached.stream_gbs = r->cached.read_gbs = config_num_or(&cal, "copy_gbs", 0);
        r->sgemm_gflops = config_num_or(&cal, "sgemm_gflops", 0);
        r->hgemm_gflops = config_num_or(&cal, "hgemm_gflops", 0);
    }
    if (opt->calibrate) r->now = r->cached;
    config_free(&cal);
}

/* `correct_threads = 1 2 3` in thresholds.conf: every correctness case runs at each count (an
 * odd one catches partitions that drop a remainder). Without it, at the lab's own count. */
static void correct_threads(grader *g)
{
    const char *list = config_str(&g->run->cfg, "correct_threads");
    g->ncorrect_threads = 0;
    for (const char *p = list; p && *p && g->ncorrect_threads < 8;) {
        char *end;
        long t = strtol(p, &end, 10);
        if (end == p) die("thresholds.conf: correct_threads must be a list of thread counts: '%s'", list);
        if (t >= 1 && t <= 256) g->correct_threads[g->ncorrect_threads++] = (int)t;
        p = end;
    }
    if (g->ncorrect_threads == 0) g->correct_threads[g->ncorrect_threads++] = g->run->threads;
}

static void setup(const options *opt, lab_run *r, grader *g)
{
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/thresholds.conf", opt->lab_dir);
    if (config_load(&r->cfg, path, err, sizeof err)) die("%s", err);
    r->config_hash = file_hash(path);
    r->grader_hash = file_hash("/proc/self/exe");
    machine_read(&r->mach);
    r->threads = LAB.threads > 0 ? LAB.threads : r->mach.cores;
    snprintf(path, sizeof path, "%s/calibration", opt->build);
    mkdirs(path);
    r->ceiling = "triad";
    if (LAB.gpu) setup_gpu(opt, r, path);
    else if (calibration(path, &r->mach, r->threads, opt->calibrate, &r->cached))
        fprintf(stderr, "grade: warning: could not write the calibration cache in %s\n", path);
    r->seed = opt->have_seed ? opt->seed : rng_fresh_seed();
    r->work = opt->work;
    r->build_dir = opt->build;
    g->run = r;
    g->lim.timeout_s = opt->timeout > 0 ? opt->timeout : config_num(&r->cfg, "timeout_s");
    g->lim.output_bytes = (size_t)config_num(&r->cfg, "output_bytes");
    g->lim.threads = r->threads;
    correct_threads(g);
    g->lim.gpu = LAB.gpu;
    g->lim.sanitize = opt->sanitize;
    r->sanitize = opt->sanitize;
    g->min_time = config_num(&r->cfg, "min_time_s");
    g->min_calls = (unsigned)config_num(&r->cfg, "min_calls");
    g->max_calls = (unsigned)config_num(&r->cfg, "max_calls");
    g->trials = (unsigned)config_num(&r->cfg, "trials");
}

/* Address space for a runner: its buffers (and a stage's private copy) with room to spare. A
 * CUDA runner maps the device's memory into its address space too, so it gets no such limit. */
static void size_limits(grader *g, const lab_problem *p, const lab_case *cases, int n)
{
    double biggest = 0;
    for (int i = 0; i < n; i++) {
        lab_buf b[LAB_MAX_BUFS];
        double total = 0;
        p->layout(cases[i].s, b);
        for (int k = 0; k < p->nbufs; k++) total += (double)buf_bytes(&b[k]);
        total += (double)g->max_calls * (double)(p->vary >= 0 ? buf_bytes(&b[p->vary]) : 0);
        total += (double)g->max_calls * MAX_SAMPLES * 8 + 2.0 * (double)buf_bytes(&b[p->out]);
        biggest = fmax(biggest, total);
    }
    /* AddressSanitizer reserves terabytes of shadow address space up front. */
    g->lim.memory_bytes = LAB.gpu || g->lim.sanitize ? (size_t)RLIM_INFINITY : (size_t)(3 * biggest) + ((size_t)1 << 30);
}

/* ---------------------------------------------------------------- bench */

static void bench_row(grader *g, int stage, lab_shape s, const char *label)
{
    const lab_problem *p = LAB.stages[stage].problem;
    stage_result res = {0};
    unsigned keep = g->max_calls;
    g->max_calls = (unsigned)fmin(2000, fmax(10, 2e8 / p->flops(s)));
    size_limits(g, p, &(lab_case){s, 1}, 1);
    outcome o = run_timed(g, stage, s, &res);
    g->max_calls = keep;
    char sh[64];
    shape_text(p, s, sh, sizeof sh);
    double mib = p->bytes(s) / (1 << 20);
    if (!o.ok) {
        printf("  %-8s %-22s %9.1f  %-12s  %s\n", label, sh, mib, LAB.stages[stage].name, o.reason);
        return;
    }
    double gf = p->flops(s) / res.seconds * 1e-9, gbs = p->bytes(s) / res.seconds * 1e-9;
    if (p->ceiling == CEIL_PIPELINE) { /* % of the ideal overlapped time at this n, this run */
        pipeline_times t = pipeline_ceiling(g, p, s);
        printf("  %-8s %-34s %9.1f  %-12s %9.2f %9.2f %8.0f%%   (%.2f ms; ideal %.2f, serial %.2f)\n", label, sh, mib,
               LAB.stages[stage].name, gf, gbs, 100 * pipeline_ideal(&t) / res.seconds,
               1e3 * res.seconds, 1e3 * pipeline_ideal(&t), 1e3 * pipeline_serial(&t));
    } else if (p->ceiling == CEIL_BLAS) /* a compute ceiling: the vendor library at this size, this run */
        printf("  %-8s %-22s %9.1f  %-12s %9.2f %9.2f %8.0f%%\n", label, sh, mib, LAB.stages[stage].name, gf, gbs,
               100 * gf / blas_ceiling(g, p, s));
    else
        printf("  %-8s %-22s %9.1f  %-12s %9.2f %9.2f %8.0f%%\n", label, sh, mib, LAB.stages[stage].name, gf, gbs,
               100 * gbs / g->run->now.stream_gbs);
}

/* ---------------------------------------------------------------- make profile */

/* A program on PATH, as a full path for execve; 0 when found. */
static int find_program(const char *name, char *out, size_t len)
{
    const char *path = getenv("PATH");
    char dirs[4096];
    snprintf(dirs, sizeof dirs, "%s", path ? path : "/usr/bin:/bin");
    char *save = NULL;
    for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        snprintf(out, len, "%s/%s", d, name);
        if (access(out, X_OK) == 0) return 0;
    }
    return -1;
}

/* What each counter says about a kernel, in a line. */
static const struct { const char *event, *meaning; } counters[] = {
    {"task-clock", "CPU time the runner used (all its threads), in ms: the calls dominate it"},
    {"cycles", "core clock cycles spent"},
    {"instructions", "instructions retired; over cycles that is IPC (below)"},
    {"cache-references", "references to the last-level cache"},
    {"cache-misses", "of those, misses that went to memory: a streaming kernel (matvec) must miss about once "
                     "a cache line; a blocked one far less"},
    {"L1-dcache-load-misses", "loads missing the L1 data cache: data a register- or cache-blocked kernel reuses "
                              "should not miss again"},
    {"branch-misses", "mispredicted branches: many means data-dependent branching in the inner loop"},
    {"page-faults", "pages touched for the first time (first touch decides where memory lives)"},
    {"context-switches", "times a thread gave up its core: many in an OpenMP lab means more threads than cores, "
                         "or threads waiting"},
};

/* The timed case of one stage, its runner run under `perf stat`: hardware counters over the
 * run (mostly the timed calls), each with what it means. CPU labs; the machine must let perf
 * read counters (virtual machines often hide them: then only the software ones show). */
static int profile(const options *opt, grader *g, const char *source)
{
    int stage = -1;
    for (int i = 0; i < LAB.nstages; i++)
        if (!strcmp(LAB.stages[i].name, opt->profile)) stage = i;
    if (stage < 0) {
        fprintf(stderr, "%s has no stage '%s'; its stages:", LAB.id, opt->profile);
        for (int i = 0; i < LAB.nstages; i++) fprintf(stderr, " %s", LAB.stages[i].name);
        fprintf(stderr, "\n");
        return 2;
    }
    if (LAB.gpu) {
        printf("%s profile: for a CUDA lab this would run Nsight Compute (ncu) on the stage; that is not built into "
               "this version yet. On a GPU machine, profile a program of your own that calls your function with "
               "`ncu --set basic`.\n", LAB.id);
        return 2;
    }
    char perf[1024], msg[4096], out[1100];
    if (find_program("perf", perf, sizeof perf)) {
        printf("%s profile: perf is not installed (Debian package linux-perf: apt-get install -y linux-perf)\n", LAB.id);
        return 2;
    }
    if (build(opt, g, source, config_str(&g->run->cfg, "cflags"), msg, sizeof msg) != BUILD_OK) {
        fprintf(stderr, "%s: %s\n", source, msg);
        return 1;
    }
    char dir[PATH_MAX];
    if (!realpath(g->scratch, dir)) die("cannot find %s", g->scratch);
    snprintf(out, sizeof out, "%s/perf.txt", dir); /* absolute: perf runs in the scratch folder */
    char events[512] = "";
    for (size_t i = 0; i < sizeof counters / sizeof counters[0]; i++)
        snprintf(events + strlen(events), sizeof events - strlen(events), "%s%s", i ? "," : "", counters[i].event);
    char *wrap[] = {perf, "stat", "-x", ",", "-o", out, "-e", events, "--", NULL};
    lab_case cases[LAB_MAX_CASES];
    const lab_problem *p = LAB.stages[stage].problem;
    int n = problem_cases(g->run, p, cases), timed = n - 1;
    for (int i = 0; i < n; i++)
        if (cases[i].timed) timed = i;
    size_limits(g, p, cases, n);
    g->lim.wrapper = wrap;
    stage_result res = {0};
    outcome o = run_timed(g, stage, cases[timed].s, &res);
    g->lim.wrapper = NULL;
    char sh[64];
    shape_text(p, cases[timed].s, sh, sizeof sh);
    printf("%s profile of %s at %s: perf stat over the runner (its setup and every timed call)\n", LAB.id,
           LAB.stages[stage].name, sh);
    if (!o.ok) {
        printf("  the stage did not run cleanly [%s]: %s\n", o.reason, o.detail);
        return 1;
    }
    printf("  %.2f GFLOP/s, %.2f GB/s (median call %.3g s)\n\n", p->flops(res.timed_shape) / res.seconds * 1e-9,
           p->bytes(res.timed_shape) / res.seconds * 1e-9, res.seconds);
    char *text = read_text(out, 1 << 16), *save = NULL;
    double value[sizeof counters / sizeof counters[0]] = {0};
    int hidden = 0;
    for (char *line = text ? strtok_r(text, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
        char *field[3] = {NULL, NULL, NULL}, *rest = line; /* value,unit,event,... (a field may be empty) */
        for (int f = 0; f < 3 && rest; f++) field[f] = strsep(&rest, ",");
        if (!field[2]) continue;
        for (size_t i = 0; i < sizeof counters / sizeof counters[0]; i++) {
            if (strncmp(field[2], counters[i].event, strlen(counters[i].event))) continue;
            int ok = field[0][0] != '<';
            hidden += !ok;
            value[i] = ok ? atof(field[0]) : -1;
            printf("  %-22s %16s  %s\n", counters[i].event, ok ? field[0] : "not readable", counters[i].meaning);
        }
    }
    free(text);
    if (value[1] > 0 && value[2] > 0)
        printf("\n  IPC %.2f: instructions per cycle. Near the core's width (4 or more) it is busy computing; below "
               "1 it mostly waits, usually on memory.\n", value[2] / value[1]);
    if (value[3] > 0 && value[4] >= 0)
        printf("  %.0f%% of last-level cache references missed.\n", 100 * value[4] / value[3]);
    if (hidden)
        printf("\n  %d counter%s not readable: this machine does not let perf read hardware counters (usual in a "
               "virtual machine; perf_event_paranoid or the hypervisor decides). The software ones above still hold.\n",
               hidden, hidden > 1 ? "s are" : " is");
    return 0;
}

/* Several sizes of every stage at the grading flags; for a CPU lab then the timed size at
 * -O0 .. -O3 (the compiler study). */
static int bench(const options *opt, grader *g, const char *source)
{
    char msg[4096];
    const char *cflags = config_str(&g->run->cfg, "cflags");
    g->same_inputs = 1; /* not graded: the time goes to measuring, not to references */
    if (g->run->skip_why[0]) {
        printf("%s bench: %s\n", LAB.id, g->run->skip_why);
        return 0;
    }
    if (build(opt, g, source, cflags, msg, sizeof msg) != BUILD_OK) {
        fprintf(stderr, "%s: %s\n", source, msg);
        return 1;
    }
    printf("%s bench: %s; %s %.1f GB/s this run; seed 0x%016" PRIx64 "\n", LAB.id,
           LAB.gpu ? g->run->device : g->run->mach.cpu, g->run->ceiling, g->run->now.stream_gbs, g->run->seed);
    int blas = 0;
    for (int st = 0; st < LAB.nstages; st++) blas |= LAB.stages[st].problem->ceiling == CEIL_BLAS;
    if (blas)
        printf("ceiling column: for matrix multiplies, %% of %s at that size measured in this run%s\n",
               LAB.gpu ? "cuBLAS" : "OpenBLAS dgemm", LAB.gpu || g->run->threads == 1 ? "" : " at the lab's thread count");
    int pipe = LAB.stages[0].problem->ceiling == CEIL_PIPELINE;
    if (pipe) {
        lab_case c[LAB_MAX_CASES];
        LAB.stages[0].problem->bench_cases(0, c);
        pipeline_times t = pipeline_ceiling(g, LAB.stages[0].problem, c[0].s);
        printf("ceiling column: the ideal overlapped time max(copy in, kernel, copy out), each measured alone by the "
               "probe at that n in this run, over the stage's time\ncreating (and destroying) a stream costs %.1f us "
               "on the host here\n", t.stream_create_us);
    }
    printf("  %-8s %-*s %9s  %-12s %9s %9s %9s\n", "flags", pipe ? 34 : 22, "size", "MiB", "stage", "GFLOP/s", "GB/s",
           "ceiling");
    for (int st = 0; st < LAB.nstages; st++) {
        lab_case cases[LAB_MAX_CASES];
        int n = LAB.stages[st].problem->bench_cases(g->run->mach.llc_bytes, cases);
        for (int i = 0; i < n; i++) {
            if (LAB.threads == 1 || LAB.gpu) bench_row(g, st, cases[i].s, "default");
            for (int t = 1; t <= g->run->threads && LAB.threads != 1 && !LAB.gpu; t++) { /* a scaling table */
                char label[16];
                snprintf(label, sizeof label, "%d thr", t);
                g->lim.threads = t;
                bench_row(g, st, cases[i].s, label);
            }
            g->lim.threads = g->run->threads;
        }
    }
    if (LAB.gpu) return 0;
    static const char *levels[] = {"-O0", "-O1", "-O2", "-O3"};
    printf("\ncompiler study: the graded timed size at each optimisation level (flags: %s, level replaced)\n", cflags);
    for (int l = 0; l < 4; l++) {
        char flags[512], *o3;
        snprintf(flags, sizeof flags, "%s", cflags);
        if ((o3 = strstr(flags, "-O3"))) memcpy(o3, levels[l], 3);
        if (build(opt, g, source, flags, msg, sizeof msg) != BUILD_OK) {
            printf("  %s: %s\n", levels[l], msg);
            continue;
        }
        for (int st = 0; st < LAB.nstages; st++) {
            lab_case graded[LAB_MAX_CASES];
            int ng = problem_cases(g->run, LAB.stages[st].problem, graded);
            for (int i = 0; i < ng; i++)
                if (graded[i].timed) bench_row(g, st, graded[i].s, levels[l]);
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- main */

/* "<stage>_over = <other>" and "<stage>_ratio = x" in thresholds.conf: the stage must also be x
 * times as fast as the other stage, measured in the same run (ikj against ijk, say). */
static void relative_requirements(lab_run *r)
{
    for (int st = 0; st < LAB.nstages; st++) {
        stage_result *res = &r->stages[st];
        char key[96];
        snprintf(key, sizeof key, "%s_over", LAB.stages[st].name);
        const char *other = config_str(&r->cfg, key);
        if (!other || !res->fast_enough) continue;
        snprintf(key, sizeof key, "%s_ratio", LAB.stages[st].name);
        double ratio = config_num(&r->cfg, key);
        for (int o = 0; o < LAB.nstages; o++) {
            if (strcmp(LAB.stages[o].name, other) || !r->stages[o].timed || r->stages[o].gflops <= 0) continue;
            double got = res->gflops / r->stages[o].gflops;
            if (got >= ratio) continue;
            res->fast_enough = 0;
            res->points_speed = 0;
            snprintf(res->reason, sizeof res->reason, "too-slow");
            snprintf(res->detail, sizeof res->detail, "%.2f GFLOP/s is %.2fx %s (%.2f GFLOP/s); this stage must be at "
                     "least %.2fx as fast", res->gflops, got, other, r->stages[o].gflops, ratio);
        }
    }
}

/* The compute roof of the lab's roofline chart (common/roofline.c), recorded in the results; it
 * judges nothing. A lab with vendor-library ceilings: the fastest of them, measured in this run. A
 * bandwidth-bound lab has none, so: on a CPU, OpenBLAS dgemm at ROOF_N^3 with the lab's threads,
 * measured now (a third of a second on one core) and only when a stage was timed (a chart with no
 * point borrows the reference's roof); on a GPU, cuBLAS SGEMM from the calibration (measuring it
 * again would take seconds). */
#define ROOF_N 1024
static void compute_roof(grader *g)
{
    lab_run *r = g->run;
    int best = -1, timed = 0;
    for (int i = 0; i < r->nblas; i++)
        if (best < 0 || r->blas[i].gflops > r->blas[best].gflops) best = i;
    for (int st = 0; st < LAB.nstages; st++) timed |= r->stages[st].timed;
    lab_shape s = best >= 0 ? r->blas[best].s : (lab_shape){ROOF_N, ROOF_N, ROOF_N};
    char note[160];
    snprintf(note, sizeof note, "%s", r->blas_note);
    if (best >= 0) r->compute_gflops = r->blas[best].gflops;
    else if (LAB.gpu && r->sgemm_gflops > 0) {
        r->compute_gflops = r->sgemm_gflops;
        snprintf(r->compute_source, sizeof r->compute_source, "cuBLAS SGEMM (FP32 without TF32), from the calibration");
        return;
    } else if (!LAB.gpu && timed) {
        char probe[1024];
        snprintf(probe, sizeof probe, "%s/common/blas-probe", r->build_dir);
        r->compute_gflops = blas_dgemm_gflops(probe, g->scratch, s.m, s.n, s.k, r->threads, note, sizeof note);
    }
    if (r->compute_gflops <= 0) return;
    if (LAB.gpu)
        snprintf(r->compute_source, sizeof r->compute_source, "%s, %dx%dx%d, measured while grading", note, s.m, s.n,
                 s.k);
    else
        snprintf(r->compute_source, sizeof r->compute_source, "OpenBLAS dgemm %dx%dx%d, %d thread%s, measured while "
                 "grading (%s)", s.m, s.n, s.k, r->threads, r->threads > 1 ? "s" : "", note);
}

static void print_calibration(const lab_run *r)
{
    if (LAB.gpu && r->skip_why[0]) printf("%s: %s\n", LAB.id, r->skip_why);
    else if (LAB.gpu)
        printf("%s: %s: copy %.1f GB/s, cuBLAS SGEMM %.0f GFLOP/s, HGEMM %.0f GFLOP/s\n", LAB.id, r->device,
               r->cached.stream_gbs, r->sgemm_gflops, r->hgemm_gflops);
    else
        printf("%s: %s, %d cores, last-level cache %.1f MiB: triad %.2f GB/s, read %.2f GB/s (%d thread%s)\n", LAB.id,
               r->mach.cpu, r->mach.cores, r->mach.llc_bytes / 1048576.0, r->cached.stream_gbs, r->cached.read_gbs,
               r->threads, r->threads > 1 ? "s" : "");
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0); /* tables appear row by row, also through a pipe */
    options opt = parse_args(argc, argv);
    if (opt.list) {
        list_stages();
        return 0;
    }
    static lab_run r;
    static grader g;
    setup(&opt, &r, &g);
    if (opt.calibrate) {
        print_calibration(&r);
        return 0;
    }
    make_scratch(&opt, &g);
    if (opt.sanitize && LAB.gpu && !r.skip_why[0])
        snprintf(r.skip_why, sizeof r.skip_why, "skipped: SANITIZE=1 covers the CPU labs; for a CUDA lab, run "
                 "compute-sanitizer on a program of your own that calls your functions");
    if (!LAB.gpu) r.now = measure_bandwidth(r.threads, 4 * r.mach.llc_bytes);
    char source[2048];
    snprintf(source, sizeof source, "%s/%s/%s", opt.work, LAB.id, LAB.source);
    if (opt.bench) return bench(&opt, &g, source);
    if (opt.profile) return profile(&opt, &g, source);

    /* Build even where the lab can't run, so compile errors and audit findings still show. */
    if (!(LAB.gpu && strstr(r.skip_why, "toolkit")))
        r.build_status = build(&opt, &g, source, config_str(&r.cfg, "cflags"), r.build_error, sizeof r.build_error);
    int all = 1;
    for (int st = 0; st < LAB.nstages; st++) {
        stage_result *res = &r.stages[st];
        stage_points(&r.cfg, st, res);
        if (r.build_status != BUILD_OK) {
            snprintf(res->reason, sizeof res->reason, "%s", r.build_status == BUILD_AUDIT ? "audit" : "build");
            snprintf(res->detail, sizeof res->detail, "%s", r.build_error);
        } else if (r.skip_why[0]) {
            res->skipped = 1;
            snprintf(res->reason, sizeof res->reason, "skipped");
            snprintf(res->detail, sizeof res->detail, "%s", r.skip_why);
        } else grade_stage(&g, st, res);
    }
    relative_requirements(&r);
    compute_roof(&g);
    for (int st = 0; st < LAB.nstages; st++) all &= r.stages[st].skipped || (r.stages[st].correct && r.stages[st].fast_enough);
    report_table(&r, stdout);
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.json", opt.results ? opt.results : "build/results", LAB.id);
    if (report_json(&r, path)) fprintf(stderr, "grade: could not write %s\n", path);
    return all ? 0 : 1;
}
