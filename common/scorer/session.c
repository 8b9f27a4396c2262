/* session.c - see session.h: runner sessions, the correctness cases and the scorer's own timing of
 * every timed call. A case's buffers and reference are cases.c's; the checks, checks.c's. */
#define _GNU_SOURCE
#include <dirent.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "proto.h"
#include "checks.h"
#include "session.h"
#include "stats.h"
#include "util.h"

/* Positions checked of a timed call whose output is sampled, and of one fetched whole (where the
 * output is larger); a 2D output is sampled on a grid of random rows and columns, so a reference
 * element is one dot product over data in cache. */
#define SAMPLES_PER_CALL 2048
#define SAMPLES_WHOLE 8192

/* ---------------------------------------------------------------- the runner session */

/* What the student's code printed in the last session (a debugging printf, say), kept for the
 * report under the stage that printed it: its first lines, cut short, anything unprintable as '?'.
 * Only shown, never read for anything; a later session of the stage does not replace it. */
#define PRINTED_LINES 5
_Static_assert(PRINTED_LINES * 161 < sizeof ((stage_result *)0)->printed, "printed[] holds them");
static void keep_printed(grader *g)
{
    if (g->sessions == 0 || g->lim.sanitize) return; /* under the sanitizers it is their report */
    stage_result *res = &g->run->stages[g->stage];
    char *text = read_text(g->output, 1 << 16);
    if (text && *text && !res->printed[0]) {
        size_t used = 0, lines = 0;
        for (const char *p = text; *p; lines++) {
            size_t n = strcspn(p, "\n");
            if (lines < PRINTED_LINES) { /* PRINTED_LINES lines of up to 160 characters fit in printed[] */
                size_t take = n < 160 ? n : 160;
                for (size_t k = 0; k < take; k++)
                    res->printed[used++] = p[k] >= 0x20 && p[k] < 0x7f ? p[k] : '?';
                if (take < n) memcpy(res->printed + used - 3, "...", 3);
                res->printed[used++] = '\n';
            }
            p += n + (p[n] == '\n');
        }
        res->printed[used ? used - 1 : 0] = '\0';
        res->printed_lines = (int)lines;
    }
    free(text);
}

/* A runner for the stage, if none runs: one process serves every case of a stage. Its CPU limit
 * covers the session; each case has its own wall-clock deadline (case_begin). */
static int session_ensure(grader *g, int stage)
{
    if (g->alive && g->stage == stage) return 0;
    session_end(g);
    keep_printed(g); /* the last session's, before the new runner's output replaces it */
    sandbox_limits lim = g->lim;
    lim.timeout_s *= 8;
    lim.threads = g->run->threads;
    lim.window_bytes = g->window_bytes;
    if (runner_start(&g->proc, g->runner, g->scratch, g->output, &lim)) die("cannot start %s", g->runner);
    g->alive = 1;
    g->stage = stage;
    g->sessions++;
    return 0;
}

void session_end(grader *g)
{
    if (!g->alive) return;
    runner_finish(&g->proc);
    keep_printed(g);
    g->alive = 0;
}

/* A case's wall-clock limit is the student's code's (timeout_s); the harness's moving of `bytes`
 * through the channel gets a second per 200 MB on top. On a 2-core VM beside another grading, a
 * 1.1 GB matrix moved in and back took over the 3 s make hostile gives a hang: honest stages of a
 * plant timed out there (lab 01's forged_done, 2026-11-28). */
static double deadline_after(const grader *g, size_t bytes) { return now_s() + g->lim.timeout_s + (double)bytes / 2e8; }

static int case_begin(grader *g, const job *j, size_t bytes)
{
    session_ensure(g, (int)j->stage);
    g->proc.deadline = deadline_after(g, bytes);
    return runner_send(&g->proc, MSG_CASE, j, sizeof *j);
}

/* A case the runner did not finish: how it ended, and the session over. */
static void case_failed(grader *g, const lab_problem *p, lab_shape shape, outcome *o)
{
    runner_end e = runner_finish(&g->proc);
    g->alive = 0;
    if (o->ok) runner_failed(g, &e, p, shape, o);
}

/* ---------------------------------------------------------------- correctness */

outcome run_correctness(grader *g, int stage, int index, lab_shape shape)
{
    const lab_problem *pr = LAB.stages[stage].problem;
    outcome o = {.ok = 1, .reason = "ok"};
    bufset s;
    bufset_init(&s, pr, shape);
    unsigned char *guards = xmalloc(guards_bytes(pr));
    void *out = s.recv;
    size_t back_size = back_bytes(pr, shape);
    size_t out_bytes = buf_bytes(&s.b[pr->out]);
    job j = {.stage = (uint32_t)stage, .s = shape, .trials = g->trials, .vary = -1, .threads = g->case_threads};
    int io = case_begin(g, &j, (s.packed_bytes + back_size) * g->trials);
    /* Inputs whose reference is costly are the same in every stage (each stage's runner is a
     * process of its own, with nothing kept between them), so the reference runs once for them. */
    int shared = s.shared = costly(pr, shape);
    for (unsigned t = 0; t < g->trials && io == 0 && o.ok; t++) {
        bufset_fill(&s, case_seed(g->run->seed, shared ? -1 : stage, index, (int)t));
        io = runner_send(&g->proc, MSG_INPUT, s.packed, s.packed_bytes);
        io = io ? io : runner_recv(&g->proc, MSG_OUTPUT, out, out_bytes);
        io = io ? io : runner_recv(&g->proc, MSG_GUARDS, guards, guards_bytes(pr));
        outcome changed = {.ok = 1, .reason = "ok"}; /* an input changed: said once the guards are checked */
        recv_inputs_back(&g->proc, &s, shape, &io, &changed);
        if (io == 0 && check_guards(&s, shape, guards, &o) == 0) {
            if (!changed.ok) o = changed;
            else check_output(g, &s, shape, out, poison_value(t), t ? " (second call, new inputs)" : "", &o);
        }
    }
    if (io == 0 && o.ok) io = runner_recv(&g->proc, MSG_CASE_DONE, NULL, 0);
    if (g->sanitizer_tool && g->sanitize_per_case) { /* compute-sanitizer: its report read once the runner ended */
        runner_end e = runner_finish(&g->proc);
        g->alive = 0;
        char sh[64];
        shape_text(pr, shape, sh, sizeof sh);
        if (o.ok && (io != 0 || !(e.exited && e.code == 0))) runner_failed(g, &e, s.p, shape, &o); /* its finding first */
        else cuda_sanitizer_finding(g, sh, &o); /* one beside a wrong result, or in a run that ended well */
        o.fatal |= !o.ok;
    } else if (io != 0 || !o.ok) case_failed(g, s.p, shape, &o); /* a wrong answer may leave the runner mid-case */
    bufset_free(&s);
    free(guards);
    return o;
}

/* ---------------------------------------------------------------- timed calls */

/* Positions to check, chosen after the call: all of a small output; otherwise `want` of them, on a
 * grid of random rows and columns for a matrix, the first and last always among them. */
static uint64_t *pick_positions(rng *r, const lab_buf *ob, size_t want, size_t *count)
{
    size_t n = buf_elems(ob);
    if (n <= want) {
        uint64_t *at = xmalloc(n * sizeof *at + 1);
        for (size_t k = 0; k < n; k++) at[k] = k;
        *count = n;
        return at;
    }
    uint64_t *at = xmalloc(want * sizeof *at);
    size_t rows = ob->rows > 1 && ob->cols > 1 ? (size_t)fmin((double)ob->rows, sqrt((double)want) / 2) : 1;
    size_t cols = ob->rows > 1 && ob->cols > 1 ? want / rows : want;
    if (cols > ob->cols && ob->rows > 1) cols = ob->cols;
    size_t k = 0;
    for (size_t i = 0; i < rows; i++) {
        uint64_t row = ob->rows > 1 && ob->cols > 1 ? rng_next(r) % ob->rows : 0;
        for (size_t j = 0; j < cols && k < want; j++)
            at[k++] = ob->rows > 1 && ob->cols > 1 ? row * ob->cols + rng_next(r) % ob->cols : rng_next(r) % n;
    }
    at[0] = 0, at[k - 1] = n - 1;
    *count = k;
    return at;
}

typedef struct timed_call {
    double seconds;   /* the scorer's time, or the runner's where the two agree */
    int verified;     /* fetched whole and its digest matched: its time is real */
    int disagreed;    /* the runner's own time was not used */
    int delayed;      /* ... and the scorer's time less the round trip was over DELAYED_BY times it (delayed, or a moved clock) */
    double window;    /* GO to DONE, the scorer's clock ... */
    double cpu;       /* ... and the runner's CPU time in it, every thread (the kernel's count; -1 unknown) */
    double stolen;    /* ... and the CPU time the VM's host took in it (steal, every CPU; -1 unknown) */
    double waited;    /* ... and the time the runner's threads waited, ready, for a CPU (-1 unknown) */
    double outside;   /* the scorer's time of it (GO to DONE for a call fetched whole, else to the answer) */
    double claimed;   /* the runner's own figure */
    int whole;        /* fetched whole */
} timed_call;

/* WB_TIMING_LOG=file: a line per timed call (the scorer's time, the runner's, the one used, an empty call's), for
 * the benchmarks of the clocks' agreement. */
static void log_call(const lab_problem *p, lab_shape shape, unsigned call, int whole, double outside, double claimed,
                     double used, double empty)
{
    const char *path = getenv("WB_TIMING_LOG");
    FILE *f = path && *path ? fopen(path, "a") : NULL;
    if (!f) return;
    char sh[64];
    shape_text(p, shape, sh, sizeof sh);
    fprintf(f, "%s\t%s\t%s\t%u\t%s\t%.6e\t%.6e\t%.6e\t%.6e\n", LAB.id, p->name, sh, call, whole ? "whole" : "sampled",
            outside, claimed, used, empty);
    fclose(f);
}

/* A call timed at the floor (judged_time) more than this many times the runner's own figure was
 * delayed on its way, or its clock moved; one floored by less is kept as it is (on a 2-core Xeon VM
 * a lab 01 call of 0.22 s was floored on most calls, by 0.07 ms: the round trip varies by that). */
#define DELAYED_BY 1.05

/* WB_DELAY_CALLS=k, for the test suite: the scorer hears of DONE half a second late on each of a
 * run's first k timed calls, as a host that took its CPU for that long would make it. (The pause
 * comes after DONE has arrived, so a call of any length is delayed by all of it.) */
static void delay_for_test(unsigned call)
{
    const char *k = getenv("WB_DELAY_CALLS");
    if (k && call < (unsigned)atoi(k)) {
        struct timespec half = {.tv_nsec = 500000000};
        nanosleep(&half, NULL);
    }
}

/* The time of a call: the runner's own figure (its clock, or the device's events: finer than the
 * scorer's), but never more than the scorer's own time (GO to DONE, or to the answer to FETCH),
 * and never less than that time less `overhead`, the round trip of an empty call timed before any
 * student code ran in this runner, and clock_slack_us. The runner keeps its clock in memory the
 * student's code can write (row 38): moved, it gains at most that slack. */
double judged_time(double outside, double claimed, double overhead, double slack)
{
    return fmax(fmin(claimed, outside), outside - overhead - slack);
}

/* FETCH the whole output (into vals, out_bytes) or the values at `count` positions (into vals,
 * count x esz); 0 when the answer came. */
static int fetch(runner_proc *p, int whole, const uint64_t *at, size_t count, void *vals, size_t out_bytes, size_t esz)
{
    unsigned char *msg = xmalloc(sizeof(fetch_msg) + count * sizeof *at);
    memcpy(msg, &(fetch_msg){.whole = (uint32_t)whole, .count = whole ? 0 : (uint32_t)count}, sizeof(fetch_msg));
    memcpy(msg + sizeof(fetch_msg), at, whole ? 0 : count * sizeof *at);
    int io = runner_send(p, MSG_FETCH, msg, sizeof(fetch_msg) + (whole ? 0 : count * sizeof *at));
    free(msg);
    return io ? io : whole ? runner_recv_output(p, vals, out_bytes) : runner_recv(p, MSG_SAMPLES, vals, count * esz);
}

/* The round trip of a call with nothing in it: GO to DONE, and GO to the answer to a FETCH of the
 * whole output or of sampled positions, the median of EMPTY_CALLS empty calls (proto.h) made by a
 * runner that has run no student code yet, so nothing of the student's can slow them. */
#define EMPTY_CALLS 5
typedef struct round_trip {
    double done, answer;
} round_trip;

/* One empty call: SEED (empty) -> STAGED; GO -> DONE, its time in *done; the fetch answered, the time
 * from GO in *answer. */
static int empty_round_trip(grader *g, bufset *s, int whole, rng *pick, double *done, double *answer)
{
    runner_proc *p = &g->proc;
    const lab_buf *ob = &s->b[s->p->out];
    size_t esz = elem_bytes(ob->type), out_bytes = buf_bytes(ob), count;
    seed_msg m = {.key = rng_next(pick), .empty = 1};
    done_msg d;
    uint64_t *at = pick_positions(pick, ob, SAMPLES_PER_CALL, &count);
    void *vals = xmalloc(whole ? out_bytes : count * esz + 1);
    int io = runner_send(p, MSG_SEED, &m, sizeof m) || runner_recv(p, MSG_STAGED, NULL, 0);
    double t0 = now_s();
    io = io ? io : runner_send(p, MSG_GO, NULL, 0) || runner_recv(p, MSG_DONE, &d, sizeof d);
    *done = now_s() - t0;
    io = io ? io : fetch(p, whole, at, count, vals, out_bytes, esz);
    *answer = now_s() - t0;
    free(at);
    free(vals);
    return io;
}

static int time_empty_calls(grader *g, bufset *s, int whole, rng *pick, round_trip *rt)
{
    double done[EMPTY_CALLS], answer[EMPTY_CALLS];
    int io = 0;
    for (int k = 0; k < EMPTY_CALLS && io == 0; k++) io = empty_round_trip(g, s, whole, pick, &done[k], &answer[k]);
    rt->done = io ? 0 : median(done, EMPTY_CALLS);
    rt->answer = io ? 0 : median(answer, EMPTY_CALLS);
    return io;
}

/* One empty call whose time is not kept, just before a timed call of a GPU lab. Between timed calls
 * the runner and the scorer sleep while the scorer fetches and checks an output (0.1-0.3 s), and a
 * round trip after that sleep took 0.05-0.37 ms longer than the empty calls', which are made back to
 * back (an H200, lab 11: docs/BENCHMARKS.md, "The thirty-second session"): the floor of
 * judged_time then decided the call, not the device's time. This round trip wakes the same paths, so
 * that the timed call's is made as the empty calls' were. Its time is not used: the runner has run
 * the student's code by now. */
static int warm_round_trip(grader *g, bufset *s, rng *pick)
{
    double done, answer;
    return empty_round_trip(g, s, 0, pick, &done, &answer);
}

/* Where the timed calls' time goes, for WB_PHASES: the runner staging, the call, the fetch, the
 * scorer's copy of the varying input, the digest, the reference and checks. */
static double seg[6];
enum { SEG_STAGE, SEG_CALL, SEG_FETCH, SEG_FILL, SEG_DIGEST, SEG_CHECK };

/* One timed call, by the protocol in proto.h, its output checked; 0 when it went through. */
static int one_timed_call(grader *g, bufset *s, lab_shape shape, int vary, unsigned call, uint64_t secret, int whole,
                          rng *pick, const round_trip *empty, timed_call *tc, int *stale, outcome *o)
{
    runner_proc *p = &g->proc;
    const lab_buf *ob = &s->b[s->p->out];
    size_t esz = elem_bytes(ob->type), out_bytes = buf_bytes(ob), count;
    done_msg d;
    double ts = now_s();
    seed_msg m = {.secret = secret, .key = rng_next(pick)}; /* the digest's key, drawn apart from the secret */
    if (runner_send(p, MSG_SEED, &m, sizeof m) || runner_recv(p, MSG_STAGED, NULL, 0)) return -1;
    double cpu0, wait0, cpu1, wait1, steal0 = machine_steal_seconds();
    runner_sched_seconds(p, &cpu0, &wait0);
    double t0 = now_s();
    seg[SEG_STAGE] += t0 - ts;
    if (runner_send(p, MSG_GO, NULL, 0)) return -1;
    if (runner_recv(p, MSG_DONE, &d, sizeof d)) return -1;
    delay_for_test(call);
    double t_done = now_s() - t0;
    runner_sched_seconds(p, &cpu1, &wait1);
    double steal1 = machine_steal_seconds();
    tc->window = t_done;
    tc->cpu = cpu0 >= 0 && cpu1 >= 0 ? cpu1 - cpu0 : -1;
    tc->stolen = steal0 >= 0 && steal1 >= 0 ? steal1 - steal0 : -1;
    tc->waited = wait0 >= 0 && wait1 >= 0 ? wait1 - wait0 : -1;
    /* A call that took longer than moving its output would (at 2 GB/s) is fetched whole anyway. */
    whole = whole || t_done * 2e9 >= (double)out_bytes;
    uint64_t *at = pick_positions(pick, ob, whole ? SAMPLES_WHOLE : SAMPLES_PER_CALL, &count);
    unsigned char *vals = whole ? s->recv : xmalloc(count * esz + 1);
    int io = fetch(p, whole, at, count, vals, out_bytes, esz);
    double t_answer = now_s() - t0;
    seg[SEG_CALL] += t_done, seg[SEG_FETCH] += t_answer - t_done;
    if (io == 0) {
        char when[64];
        snprintf(when, sizeof when, " (timed call %u)", call + 1);
        double tf = now_s();
        /* the runner derived the same input from the secret; a reduction checked whole needs only its sum */
        int every = whole && s->nout <= SAMPLES_WHOLE && !s->p->reference_at; /* every element checked */
        int from_seed = vary >= 0 && every && s->p->reference_seeded;
        if (vary >= 0 && !from_seed) fill_buf(s, vary, secret);
        *stale = from_seed;
        double td = now_s();
        seg[SEG_FILL] += td - tf;
        int forged = whole && digest_in_done(s->p, out_bytes) && digest_bytes(vals, out_bytes, m.key) != d.digest;
        seg[SEG_DIGEST] += now_s() - td;
        td = now_s();
        if (forged) {
            char sh[64];
            shape_text(s->p, shape, sh, sizeof sh);
            fail(o, "forged-done", "%s%s: the output fetched after the call is not the one the runner committed to "
                 "when it said the call was done: the call reported itself finished before its result existed", sh, when);
        } else if (from_seed) {
            s->p->reference_seeded(s->p, shape, secret, s->ref, s->bound);
            check_values(s, shape, vals, NULL, s->nout, poison_value(call), when, o);
        } else if (every) {
            check_output(g, s, shape, vals, poison_value(call), when, o);
        } else {
            unsigned char *picked = vals;
            if (whole) { /* the positions, picked from the whole output */
                picked = xmalloc(count * esz);
                for (size_t k = 0; k < count; k++) memcpy(picked + k * esz, vals + at[k] * esz, esz);
            }
            reference_at(g, s, shape, at, count);
            check_values(s, shape, picked, at, count, poison_value(call), when, o);
            if (whole) free(picked);
        }
        /* A whole fetch moves the output: its time ends at DONE, which its digest has proven. Judged
         * here against the empty calls before; again against those after, once they are made. */
        tc->outside = whole ? t_done : t_answer, tc->claimed = d.seconds, tc->whole = whole;
        tc->seconds = judged_time(tc->outside, d.seconds, whole ? empty->done : empty->answer,
                                  1e-6 * config_num_or(&g->run->cfg, "clock_slack_us", 20));
        tc->verified = whole;
        tc->disagreed = tc->seconds != d.seconds;
        tc->delayed = tc->seconds > DELAYED_BY * fmin(d.seconds, tc->outside);
        seg[SEG_CHECK] += now_s() - td;
    }
    if (!whole) free(vals);
    free(at);
    return io;
}

/* The timed calls of one run. Each call's varying input comes from a secret revealed only as it
 * starts. An output that is cheap to move (WHOLE_BYTES) is fetched whole after every call and
 * its digest checked; a larger one after about half the calls, chosen once each call has ended,
 * and at positions chosen then after the others. Only proven calls (fetched whole, digest
 * matching) are timed for the verdict: min_calls of them at least, after a warm-up call unless
 * the first call alone took a quarter of a second (no cache or page is cold for long).
 *
 * A call whose runner's time the grader could not believe (the scorer's time less an empty call's
 * round trip was longer by DELAYED_BY: judged_time) was either delayed on its way (a host that stole the CPU
 * the runner or the scorer needed for a few ms) or timed by a moved clock. It is timed at that
 * floor, and calls go on, up to twice min_calls and one proven, until min_calls have the runner's
 * own time and outnumber the delayed ones, so the median of every call is no longer a delayed one's.
 * Every call counts in the median, so a runner that under-claims its slow calls cannot leave them
 * out; each judged time is at least its floor, so a moved clock gains nothing. An honest one-block
 * scan on an H200 read 35% slow in a grading where 3 of 5 calls were delayed (runner 1.2 ms, the
 * scorer's times 5-7 ms: docs/BENCHMARKS.md). */
#define WHOLE_BYTES (16u << 20)
#define WARM_UP_UNDER_S 0.25 /* a first call this long is timed: its cold start is lost in it */
outcome run_timed(grader *g, int stage, lab_shape shape, stage_result *res)
{
    const lab_problem *pr = LAB.stages[stage].problem;
    outcome o = {.ok = 1, .reason = "ok"};
    bufset s;
    bufset_init(&s, pr, shape);
    int vary = g->same_inputs ? -1 : pr->vary, cheap = buf_bytes(&s.b[pr->out]) <= WHOLE_BYTES;
    unsigned run = g->timed_runs++, need = g->min_calls ? g->min_calls : 1, maxc = g->max_calls;
    if (maxc < 2 * need + 1) maxc = 2 * need + 1;
    unsigned calls = 0, proven = 0, disagreed = 0, believed = 0; /* proven, not delayed */
    int stale = 0; /* the varying input of the last call not written here (reference_seeded) */
    uint64_t last_secret = 0;
    unsigned char *guards = xmalloc(guards_bytes(pr));
    timed_call *tc = xcalloc(maxc, sizeof *tc);
    rng pick;
    rng_seed(&pick, case_seed(g->run->seed, stage, 3000 + (int)run, 0));
    uint64_t input_seed = case_seed(g->run->seed, stage, 1000 + (int)run, 0);
    bufset_fill(&s, input_seed); /* fresh for every run, retimes too */
    /* A stage on a device makes the same inputs there from the seed: gigabytes need not travel. */
    int seeded = LAB.stages[stage].on_device;
    job j = {.stage = (uint32_t)stage, .s = shape, .timed = 1, .vary = vary, .threads = g->case_threads,
             .seeded = (uint32_t)seeded, .digest_key = rng_next(&pick)};
    session_end(g); /* a fresh runner: no student code has run in it before the empty calls */
    /* Whole outputs of a MiB or more come through a window, not the channel (PROTO_WINDOW_FD) */
    g->window_bytes = buf_bytes(&s.b[pr->out]) >= (1u << 20) ? buf_bytes(&s.b[pr->out]) : 0;
    int io = case_begin(g, &j, seeded ? 0 : s.packed_bytes);
    g->window_bytes = 0;
    if (seeded) io = io ? io : runner_send(&g->proc, MSG_INPUT, &input_seed, sizeof input_seed);
    else io = io ? io : runner_send(&g->proc, MSG_INPUT, s.packed, s.packed_bytes);
    io = io ? io : runner_recv(&g->proc, MSG_READY, NULL, 0);
    phase("    timed: fill, send, runner's setup");
    round_trip empty = {0};
    io = io ? io : time_empty_calls(g, &s, cheap, &pick, &empty);
    res->empty_seconds = empty.done;
    memset(seg, 0, sizeof seg);
    double timed = 0;
    /* Long calls: two proven of 1.5 s together, or one of 2 s, are as steady as more (a neighbour
     * slows them all, and a stage short of its threshold is timed again). */
    double timed_believed = 0; /* ... of the believed calls: a delayed call is not a long one */
    while (io == 0 && o.ok && calls < maxc &&
           (proven < need || timed < g->min_time ||
            ((believed < need || 2 * believed <= proven) && proven < 2 * need + 1)) &&
           !(believed >= 2 && timed_believed >= 1.5) && !(believed >= 1 && timed_believed >= 2.0)) {
        uint64_t secret = case_seed(g->run->seed, stage, 2000 + (int)run, (int)calls);
        int whole = cheap || (rng_next(&pick) & 1) || (proven < need && maxc - calls <= need - proven);
        g->proc.deadline = now_s() + g->lim.timeout_s;
        if (seeded) io = warm_round_trip(g, &s, &pick);
        io = io ? io : one_timed_call(g, &s, shape, vary, calls, secret, whole, &pick, &empty, &tc[calls], &stale, &o);
        last_secret = secret;
        if (io == 0 && calls == 0 && tc[0].seconds < WARM_UP_UNDER_S) tc[0].verified = 0; /* the warm-up */
        if (io == 0 && tc[calls].verified)
            timed += tc[calls].seconds, proven++, disagreed += tc[calls].disagreed, believed += !tc[calls].delayed,
                timed_believed += tc[calls].delayed ? 0 : tc[calls].seconds;
        calls++;
    }
    /* The empty calls again, now that the student's code has run: it could only slow them, and the
     * lower of the two round trips is taken, so they can tighten the bound, never loosen it. One
     * measured before can be loose: on an H100, a runner's first empty calls after the device sat
     * idle took 0.69 ms where 0.41-0.50 ms was usual, and a plant that moves the runner's clock
     * passed lab 04's `vector_add` once at 81% (its work at 56%; docs/BENCHMARKS.md). */
    round_trip after = {0};
    if (io == 0 && time_empty_calls(g, &s, cheap, &pick, &after) == 0) {
        empty.done = fmin(empty.done, after.done);
        empty.answer = fmin(empty.answer, after.answer);
    }
    res->empty_seconds = empty.done;
    timed = 0, disagreed = 0;
    unsigned far_off = 0;
    for (unsigned c = 0; c < calls; c++) {
        if (!tc[c].outside) continue; /* no answer came */
        tc[c].seconds = judged_time(tc[c].outside, tc[c].claimed, tc[c].whole ? empty.done : empty.answer,
                                    1e-6 * config_num_or(&g->run->cfg, "clock_slack_us", 20));
        tc[c].disagreed = tc[c].seconds != tc[c].claimed;
        tc[c].delayed = tc[c].seconds > DELAYED_BY * fmin(tc[c].claimed, tc[c].outside);
        if (tc[c].verified) timed += tc[c].seconds, disagreed += tc[c].disagreed, far_off += tc[c].delayed;
        log_call(pr, shape, c, tc[c].whole, tc[c].outside, tc[c].claimed, tc[c].seconds,
                 tc[c].whole ? empty.done : empty.answer);
    }
    /* The CPUs the code kept busy while it was called: the kernel's count from GO to DONE, over that
     * time (the runner's digest of the output, one thread, is inside it). */
    double window = 0, cpu = 0, stolen = 0, waited = 0;
    for (unsigned c = 0; c < calls; c++) {
        window += tc[c].window;
        cpu = tc[c].cpu < 0 || cpu < 0 ? -1 : cpu + tc[c].cpu;
        stolen = tc[c].stolen < 0 || stolen < 0 ? -1 : stolen + tc[c].stolen;
        waited = tc[c].waited < 0 || waited < 0 ? -1 : waited + tc[c].waited;
    }
    res->cpus = cpu >= 0 && window > 0 ? cpu / window : -1;
    res->stolen = stolen >= 0 && window > 0 ? stolen / window : -1;
    res->waited = waited >= 0 && window > 0 ? waited / window : -1;
    phase("    timed: %u calls (stage %.2f, call %.2f, fetch %.2f, fill %.2f, digest %.2f, check %.2f)", calls,
          seg[SEG_STAGE], seg[SEG_CALL], seg[SEG_FETCH], seg[SEG_FILL], seg[SEG_DIGEST], seg[SEG_CHECK]);
    g->proc.deadline = deadline_after(g, seeded ? 0 : back_bytes(pr, shape));
    io = io ? io : runner_send(&g->proc, MSG_FINISH, NULL, 0);
    io = io ? io : runner_recv(&g->proc, MSG_GUARDS, guards, guards_bytes(pr));
    uint64_t dig[LAB_MAX_BUFS];
    if (stale) fill_buf(&s, vary, last_secret); /* the input the runner's digests, or its inputs back, are of */
    outcome changed = {.ok = 1, .reason = "ok"}; /* an input changed: said once the guards are checked */
    if (seeded) io = io ? io : runner_recv(&g->proc, MSG_INPUTS, dig, (size_t)pr->nbufs * sizeof *dig);
    else recv_inputs_back(&g->proc, &s, shape, &io, &changed);
    trace_msg *trace = LAB.traced ? xcalloc(1, sizeof *trace) : NULL;
    if (trace) io = io ? io : runner_recv(&g->proc, MSG_TRACE, trace, sizeof *trace);
    io = io ? io : runner_recv(&g->proc, MSG_CASE_DONE, NULL, 0);
    if (io != 0 || !o.ok) case_failed(g, s.p, shape, &o);
    if (o.ok && check_guards(&s, shape, guards, &o) == 0) /* vary: the last call's */
    {
        if (seeded) check_input_digests(&s, shape, dig, j.digest_key, &o);
        else if (!changed.ok) o = changed;
    }
    if (o.ok && proven == 0) fail(&o, "channel", "no timed call could be proven (the runner stopped answering)");
    phase("    timed: finish, inputs back and checked");
    if (o.ok) {
        double *t = xmalloc(maxc * sizeof *t);
        unsigned n = 0;
        for (unsigned c = 0; c < calls; c++)
            if (tc[c].verified) t[n++] = tc[c].seconds;
        res->seconds = median(t, n);
        res->best_seconds = t[0];
        for (unsigned c = 1; c < n; c++) res->best_seconds = fmin(res->best_seconds, t[c]);
        res->timed = 1;
        res->timed_shape = shape;
        res->calls = calls;
        res->proven = proven;
        res->disagreed = disagreed;
        res->far_off = (int)far_off;
        free(t);
        if (trace && !res->trace && trace->count >= 0 && trace->count <= TRACE_MAX) {
            res->ntrace = trace->count;
            res->trace = xmalloc(((size_t)trace->count + 1) * sizeof *res->trace);
            memcpy(res->trace, trace->ev, (size_t)trace->count * sizeof *res->trace);
        }
    }
    bufset_free(&s);
    free(tc);
    free(guards);
    free(trace);
    return o;
}

/* ---------------------------------------------------------------- is the work shared? (threaded labs) */

/* The runner's threads, by their ids here: the main thread (the one that calls the student's
 * function, and OpenMP's thread 0) first. Returns how many, at most max. */
static int runner_tasks(pid_t pid, pid_t *tid, int max)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *d = opendir(path);
    int n = 0;
    if (max > 0) tid[n++] = pid;
    for (struct dirent *e; d && (e = readdir(d)) && n < max;) {
        pid_t t = (pid_t)atoi(e->d_name);
        if (t > 0 && t != pid) tid[n++] = t;
    }
    if (d) closedir(d);
    return n;
}

/* Of the CPUs this process may use, the one most idle over a 50 ms look at /proc/stat (a neighbour
 * on a shared machine holds some CPU): where the probe runs every thread. -1 if none is known. */
static int idlest_cpu(void)
{
    cpu_set_t mine;
    if (sched_getaffinity(0, sizeof mine, &mine)) return -1;
    enum { MAX_CPUS = 1024 };
    static unsigned long long idle0[MAX_CPUS];
    int best = -1;
    for (int look = 0; look < 2; look++) {
        if (look) usleep(50000);
        char *text = read_text("/proc/stat", 1 << 20);
        double most = -1;
        for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : "") {
            int cpu;
            unsigned long long user, nice, sys, idle;
            if (sscanf(l, "cpu%d %llu %llu %llu %llu", &cpu, &user, &nice, &sys, &idle) != 5 || cpu < 0 ||
                cpu >= MAX_CPUS || !CPU_ISSET(cpu, &mine))
                continue;
            if (!look) idle0[cpu] = idle;
            else if ((double)(idle - idle0[cpu]) > most) most = (double)(idle - idle0[cpu]), best = cpu;
        }
        free(text);
    }
    return best;
}

/* The values of the last call at `want` positions picked now, fetched and checked against the
 * reference; 0 when the answer came (a wrong value is in *o). */
static int check_sampled(grader *g, bufset *s, lab_shape shape, rng *pick, unsigned call, const char *when, outcome *o)
{
    const lab_buf *ob = &s->b[s->p->out];
    size_t esz = elem_bytes(ob->type), count;
    uint64_t *at = pick_positions(pick, ob, SAMPLES_PER_CALL, &count);
    unsigned char *vals = xmalloc(count * esz + 1);
    int io = fetch(&g->proc, 0, at, count, vals, buf_bytes(ob), esz);
    if (io == 0) {
        reference_at(g, s, shape, at, count);
        check_values(s, shape, vals, at, count, poison_value(call), when, o);
    }
    free(at);
    free(vals);
    return io;
}

starved_run run_starved(grader *g, int stage, lab_shape shape, int starve_main, double limit_s)
{
    const lab_problem *pr = LAB.stages[stage].problem;
    starved_run out = {.cpu = -1, .checked = {.ok = 1, .reason = "ok"}};
    bufset s;
    bufset_init(&s, pr, shape);
    unsigned run = g->timed_runs++;
    rng pick;
    rng_seed(&pick, case_seed(g->run->seed, stage, 5000 + (int)run, 0));
    bufset_fill(&s, case_seed(g->run->seed, stage, 4000 + (int)run, 0));
    job j = {.stage = (uint32_t)stage, .s = shape, .timed = 1, .vary = -1, .digest_key = rng_next(&pick)};
    session_end(g);
    g->lim.passive_wait = 1; /* an honest thread done with its share sleeps, and leaves the CPU to the rest */
    int io = case_begin(g, &j, s.packed_bytes);
    g->lim.passive_wait = 0;
    io = io ? io : runner_send(&g->proc, MSG_INPUT, s.packed, s.packed_bytes);
    io = io ? io : runner_recv(&g->proc, MSG_READY, NULL, 0);
    done_msg d;
    /* a call as every timed call is made (OpenMP's threads started), then the one on one CPU */
    seed_msg m = {.key = rng_next(&pick)};
    io = io || runner_send(&g->proc, MSG_SEED, &m, sizeof m) || runner_recv(&g->proc, MSG_STAGED, NULL, 0) ||
         runner_send(&g->proc, MSG_GO, NULL, 0) || runner_recv(&g->proc, MSG_DONE, &d, sizeof d) ||
         check_sampled(g, &s, shape, &pick, 0, " (the probe of shared work, its first call)", &out.checked);
    io = io || !out.checked.ok || runner_send(&g->proc, MSG_SEED, &m, sizeof m) ||
         runner_recv(&g->proc, MSG_STAGED, NULL, 0);
    pid_t tid[256];
    int n = io ? 0 : runner_tasks(g->proc.pid, tid, 256), cpu = idlest_cpu(), set = n >= 2 && cpu >= 0;
    cpu_set_t one;
    CPU_ZERO(&one);
    if (cpu >= 0) CPU_SET(cpu, &one);
    /* every thread on one CPU; the starved ones SCHED_IDLE, which any other thread there preempts at
     * once. (At nice 19 instead, a starved thread ran a whole slice each time it woke, and in a CI run
     * finished a 5 ms call of fast_beside's within 4 timed calls' CPU time: a pass.) */
    struct sched_param least = {0};
    for (int t = 0; t < n && set; t++)
        set = !sched_setaffinity(tid[t], sizeof one, &one) &&
              ((t == 0) != starve_main || !sched_setscheduler(tid[t], SCHED_IDLE, &least));
    if (set) {
        double cpu0, cpu1, waited;
        runner_sched_seconds(&g->proc, &cpu0, &waited);
        double t0 = now_s();
        g->proc.deadline = t0 + limit_s;
        int sent = runner_send(&g->proc, MSG_GO, NULL, 0) == 0;
        out.finished = sent && runner_recv(&g->proc, MSG_DONE, &d, sizeof d) == 0;
        out.wall = now_s() - t0;
        runner_sched_seconds(&g->proc, &cpu1, &waited);
        out.threads = n;
        out.cpu = sent && cpu0 >= 0 && cpu1 >= 0 ? cpu1 - cpu0 : -1;
        /* a call that noticed it was starved must still give the right answer */
        if (out.finished) {
            g->proc.deadline = deadline_after(g, s.packed_bytes);
            check_sampled(g, &s, shape, &pick, 1, " (the probe of shared work: every thread on one CPU)", &out.checked);
        }
    }
    bufset_free(&s);
    session_end(g); /* its threads stay starved: no later case may use this runner */
    return out;
}
