/* judge.c - see judge.h: one stage graded, from its cases to its verdict. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "calib.h"
#include "cases.h"
#include "checks.h"
#include "judge.h"
#include "problems.h"
#include "proto.h"
#include "stats.h"
#include "tool.h"
#include "util.h"
#include "verify.h"

/* ---------------------------------------------------------------- one stage */

/* The sizes of a problem this run: drawn from the seed and the problem's name, so every stage
 * of one problem sees the same sizes and a replay sees them again. */
int problem_cases(const lab_run *r, const lab_problem *p, lab_case *out)
{
    rng sizes;
    rng_seed(&sizes, r->seed ^ fnv1a(p->name, strlen(p->name), 0));
    return p->cases(&sizes, r->mach.llc_bytes, out);
}

static double intensity(const lab_problem *p, lab_shape s) { return p->flops(s) / p->bytes(s); }

/* The vendor library at shape s, measured once per shape in this run: OpenBLAS dgemm with the
 * lab's threads, or on a GPU the problem's cuBLAS routine (already timed if it was the reference). */
/* The library's rate at shape s, measured now, with no runner alive: nothing of the student's
 * (a thread or a kernel left running after its calls returned) shares the machine with it. */
static double blas_measure(grader *g, const lab_problem *p, lab_shape s)
{
    lab_run *r = g->run;
    session_end(g);
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
    return gf;
}

double blas_ceiling(grader *g, const lab_problem *p, lab_shape s)
{
    lab_run *r = g->run;
    for (int i = 0; i < r->nblas; i++)
        if (!memcmp(&r->blas[i].s, &s, sizeof s)) return r->blas[i].gflops;
    double gf = blas_measure(g, p, s);
    remember_blas(r, s, gf);
    return gf;
}

/* The library at shape s measured a second time (once a run), the faster of the two kept for every
 * stage judged at s from now on. */
static double blas_ceiling_again(grader *g, const lab_problem *p, lab_shape s)
{
    lab_run *r = g->run;
    double first = blas_ceiling(g, p, s);
    for (int i = 0; i < r->nblas; i++)
        if (!memcmp(&r->blas[i].s, &s, sizeof s)) {
            if (!r->blas[i].again) r->blas[i].gflops = fmax(first, blas_measure(g, p, s)), r->blas[i].again = 1;
            return r->blas[i].gflops;
        }
    return first;
}

/* Data that starts and ends in host memory: the probe times copy in, its own kernel and copy out
 * at n (a matvec pipeline: at m x n). Their maximum is the ideal overlapped time. Measured with no
 * runner alive, as the library is: a copy the student's process left running would slow the
 * probe's and flatter the stage. */
static pipeline_times pipeline_measure(grader *g, const lab_problem *p, lab_shape s)
{
    lab_run *r = g->run;
    session_end(g);
    char probe[1024];
    snprintf(probe, sizeof probe, "%s/common/gpu-probe", r->build_dir);
    pipeline_times t;
    if (p->matvec_pipeline ? gpu_pipeline_matvec(probe, g->scratch, s.m, s.n, &t)
                           : gpu_pipeline(probe, g->scratch, s.n, p->poly_degree, &t))
        die("could not measure the copy and kernel times with %s (see %s/pipeline-probe.txt)", probe, g->scratch);
    return t;
}

/* The probe's times at shape s in this run: measured once, or (again) a second time, once a run,
 * each part's faster time kept from then on. */
static pipeline_times pipeline_at(grader *g, const lab_problem *p, lab_shape s, int again)
{
    lab_run *r = g->run;
    int m = p->matvec_pipeline ? s.m : 0; /* poly's m is its stream count, which the probe doesn't use */
    for (int i = 0; i < r->npipe; i++) {
        if (r->pipe[i].n != s.n || r->pipe[i].m != m) continue;
        pipeline_times *t = &r->pipe[i].t;
        if (again && !r->pipe[i].again) {
            pipeline_times u = pipeline_measure(g, p, s);
            pipeline_keep_faster(t, &u);
            r->pipe[i].again = 1;
        }
        return *t;
    }
    pipeline_times t = pipeline_measure(g, p, s);
    if (r->npipe < (int)(sizeof r->pipe / sizeof r->pipe[0]))
        r->pipe[r->npipe].m = m, r->pipe[r->npipe].n = s.n, r->pipe[r->npipe].again = 0, r->pipe[r->npipe++].t = t;
    return t;
}

pipeline_times pipeline_ceiling(grader *g, const lab_problem *p, lab_shape s) { return pipeline_at(g, p, s, 0); }

double over_chain(const config *cfg, int stage)
{
    char key[80];
    snprintf(key, sizeof key, "%s_over_chain", LAB.stages[stage].name);
    return LAB.stages[stage].chains > 1 && LAB.stages[stage].chain > 0 ? config_num_or(cfg, key, 0) : 0;
}

/* Rate, ceiling, verdict and points of a timed stage. */
static void judge_speed(grader *g, int stage, stage_result *res, outcome *o)
{
    const lab_problem *p = LAB.stages[stage].problem;
    const config *cfg = &g->run->cfg;
    lab_shape s = res->timed_shape;
    res->gflops = p->flops(s) / res->seconds * 1e-9;
    res->gbs = p->bytes(s) / res->seconds * 1e-9;
    int blas = p->ceiling == CEIL_BLAS, pipe = p->ceiling == CEIL_PIPELINE;
    const lab_stage *st = &LAB.stages[stage];
    double threshold = config_num(cfg, st->name);
    /* What is measured (here, or cached for the run: judge.c's part), then decided (verdict.c). */
    if (pipe) res->pipe = pipeline_ceiling(g, p, s);
    double roof = pipe ? p->flops(s) / pipeline_ideal(&res->pipe) * 1e-9
                  : blas ? blas_ceiling(g, p, s) : g->run->now.stream_gbs * intensity(p, s);
    double fp32 = !pipe && p->fp32_capped ? g->run->fp32_gflops : 0, chain = st->chain * g->run->now.chain_gadds;
    speed_ceiling(res, roof, fp32, st->chains <= 1 ? chain : 0);
    double margin = config_num(cfg, "impossible_margin");
    if (blas && worth_measuring_library_again(res->gflops / res->ceiling_gflops, threshold, LAB.gpu))
        speed_ceiling(res, blas_ceiling_again(g, p, s), fp32, st->chains <= 1 ? chain : 0);
    /* A library measured while something else held a core reads low (OpenBLAS at 2 threads in a
     * make check, 2026-11-28: lab 03's reference `blocked` at 81 GFLOP/s against 54 x 1.25 measured,
     * where 119 is usual): measured once more, no runner alive, before anything is called impossible. */
    if (blas && res->gflops > impossible_above(margin, res->ceiling_gflops)) {
        session_end(g);
        speed_ceiling(res, blas_ceiling_again(g, p, s), fp32, st->chains <= 1 ? chain : 0);
    }
    /* The same for the copies (lab 05 on an H200 beside three busy GPUs, 2026-11-28: one grading
     * in twenty read the probe's copy of A 1.6 times slow, and a copy slowed to 0.9x passed). */
    if (pipe && worth_measuring_library_again(res->gflops / res->ceiling_gflops, threshold, LAB.gpu)) {
        res->pipe = pipeline_at(g, p, s, 1);
        speed_ceiling(res, p->flops(s) / pipeline_ideal(&res->pipe) * 1e-9, fp32, st->chains <= 1 ? chain : 0);
    }
    /* a stage that breaks the chain: where memory is far above what one chain uses, this many times
     * one chain's rate is enough */
    double over = chain > 0 ? over_chain(cfg, stage) : 0;
    res->required = required_fraction(threshold, over, chain, res->ceiling_gflops);
    res->fraction = res->gflops / res->ceiling_gflops;
    /* The fastest this machine has been seen to stream, in this run or at calibration: a busy
     * moment during this run's measurement must not make honest code look impossible. */
    const lab_run *r = g->run;
    double stream = fmax(fmax(r->now.read_gbs, r->now.stream_gbs), fmax(r->cached.read_gbs, r->cached.stream_gbs));
    /* a pipeline's bound: its ideal with the fastest kernel the probe has (a student's kernel of
     * several elements a thread beats the plain one the ideal is judged with) */
    double bound = pipe ? p->flops(s) / pipeline_fastest(&res->pipe) * 1e-9 : blas ? res->ceiling_gflops : stream * intensity(p, s);
    double limit = impossible_above(margin, bound);
    if (res->gflops > limit && !pipe && !blas && !LAB.gpu) {
        /* a neighbour busy at calibration and again at this run's measurement reads the roof low
         * both times: measured once more (no runner running) before anything is called impossible */
        session_end(g);
        bandwidth again = measure_bandwidth(r->threads, 4 * r->mach.llc_bytes, ROOF_SECONDS);
        stream = fmax(stream, fmax(again.read_gbs, again.stream_gbs));
        limit = impossible_above(margin, stream * intensity(p, s));
    }
    if (res->gflops > limit) {
        fail(o, "impossible", "%.2f GFLOP/s is more than this machine can do (%.2f: the ceiling times the "
                              "margin in thresholds.conf): the timing is not trustworthy", res->gflops, limit);
        return;
    }
    speed_points(res, config_num(cfg, "partial_from"));
    if (!res->fast_enough)
        fail(o, "too-slow", "%.2f GFLOP/s is %.*f%% of the ceiling%s; this stage needs %.*f%% (%.2f GFLOP/s)%s", res->gflops,
             percent_decimals(res->required, res->fraction), 100 * res->fraction,
             res->chain_bound  ? " (here the rate of one chain of dependent adds, below the memory roof)"
             : res->fp32_bound ? " (here the FP32 peak measured in this run, below the memory roof)"
                               : "",
             percent_decimals(res->required, res->required), 100 * res->required, res->required * res->ceiling_gflops,
             res->disagreed ? " (the runner's own clock disagreed with the grader's on some calls: the grader's "
                              "times were used)" : "");
    /* thresholds.conf's `<stage>_slow_hint`: the trap the handout names for the stage's technique, said
     * under a stage too slow (lab 03's matmul: the blog's i-j-k inside the collapse) */
    char key[96];
    snprintf(key, sizeof key, "%s_slow_hint", LAB.stages[stage].name);
    const char *hint = config_str(cfg, key);
    if (!res->fast_enough && hint && *hint) {
        size_t used = strlen(o->detail);
        snprintf(o->detail + used, sizeof o->detail - used, ". A common cause here: %s", hint);
    }
}

/* thresholds.conf's overlap_<stage> = 1: the traced call (one more after the timed ones) must show
 * a kernel running while a copy in was under way on another stream; without, no speed points. */
static void judge_overlap(grader *g, int stage, stage_result *res, outcome *o)
{
    char key[80];
    snprintf(key, sizeof key, "overlap_%s", LAB.stages[stage].name);
    if (!o->ok || config_num_or(&g->run->cfg, key, 0) <= 0 || kernels_under_copies(res->trace, res->ntrace) > 0) return;
    res->fast_enough = 0, res->points_speed = 0;
    fail(o, "technique", "no pipeline: in the traced call (one more call after the timed ones, %d operations) no "
         "kernel ran while a copy to the device was under way on another stream, so the copies and kernels went one "
         "after another. Queue the chunks on several streams, each chunk's copy in, kernel and copy out on its "
         "stream, so that one chunk's kernel runs while the next chunk is copied in", res->ntrace);
}

/* Threaded labs: is the work shared? The CPU count (threads_worked) shows threads busy, not busy
 * with the call's work: one thread doing all of it while the rest spin beside it keeps every CPU
 * busy, and on a machine whose cores are shared no speed figure tells it from parallel code (lab 03's
 * busy_beside read 0.81-1.34x the baseline where honest code read 1.12-1.82x, and once 1.35x in CI,
 * 2026-11-28). So a stage that earned its speed points is called once more in a runner of its own
 * with every thread on one CPU and the main thread (then every other) given it only when the rest
 * leave it idle (run_starved): shared work sleeps when its share is done, and the call costs about
 * the CPU time of one timed call; threads that spin beside the one doing everything take the CPU
 * from it, and burn it until the call ends or the probe's limit. thresholds.conf: `shared_max_cpu`,
 * the most a probe's CPU time may be over a timed call's (0 or absent: no probe), and
 * `shared_limit_calls`, the probe's wall limit in timed calls' CPU time. */
#define SHARED_LIMIT_FLOOR_S 0.5 /* the probe's wall limit at least (thresholds.conf: shared_limit_calls) */
static void judge_shared(grader *g, int stage, lab_shape shape, stage_result *res, outcome *o)
{
    int threads = g->run->threads;
    if (!o->ok || !res->fast_enough || threads < 2 || res->speedup_required <= 0 || res->cpus <= 0 || LAB.gpu)
        return;
    double most = config_num_or(&g->run->cfg, "shared_max_cpu", 0);
    if (most <= 0) return;
    double call_cpu = res->cpus * res->seconds,
           limit = fmax(SHARED_LIMIT_FLOOR_S, config_num_or(&g->run->cfg, "shared_limit_calls", 4 * most) * call_cpu);
    for (int starve_main = 1; starve_main >= 0; starve_main--) {
        starved_run sr = run_starved(g, stage, shape, starve_main, limit);
        phase("  %s: shared work, %s starved: %.3f CPU s in %.3f s (%s; a timed call %.3f CPU s)",
              LAB.stages[stage].name, starve_main ? "thread 0" : "the others", sr.cpu, sr.wall,
              sr.finished ? "done" : "cut off", call_cpu);
        res->shared_cpu = fmax(res->shared_cpu, sr.cpu / call_cpu);
        if (!sr.checked.ok) { /* the call that noticed it was probed gave another answer: wrong */
            *o = sr.checked;
            res->correct = 0, res->points_correct = 0, res->points_speed = 0, res->fast_enough = 0;
            return;
        }
        if (sr.cpu < 0 || sr.cpu <= most * call_cpu) continue;
        res->fast_enough = 0, res->points_speed = 0;
        fail(o, "technique", "the work is not shared: called once more with every thread on one CPU and %s given it "
             "only when the others left it idle, the call used %.2f CPU seconds %s, where a timed call used %.2f "
             "(%.1fx): threads kept the CPU busy without doing the call's work (spinning, or repeating work) while "
             "%s did it. Busy threads are not a speedup: give each thread a share of the work (a `#pragma omp for` "
             "over rows, say), and let a thread with no work left wait at the loop's end", starve_main ? "thread 0" :
             "every thread but thread 0", sr.cpu, sr.finished ? "before it ended" : "and had not ended when cut off",
             call_cpu, sr.cpu / call_cpu, starve_main ? "thread 0" : "other threads");
        return;
    }
}

/* Time lost (the host's steal, or waiting for a CPU) over the least disturbed of two timed runs (-1:
 * unknown in either). */
static double least_lost(double a, double b) { return a < 0 || b < 0 ? -1 : fmin(a, b); }

/* The stage timed once more on the same shape, every call checked as the first run's were; its
 * fastest median and fastest call kept, and its speed judged again. Returns 0 with the verdict in
 * *o where this run was wrong or caught (that is the verdict then). */
static int time_again(grader *g, int stage, lab_shape shape, stage_result *res, outcome *o)
{
    stage_result again = {0};
    outcome o2 = run_timed(g, stage, shape, &again);
    free(again.trace);
    if (!o2.ok) {
        *o = o2;
        res->correct = 0, res->points_correct = 0, res->points_speed = 0, res->fast_enough = 0;
        return 0;
    }
    res->seconds = fmin(res->seconds, again.seconds);
    res->best_seconds = fmin(res->best_seconds, again.best_seconds);
    res->cpus = fmax(res->cpus, again.cpus);
    res->stolen = least_lost(res->stolen, again.stolen);
    res->waited = least_lost(res->waited, again.waited);
    *o = (outcome){.ok = 1, .reason = "ok"};
    judge_speed(g, stage, res, o);
    return 1;
}

/* A shared machine only ever slows a call down, and a neighbour busy through one whole timed run
 * slows its median. So a stage short of its threshold is timed again, twice at most, and judged on
 * its fastest median; every call of every run is checked as the first run's were. One far short on a
 * CPU machine that took no time from it is not (worth_timing_again); a GPU, whose other users no count
 * here shows, always is. */
static void retime_if_short(grader *g, int stage, lab_shape shape, stage_result *res, outcome *o)
{
    for (int attempt = 0; attempt < 2 && !o->ok && !strcmp(o->reason, "too-slow") &&
                                    (LAB.gpu || worth_timing_again(res)); attempt++) {
        if (!time_again(g, stage, shape, res, o)) return;
        if (!o->ok && attempt == 1) {
            size_t used = strlen(o->detail);
            snprintf(o->detail + used, sizeof o->detail - used, " (timed three times: the fastest median)");
        }
    }
}

void stage_points(const config *cfg, int stage, stage_result *res)
{
    res->required = config_num(cfg, LAB.stages[stage].name);
    res->max_correct = config_num(cfg, "points_correct");
    res->max_speed = config_num(cfg, "points_speed");
}

/* A speedup this machine's memory can't show (its bandwidth at the lab's threads `scale` times one
 * thread's, short of the stage's requirement), from code whose threads worked (threads_worked; code
 * whose threads did not is a failure, judge_speedup_by_roof): not judged, and no speed credit. */
static void unjudged(outcome *o, stage_result *res, int threads, double scale)
{
    res->parallel_seen = 1;
    /* Fewer bytes a second at more threads than at one: no machine is built so, a neighbour holding
     * a core is (a `make check` beside another, 2026-11-27: 0.84x): busy, not this machine's limit. */
    res->busy = scale < 1;
    if (res->busy) {
        fail(o, "not-judged", "not judged: the machine was busy: its memory bandwidth at %d threads read %.2fx one "
             "thread's (measured three times), less with more threads, which a neighbour at work on a core explains; "
             "this stage must show %.2fx. Grade again when the machine is quieter", threads, scale,
             res->speedup_required);
        return;
    }
    fail(o, "not-judged", "the speedup can't be judged on this machine now: its memory bandwidth at %d threads is "
         "%.2fx one thread's (measured three times), and this stage must show %.2fx, which code bound by memory "
         "can't show here. Your code did run on the threads (they kept %.1f CPUs busy or waited, ready, for them "
         "while it was called, by the kernel's count), so this is not a failure; but it earns no speed credit. Grade "
         "again on a quieter machine, or one whose memory bandwidth grows with cores",
         threads, scale, res->speedup_required, cpus_wanted(res));
}

/* Threaded labs, a bandwidth-bound stage: its rate at the lab's thread count against the fastest
 * any one thread streams memory here, measured in this run (the serial roof: triad or a plain
 * read at one thread, times the intensity). No serial code beats that roof, and nothing the code
 * does at one thread enters the verdict, so slowing a one-thread run can't fake a speedup.
 * Where this machine's bandwidth does not grow with threads as much as the stage must show, the
 * check can't be passed by anyone and is not judged (said in the detail). Returns 1 if it was
 * judged this way. */
static int judge_speedup_by_roof(grader *g, int stage, lab_shape shape, stage_result *res, outcome *o)
{
    lab_run *r = g->run;
    const lab_problem *p = LAB.stages[stage].problem;
    if (p->ceiling != CEIL_STREAM) return 0;
    /* A neighbour busy while the roofs were measured hides the scaling: measured again, twice at most. */
    for (int again = 0; again < 2 && fmax(r->now.stream_gbs, r->now.read_gbs) <
                                         res->speedup_required * 1.05 * fmax(r->now1.stream_gbs, r->now1.read_gbs); again++) {
        r->now = measure_bandwidth(r->threads, 4 * r->mach.llc_bytes, ROOF_SECONDS);
        r->now1 = measure_bandwidth(1, 4 * r->mach.llc_bytes, ROOF_SECONDS);
    }
    double roof1 = fmax(r->now1.stream_gbs, r->now1.read_gbs) * intensity(p, res->timed_shape);
    double scale = fmax(r->now.stream_gbs, r->now.read_gbs) / fmax(r->now1.stream_gbs, r->now1.read_gbs);
    res->speedup = res->gflops / roof1;
    /* Its threads must have worked: on a machine whose bandwidth grows little with cores the roof
     * alone can't tell serial code from parallel (docs/BENCHMARKS.md, 2026-11-26). Serial code is
     * condemned by that count before anything else: before a roof that does not scale leaves the
     * speedup unjudged, and before a busy machine excuses a shortfall (judge_busy), since no neighbour
     * lowers the count (it turns CPU time into waits, counted with it). */
    int parallel = res->cpus < 0 || threads_worked(res, r->threads);
    /* A neighbour busy while the stage was timed (and quiet for the roofs) hides its speedup: a
     * stage that falls short is timed again, twice at most, and judged on its fastest median. */
    for (int again = 0; again < 2 && o->ok && parallel && scale >= res->speedup_required * 1.05 &&
                        res->speedup < res->speedup_required; again++) {
        if (!time_again(g, stage, shape, res, o)) return 1;
        res->speedup = res->gflops / roof1;
    }
    /* Serial code that is also too slow is told the cause, one thread, not only the symptom: which of
     * the two a serial loop meets first depends on the run's roof (lab 03's sandbagged plant in a
     * `make check`, 2026-11-26: dot at 38% of the ceiling against 40%, 0.99 CPUs busy). */
    int serial_too_slow = !o->ok && !parallel && !strcmp(o->reason, "too-slow");
    if (scale < res->speedup_required * 1.05 && (parallel || (!o->ok && !serial_too_slow))) {
        res->speedup_unjudged = 1;
        res->fast_enough = 0;
        res->points_speed = 0;
        if (o->ok) unjudged(o, res, r->threads, scale);
        return 1;
    }
    if ((res->speedup >= res->speedup_required && parallel) || (!o->ok && !serial_too_slow)) return 1;
    res->fast_enough = 0;
    res->points_speed = 0;
    if (!parallel)
        fail(o, "no-speedup", "%.2f GFLOP/s at %d threads (%.2fx the one-thread roof), but your code kept only %.1f "
             "CPUs busy while it was called (the kernel's count, waits for a CPU included): the work ran on one "
             "thread. This stage must run on all %d", res->gflops, r->threads, res->speedup, cpus_wanted(res),
             r->threads);
    else
        fail(o, "no-speedup", "%.2f GFLOP/s at %d threads is %.2fx the one-thread roof (%.2f GFLOP/s: the fastest one "
             "thread streams memory here, this run, times the intensity); this stage needs %.2fx: it must be faster "
             "than any serial code can be (timed three times: the fastest median)", res->gflops, r->threads,
             res->speedup, roof1, res->speedup_required);
    return 1;
}

/* The library's own speedup now, at shape s: OpenBLAS dgemm at the lab's threads over one thread,
 * the better of two tries, measured with the stage's runner ended. A VM whose second core is busy
 * with a neighbour (or is the first one's hyperthread) slows the library as much as anyone's code,
 * and the bandwidth check (judge_busy) does not see it. */
static double blas_speedup_now(grader *g, lab_shape s)
{
    char probe[1024], note[256];
    snprintf(probe, sizeof probe, "%s/common/blas-probe", g->run->build_dir);
    session_end(g);
    double best = 0;
    for (int attempt = 0; attempt < 2; attempt++) {
        double one = blas_dgemm_gflops(probe, g->scratch, s.m, s.n, s.k, 1, note, sizeof note);
        double all = blas_dgemm_gflops(probe, g->scratch, s.m, s.n, s.k, g->run->threads, note, sizeof note);
        if (one > 0 && all > 0) best = fmax(best, all / one);
    }
    return best;
}

/* ---------------------------------------------------------------- the one-thread baseline (measuring) */

/* A compute-bound stage's one-thread baseline at shape s: the lab's baseline program (thresholds.conf:
 * `baseline`, a file in the lab's folder; lab 03's is i-k-j), built once a run with the lab's
 * compiler and flags into the scratch folder, and run there with one OpenMP thread, with the
 * stage's runner ended: nothing of the student's runs while it is timed, so no submission can
 * lower it. Its rate is over the CPU time of its fastest call (the kernel's count), which a
 * neighbour taking turns on its core does not lower (one busy with the caches or memory still
 * does): measured once per shape in this run, and again where `again` (the fastest of all kept). */
static double baseline_gflops(grader *g, lab_shape s, int again)
{
    static struct { lab_shape s; double gflops; } seen[8];
    static int nseen, built; /* built: 0 not yet, 1 built, -1 failed */
    int at = -1;
    for (int i = 0; i < nseen; i++)
        if (!memcmp(&seen[i].s, &s, sizeof s)) at = i;
    if (at >= 0 && !again) return seen[at].gflops;
    const config *cfg = &g->run->cfg;
    const char *file = config_str(cfg, "baseline"), *slash = strrchr(cfg->path, '/');
    const char *compiler = config_str(cfg, "compiler"), *flags = config_str(cfg, "cflags");
    if (!file) die("%s: no `baseline` program for the compute-bound stages' speedup", cfg->path);
    char src[1200], exe[1200], log[1200], words[2048];
    snprintf(src, sizeof src, "%.*s/%s", slash ? (int)(slash - cfg->path) : 1, slash ? cfg->path : ".", file);
    snprintf(exe, sizeof exe, "%s/baseline", g->scratch);
    snprintf(log, sizeof log, "%s/baseline.txt", g->scratch);
    session_end(g);
    if (!built) { /* the compiler, the lab's flags word by word, then the program */
        char *argv[80], *save = NULL;
        int w = 0;
        snprintf(words, sizeof words, "%s", flags ? flags : "-O2");
        argv[w++] = (char *)(compiler ? compiler : "gcc");
        for (char *t = strtok_r(words, " \t", &save); t && w < 72; t = strtok_r(NULL, " \t", &save)) argv[w++] = t;
        argv[w++] = "-o", argv[w++] = exe, argv[w++] = src, argv[w++] = "-lm", argv[w] = NULL;
        built = run_tool(argv, log, 120) == 0 ? 1 : -1;
    }
    if (built < 0) die("could not build the one-thread baseline %s (see %s)", src, log);
    char m[16], n[16], k[16], err[256];
    snprintf(m, sizeof m, "%d", s.m), snprintf(n, sizeof n, "%d", s.n), snprintf(k, sizeof k, "%d", s.k);
    char *argv[] = {"env", "OMP_NUM_THREADS=1", exe, m, n, k, NULL};
    config out = {0};
    char *text = run_tool(argv, log, 120) == 0 ? read_text(log, 1 << 16) : NULL;
    double gf = text && config_parse(&out, text, err, sizeof err) == 0 ? config_num_or(&out, "gflops", 0) : 0;
    free(text);
    config_free(&out);
    if (gf <= 0) die("could not time the one-thread baseline %s (see %s)", exe, log);
    if (at >= 0) return seen[at].gflops = fmax(seen[at].gflops, gf);
    if (nseen < (int)(sizeof seen / sizeof seen[0])) seen[nseen].s = s, seen[nseen++].gflops = gf;
    return gf;
}

/* ---------------------------------------------------------------- the speedup of a compute-bound stage (rules) */

/* Threaded labs, a compute-bound stage: its rate at the lab's thread count over the one-thread
 * baseline the grader times itself in this run (baseline_gflops), which must reach
 * `<stage>_speedup` from thresholds.conf, and its threads must have worked (threads_worked). The
 * code's own one-thread run is never timed: nothing it does at one thread enters the verdict. A
 * stage that falls short is timed again, twice at most, and judged on its fastest median; then
 * speedup_verdict says what the figures show. */
static void judge_speedup(grader *g, int stage, lab_shape shape, stage_result *res, outcome *o)
{
    char key[96];
    snprintf(key, sizeof key, "%s_speedup", LAB.stages[stage].name);
    res->speedup_required = config_num_or(&g->run->cfg, key, 0);
    int threads = g->run->threads;
    if (res->speedup_required <= 0 || threads < 2) return;
    if (judge_speedup_by_roof(g, stage, shape, res, o)) return;
    if (!o->ok && strcmp(o->reason, "too-slow")) return;
    double base = baseline_gflops(g, shape, 0);
    res->speedup = res->gflops / base;
    for (int again = 0; again < 2 && o->ok && res->speedup < res->speedup_required &&
                        speedup_verdict(res, threads, -1) != SPEEDUP_SERIAL; again++) {
        if (!time_again(g, stage, shape, res, o)) return;
        res->speedup = res->gflops / base;
    }
    /* A baseline read low (a neighbour on the caches) would flatter the code: a pass near the
     * requirement is confirmed against the baseline measured again, the faster of the two kept. */
    if (res->speedup >= res->speedup_required && res->speedup < CONFIRM_SPEEDUP_WITHIN * res->speedup_required) {
        base = baseline_gflops(g, shape, 1);
        res->speedup = res->gflops / base;
    }
    double lib = speedup_needs_library(res, threads) ? blas_speedup_now(g, shape) : -1;
    int verdict = speedup_verdict(res, threads, lib);
    if (verdict == SPEEDUP_OK || (!o->ok && verdict != SPEEDUP_SERIAL)) return; /* too slow: judge_busy's */
    res->fast_enough = 0;
    res->points_speed = 0;
    double back = (res->cpus + lost_cpus(res)) / fmax(res->cpus, 1e-9);
    char rate[400];
    snprintf(rate, sizeof rate, "%.2f GFLOP/s at %d threads is %.2fx the one-thread baseline (%.2f GFLOP/s: plain "
             "i-k-j code on one thread, timed by the grader in this run); this stage needs %.2fx", res->gflops,
             threads, res->speedup, base, res->speedup_required);
    switch (verdict) {
    case SPEEDUP_SERIAL: /* the cause, even where the symptom was a rate too slow */
        fail(o, "no-speedup", "%s. Your code kept only %.1f CPUs busy while it was called (the kernel's count, waits "
             "for a CPU included): the work ran on one thread. This stage must run on all %d", rate,
             fmax(cpus_wanted(res), 0), threads);
        break;
    case SPEEDUP_BUSY_LOST:
        res->busy = 1;
        fail(o, "not-judged", "not judged: %s; but while it was timed its threads lost %.0f%% of a CPU's time in every "
             "timed run (%.0f%% to the host of this virtual machine, steal time; %.0f%% waiting, ready, for a CPU "
             "another process held). Given that time back (x%.2f), it would have reached %.2fx; grade again when "
             "the machine is quieter", rate, 100 * lost_cpus(res), 100 * fmax(res->stolen, 0),
             100 * fmax(res->waited, 0), back, given_back(res, "no-speedup"));
        break;
    case SPEEDUP_BUSY_LIBRARY:
        res->busy = 1;
        fail(o, "not-judged", "not judged: %s; but OpenBLAS dgemm itself gains only %.2fx from 1 to %d threads on "
             "this machine now (measured twice, after your runner ended): two of its cores share one physical "
             "core, or a neighbour is at work on one. Given the %d cores' full gain (x%.2f), it would have reached "
             "%.2fx; grade again when the machine is quieter", rate, lib, threads, threads, threads / fmin(lib, threads),
             res->speedup * threads / fmin(lib, threads));
        break;
    case SPEEDUP_SHORT_LOST:
        res->parallel_seen = 1;
        fail(o, "not-judged", "not judged: %s. Your code did run on the threads (they kept %.1f CPUs busy or waited, "
             "ready, for them while it was called, by the kernel's count), and lost %.0f%% of a CPU's time to other "
             "work while it was timed; but given that time back (x%.2f) it would still reach only %.2fx, so the busy "
             "machine does not explain it. Threads that are busy and no faster are waiting: on each other (a critical "
             "section or an atomic in the loop), or on memory. Not a failure, but no speed credit",
             rate, cpus_wanted(res), 100 * lost_cpus(res), back, given_back(res, "no-speedup"));
        break;
    default: /* SPEEDUP_SHORT */
        res->parallel_seen = 1;
        fail(o, "not-judged", "not judged: %s. Your code did run on the threads (they kept %.1f CPUs busy or waited, "
             "ready, for them while it was called, by the kernel's count), and OpenBLAS dgemm gained %.2fx from them "
             "just after, so the cores were free. Threads that are busy and no faster are waiting: on each other (a "
             "critical section or an atomic in the loop), or on memory (blocking for cache, as stage 4 does, is what "
             "helps). Not a failure, but no speed credit: grade again, and if it repeats, look at the loop",
             rate, cpus_wanted(res), lib);
    }
}

/* The machine's bandwidth now, before the stage's runner starts or after it ended (nothing of the
 * student's runs while the scorer measures): a roof with care, or (roof 0) only whether the machine
 * is busy. Far below the calibrated figure (a neighbour at work), it waits a second and measures
 * again, three tries in all; still so, the stage is marked busy (judge_busy). */
static void measure_now(grader *g, int roof, stage_result *res)
{
    lab_run *r = g->run;
    session_end(g);
    r->now_measured = 1;
    for (int attempt = 0; attempt < 3; attempt++) {
        if (attempt > 0) sleep(1);
        r->now = measure_bandwidth(r->threads, 4 * r->mach.llc_bytes, roof ? ROOF_SECONDS : BUSY_SECONDS);
        if (r->threads > 1 && roof) r->now1 = measure_bandwidth(1, 4 * r->mach.llc_bytes, ROOF_SECONDS);
        res->busy = r->cached.stream_gbs > 0 && r->now.stream_gbs < BUSY_FRACTION * r->cached.stream_gbs;
        if (!res->busy) break;
    }
}

/* A CPU lab's bandwidth (and one thread's) now, once in a run: before the first stage is timed, or
 * for bench and profile at the start. No runner runs while it is measured. */
void measure_now_once(grader *g, double seconds)
{
    lab_run *r = g->run;
    if (LAB.gpu || r->now_measured) return;
    session_end(g);
    r->now = measure_bandwidth(r->threads, 4 * r->mach.llc_bytes, seconds);
    if (r->threads > 1) r->now1 = measure_bandwidth(1, 4 * r->mach.llc_bytes, seconds);
    r->now_measured = 1;
}

/* A bandwidth-bound CPU stage's ceiling, measured again once its correctness cases passed, a second or so before
 * its timed calls (a shared machine drifts over seconds, so the roof and the code it judges are
 * measured close together). Other stages are checked for a busy machine only if they fall short. */
static void measure_before_timing(grader *g, const lab_problem *p, stage_result *res)
{
    lab_run *r = g->run;
    if (LAB.gpu || p->ceiling != CEIL_STREAM) return;
    measure_now(g, 1, res);
    r->stream_lo = r->stream_lo > 0 ? fmin(r->stream_lo, r->now.stream_gbs) : r->now.stream_gbs;
    r->stream_hi = fmax(r->stream_hi, r->now.stream_gbs);
}

/* A speed or speedup verdict that failed while the machine was busy is not the student's
 * failure: reported as not judged, with the figures, and no speed points. A stage whose roof
 * was not measured as it started is checked now, its runner ended. */
static void judge_busy(grader *g, const lab_problem *p, stage_result *res, outcome *o)
{
    int threads = g->run->threads;
    if (o->ok || (strcmp(o->reason, "too-slow") && strcmp(o->reason, "no-speedup"))) return;
    /* Condemned by its own figures: a stage that must run on every thread and kept one busy is one
     * thread's work, whatever the machine did (a neighbour turns CPU time into waits, counted too). */
    if (threads > 1 && res->speedup_required > 0 && res->cpus >= 0 && !threads_worked(res, threads)) return;
    /* ... or whose runner's own clock the grader found far off on every timed call (each claimed less
     * than 1/DELAYED_BY of the grader's time: a clock moved, as lab 01's patched_clock moves it by a
     * third). Disagreeing by a little is not enough: on a 2-CPU VM with both CPUs busy, an honest
     * lab 01 runner's DONE came 0.3-5 ms past its own time on every call of 1.2-1.5 s (0.02-0.4%),
     * past any fixed slack (docs/BENCHMARKS.md, the thirty-fourth session). */
    if (res->proven >= 3 && res->far_off >= res->proven) return;
    if (!LAB.gpu && passes_given_back(res, o->reason, threads)) {
        double back = (res->cpus + lost_cpus(res)) / res->cpus, figure = given_back(res, o->reason);
        char would[200]; /* the figure the rule compared, beside the one measured */
        if (!strcmp(o->reason, "too-slow"))
            snprintf(would, sizeof would, "%.*f%% of the ceiling (it measured %.*f%%; this stage needs %.*f%%)",
                     percent_decimals(res->required, figure), 100 * figure,
                     percent_decimals(res->required, res->fraction), 100 * res->fraction,
                     percent_decimals(res->required, res->required), 100 * res->required);
        else
            snprintf(would, sizeof would, "%.2fx the one-thread roof (it measured %.2fx; this stage needs %.2fx)",
                     figure, res->speedup, res->speedup_required);
        res->busy = 1;
        fail(o, "not-judged", "not judged: while your code was timed, its threads lost %.0f%% of a CPU's time in every "
             "timed run: %.0f%% to the host of this virtual machine (steal time, /proc/stat) and %.0f%% waiting, "
             "ready, for a CPU another process on this machine held (the kernel's run-queue count). Given that time "
             "back (x%.2f: the CPUs it used and lost over those it used), your code would have reached %s; grade "
             "again when the machine is quieter", 100 * lost_cpus(res), 100 * fmax(res->stolen, 0),
             100 * fmax(res->waited, 0), back, would);
        return;
    }
    if (!LAB.gpu && p->ceiling != CEIL_STREAM) measure_now(g, 0, res);
    if (!res->busy) return;
    const lab_run *r = g->run;
    fail(o, "not-judged", "not judged: the machine was busy (its bandwidth when this stage was timed read "
         "%.1f GB/s, %.0f%% of the calibrated %.1f GB/s, three tries), so the speed measured (%.*f%% of the "
         "ceiling) says little about your code; grade again when the machine is quieter",
         r->now.stream_gbs, 100 * r->now.stream_gbs / r->cached.stream_gbs, r->cached.stream_gbs,
         percent_decimals(res->required, res->fraction), 100 * res->fraction);
}

/* A wrong case run again on the same inputs, with the same poison: deterministic code gives the
 * same wrong answer. A different one means the result depends on timing (a race) or on memory
 * the code reads before writing. */
static int differs_when_repeated(grader *g, int stage, int index, lab_shape shape, const outcome *first)
{
    outcome again = run_correctness(g, stage, index, shape);
    return again.ok || strcmp(again.detail, first->detail) != 0;
}
static const char again_hint[] = "the same inputs gave a different result when run again: a race (threads or "
                                 "blocks updating shared data unsynchronised, a missing __syncthreads) or reading "
                                 "memory that was never written";

/* The cause given when a case that was right at 1 thread went wrong at more. */
static const char race_hint[] = "correct with 1 thread, wrong with more: a race (threads updating shared data "
                                "without a reduction, atomic or private copy) or a partition of the loop that drops "
                                "or repeats iterations";
static const char dropped_hint[] = "correct with 1 thread; with more, some elements were never written: the loop is "
                                   "shared out so that iterations are left over (a count not a multiple of the "
                                   "threads?); let OpenMP share it (#pragma omp for) or give the last thread the rest";
static const char timed_race_hint[] = "every correctness case was right, but this larger timed call was not: a "
                                      "result that changes from call to call points at a race (threads or blocks "
                                      "updating shared data without a reduction, atomic or barrier), which small "
                                      "cases rarely show, or an index that overflows int at this size";

/* The likely cause in a failure's detail replaced by a better-founded one (from several cases:
 * across sizes, thread counts, or a run repeated), so the student reads one cause, the right one. */
static void set_cause(char *detail, size_t len, const char *label, const char *cause)
{
    char *old = strstr(detail, "\n  likely cause: ");
    if (old) *old = '\0';
    size_t used = strlen(detail);
    snprintf(detail + used, len - used, "\n  likely cause%s: %s", label, cause);
}

static void grade_stage_cases(grader *g, int stage, stage_result *res);

/* A stage wrong on each of its first WRONG_FROM_START correctness cases is not tried on a costly
 * one (the reference's time, for code already shown wrong): a pattern across sizes needs a case
 * that is right, and the cheap ones still look for it. */
#define WRONG_FROM_START 4
#define COSTLY_CASE_FLOPS 1e7

/* SANITIZE=1 on a GPU lab: compute-sanitizer's four tools, each over the stage's correctness cases
 * in runners of its own (a tool per run: each instruments the kernels its own way). */
static const char *const cuda_tools[] = {"memcheck", "racecheck", "initcheck", "synccheck"};
/* ... on the cases up to this size (a tool slows a kernel 10 to 100 times): the small and odd ones,
 * where the edges are, always the first */
#define SANITIZED_CASE_FLOPS 2e8
#define SANITIZED_CASE_BYTES (64.0 * (1 << 20))
#define SANITIZED_TIMEOUT_FACTOR 5

static void sanitize_gpu_stage(grader *g, int stage, stage_result *res)
{
    const stage_result before = *res;
    stage_result wrong = {0};
    double timeout = g->lim.timeout_s;
    g->lim.timeout_s = timeout * SANITIZED_TIMEOUT_FACTOR;
    for (size_t t = 0; t < sizeof cuda_tools / sizeof cuda_tools[0]; t++) {
        /* stdout is the runner's output file: findings, as "=========" lines, beside the student's */
        char *wrap[] = {g->sanitizer, "--tool", (char *)cuda_tools[t], "--error-exitcode", "86", "--print-limit", "4",
                        "--show-backtrace", "device", "--report-api-errors", "no", NULL};
        *res = before;
        g->sanitizer_tool = cuda_tools[t];
        g->lim.wrapper = wrap;
        g->lim.cuda_tool = "compute-sanitizer";
        /* every case in one runner (a tool's start-up costs seconds); where it found anything, or
         * a case went wrong, each case again in a runner of its own, to name the size */
        g->sanitize_per_case = 0;
        grade_stage_cases(g, stage, res);
        session_end(g);
        outcome whole = {.ok = 1, .reason = "ok"};
        int found = cuda_sanitizer_finding(g, "one of the correctness cases", &whole);
        if (found || !res->correct) {
            *res = before;
            g->sanitize_per_case = 1;
            grade_stage_cases(g, stage, res);
            session_end(g);
            if (res->correct && found) { /* not again case by case (a race that came and went) */
                res->correct = 0;
                snprintf(res->reason, sizeof res->reason, "%s", whole.reason);
                snprintf(res->detail, sizeof res->detail, "%s", whole.detail);
            }
        }
        g->lim.wrapper = NULL;
        g->lim.cuda_tool = NULL;
        if (!res->correct && !strcmp(res->reason, "sanitizer")) break; /* the first tool's finding is the stage's */
        if (!res->correct && !wrong.reason[0]) wrong = *res; /* wrong, no finding: the next tools may say why (a race) */
    }
    if (res->correct && wrong.reason[0]) *res = wrong;
    g->sanitizer_tool = NULL;
    g->sanitize_per_case = 0;
    g->lim.timeout_s = timeout;
    if (res->correct)
        snprintf(res->detail, sizeof res->detail, "compute-sanitizer: memcheck, racecheck, initcheck and synccheck "
                 "found nothing on %d correctness case%s", res->cases_total, res->cases_total == 1 ? "" : "s");
}

/* One stage in one runner session: its correctness cases, then its timed case. */
void grade_stage(grader *g, int stage, stage_result *res)
{
    if (g->lim.sanitize && LAB.gpu) {
        sanitize_gpu_stage(g, stage, res);
        return;
    }
    grade_stage_cases(g, stage, res);
    session_end(g);
}

static void grade_stage_cases(grader *g, int stage, stage_result *res)
{
    const lab_problem *p = LAB.stages[stage].problem;
    lab_case cases[LAB_MAX_CASES], checked[LAB_MAX_CASES];
    int ncases = problem_cases(g->run, p, cases);
    int ok[LAB_MAX_CASES] = {0}, ncheck = 0, reported = 0, race = 0, unstable = 0, untried = 0;
    size_limits(g, p, cases, ncases);
    snprintf(res->reason, sizeof res->reason, "ok");
    for (int i = 0; i < ncases && ncheck < LAB_MAX_CASES; i++) {
        if (cases[i].timed) continue;
        int any_ok = 0;
        for (int c = 0; c < ncheck; c++) any_ok |= ok[c];
        if (ncheck >= WRONG_FROM_START && !any_ok && p->flops(cases[i].s) > COSTLY_CASE_FLOPS && ++untried) continue;
        if (g->sanitizer_tool && ncheck > 0 &&
            (p->flops(cases[i].s) > SANITIZED_CASE_FLOPS || p->bytes(cases[i].s) > SANITIZED_CASE_BYTES)) continue;
        int ok_at_one = 0, fatal = 0;
        for (int t = 0; t < g->ncorrect_threads && !fatal; t++) {
            int threads = g->correct_threads[t];
            g->case_threads = threads;
            outcome o = run_correctness(g, stage, 8 * i + t, cases[i].s);
            phase("  %s: case %d (%d threads)", LAB.stages[stage].name, i, threads);
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
    g->case_threads = 0;
    if (untried) {
        size_t used = strlen(res->detail);
        snprintf(res->detail + used, sizeof res->detail - used, "\n  (wrong at every size tried; %d larger size%s "
                 "not tried)", untried, untried > 1 ? "s were" : " was");
    }
    if (reported) {
        char why[256];
        diagnose_sizes(checked, ok, ncheck, why, sizeof why);
        /* never written at more threads than one: the partition, not a race */
        int dropped = race && (strstr(res->detail, "never written") || strstr(res->detail, "still holds the value"));
        if (race || unstable) set_cause(res->detail, sizeof res->detail, "", dropped ? dropped_hint : race ? race_hint : again_hint);
        else if (why[0]) set_cause(res->detail, sizeof res->detail, " (across sizes)", why);
        return;
    }
    if (g->lim.sanitize) { /* correctness only: instrumented code is not timed, and earns no points */
        res->correct = res->fast_enough = 1;
        return;
    }
    if (res->technique[0]) { /* right, without the stage's technique: no speed points, so not timed */
        /* ... but its timed size is run and checked, as a timed call is (a large output at sampled
         * positions), by one proven call: no correctness points for a size the code never ran at */
        double min_time = g->min_time;
        unsigned min_calls = g->min_calls;
        g->min_time = 0, g->min_calls = 1;
        outcome o = {.ok = 1, .reason = "ok"};
        for (int i = 0; i < ncases && o.ok; i++) {
            if (!cases[i].timed) continue;
            o = run_timed(g, stage, cases[i].s, res);
            phase("  %s: its timed size, checked", LAB.stages[stage].name);
            res->cases_ok += o.ok; /* a case of the table's count, as a timed stage's timed size is */
            res->cases_total++;
        }
        g->min_time = min_time, g->min_calls = min_calls;
        if (!o.ok) {
            snprintf(res->reason, sizeof res->reason, "%s", o.reason);
            snprintf(res->detail, sizeof res->detail, "%s", o.detail);
            return;
        }
        res->correct = 1;
        res->points_correct = res->max_correct;
        snprintf(res->reason, sizeof res->reason, "technique");
        snprintf(res->detail, sizeof res->detail, "%s", res->technique);
        return;
    }
    /* The roof, with the correctness cases' runner ended, a second or so before the timed calls in
     * a fresh one; only for a stage whose every case was right (a wrong stage is never timed). */
    measure_before_timing(g, p, res);
    measure_now_once(g, BUSY_SECONDS); /* the first stage timed, not bandwidth-bound */
    for (int i = 0; i < ncases; i++) {
        if (!cases[i].timed) continue;
        outcome o = run_timed(g, stage, cases[i].s, res);
        phase("  %s: timed", LAB.stages[stage].name);
        if (o.ok) {
            res->correct = 1;
            res->points_correct = res->max_correct;
            judge_speed(g, stage, res, &o);
            retime_if_short(g, stage, cases[i].s, res, &o);
            if (res->correct) judge_speedup(g, stage, cases[i].s, res, &o);
            judge_busy(g, p, res, &o);
            judge_overlap(g, stage, res, &o);
            judge_shared(g, stage, cases[i].s, res, &o);
            phase("  %s: retime, speedup", LAB.stages[stage].name);
        }
        if (!o.ok) {
            snprintf(res->reason, sizeof res->reason, "%s", o.reason);
            snprintf(res->detail, sizeof res->detail, "%s", o.detail);
            if (!strcmp(o.reason, "wrong") && (g->ncorrect_threads > 1 || LAB.gpu))
                set_cause(res->detail, sizeof res->detail, "", timed_race_hint);
        }
    }
}

/* Address space for a runner: its buffers (and a stage's private copy) with room to spare. A
 * CUDA runner maps the device's memory into its address space too, so it gets no such limit. */
void size_limits(grader *g, const lab_problem *p, const lab_case *cases, int n)
{
    double biggest = 0;
    for (int i = 0; i < n; i++) {
        lab_buf b[LAB_MAX_BUFS];
        double total = 0;
        p->layout(cases[i].s, b);
        for (int k = 0; k < p->nbufs; k++) total += (double)buf_bytes(&b[k]);
        total += (double)FETCH_MAX * 16 + 2.0 * (double)buf_bytes(&b[p->out]);
        biggest = fmax(biggest, total);
    }
    /* AddressSanitizer reserves terabytes of shadow address space up front. */
    g->lim.memory_bytes = LAB.gpu || g->lim.sanitize ? (size_t)RLIM_INFINITY : (size_t)(3 * biggest) + ((size_t)1 << 30);
}

