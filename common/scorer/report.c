/* report.c - the two views of a lab's results: an aligned table for people and one JSON
 * document (Gradescope's results.json format) for programs. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <fcntl.h>
#include <math.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#include "build.h"
#include "config.h"
#include "grade.h"
#include "judge.h"
#include "json.h"
#include "stats.h"
#include "submission.h"
#include "util.h"

static const char *verdict(const stage_result *s)
{
    if (!strcmp(s->reason, "technique")) return "FAIL"; /* without the stage's technique: known even unrun */
    if (s->skipped) return "SKIP";
    if (s->correct && !s->fast_enough && !strcmp(s->reason, "not-judged") && s->busy) return "BUSY"; /* not a fail */
    if (s->correct && !s->fast_enough && !strcmp(s->reason, "not-judged") && s->parallel_seen)
        return "UNJUDGED"; /* nor this: the code ran in parallel, and its speedup could not be shown here now */
    return s->correct && s->fast_enough ? "PASS" : "FAIL";
}

/* Print `text` with every line indented. */
static void indented(FILE *f, const char *text, const char *indent)
{
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        fprintf(f, "%s%.*s\n", indent, (int)n, p);
        p += n + (p[n] == '\n');
    }
}

static int by_start(const void *a, const void *b)
{
    double x = ((const trace_event *)a)->t0, y = ((const trace_event *)b)->t0;
    return (x > y) - (x < y);
}

/* How long at least one operation of `kind` was under way in the traced call: the union of their
 * intervals. An interval starts when its stream reaches the operation, so a copy waiting for the
 * copy engine counts as busy: the rate this gives is a lower bound. */
static double busy_time(const trace_event *ev, int n, int kind)
{
    trace_event *v = xmalloc((size_t)(n > 0 ? n : 1) * sizeof *v);
    int m = 0;
    for (int e = 0; e < n; e++)
        if (ev[e].kind == kind) v[m++] = ev[e];
    qsort(v, (size_t)m, sizeof *v, by_start);
    double busy = 0, a = 0, b = -1;
    for (int e = 0; e < m; e++) {
        if (v[e].t0 > b) {
            if (b > a) busy += b - a;
            a = v[e].t0, b = v[e].t1;
        } else if (v[e].t1 > b) b = v[e].t1;
    }
    if (b > a) busy += b - a;
    free(v);
    return busy;
}

/* Data moved through the GPU: the ideal time's parts, and what one call put on which stream, one
 * row a stream, H copy in, K kernel, D copy out, time running left to right. */
void report_timeline(const stage_result *s, const char *stage, FILE *f)
{
    const pipeline_times *t = &s->pipe;
    if (!s->timed || t->h2d <= 0) return;
    double ideal = pipeline_ideal(t);
    fprintf(f, "\n%s: %.2f ms a call; ideal %.2f ms = max(copy in %.2f, kernel %.2f, copy out %.2f), serial %.2f ms\n",
            stage, 1e3 * s->seconds, 1e3 * ideal, 1e3 * t->h2d, 1e3 * t->kernel, 1e3 * t->d2h,
            1e3 * pipeline_serial(t));
    if (s->ntrace <= 0) return;
    enum { WIDTH = 72, ROWS = 16 };
    double end = 0;
    int streams = 0;
    for (int e = 0; e < s->ntrace; e++) {
        end = fmax(end, s->trace[e].t1);
        if (s->trace[e].stream + 1 > streams) streams = s->trace[e].stream + 1;
    }
    if (end <= 0) return;
    fprintf(f, "  one call, traced (H copy in, K kernel, D copy out; %.3f ms a column):\n", 1e3 * end / WIDTH);
    for (int row = 0; row < streams && row < ROWS; row++) {
        char line[WIDTH + 1];
        memset(line, '.', WIDTH);
        line[WIDTH] = '\0';
        int used = 0;
        for (int e = 0; e < s->ntrace; e++) {
            const trace_event *ev = &s->trace[e];
            if (ev->stream != row) continue;
            used = 1;
            int a = (int)(ev->t0 / end * WIDTH), b = (int)(ev->t1 / end * WIDTH);
            if (a < 0) a = 0;
            if (b >= WIDTH) b = WIDTH - 1;
            for (int c = a; c <= b; c++) line[c] = "HKD?"[ev->kind >= 0 && ev->kind <= TRACE_OTHER ? ev->kind : 3];
        }
        if (!used) continue;
        if (row == 0) fprintf(f, "  %-9s |%s|\n", "default", line);
        else fprintf(f, "  stream %-2d |%s|\n", row, line);
    }
    if (streams > ROWS) fprintf(f, "  (%d more streams not shown)\n", streams - ROWS);
    fprintf(f, "  %-9s  0%*.*f ms\n", "", WIDTH - 1, 2, 1e3 * end);
    double in = busy_time(s->trace, s->ntrace, TRACE_H2D), out = busy_time(s->trace, s->ntrace, TRACE_D2H);
    if (in > 0 && out > 0)
        fprintf(f, "  copies under way: in %.2f ms, out %.2f ms; the same bytes alone on pinned memory: %.2f and %.2f ms\n"
                   "  (copy rate at least %.0f%% and %.0f%% of pinned; waits for the copy engine count as copying)\n",
                1e3 * in, 1e3 * out, 1e3 * t->h2d, 1e3 * t->d2h, 100 * t->h2d / in, 100 * t->d2h / out);
}

/* The first LAB.ranked stages (variants of one idea, like loop orders) by speed, fastest first. */
static void ranking(const lab_run *r, FILE *f)
{
    int order[16], n = 0;
    for (int i = 0; i < LAB.ranked; i++)
        if (r->stages[i].timed && r->stages[i].gflops > 0) order[n++] = i;
    if (n < 2) return;
    for (int a = 1; a < n; a++) /* insertion sort, fastest first */
        for (int b = a; b > 0 && r->stages[order[b]].gflops > r->stages[order[b - 1]].gflops; b--) {
            int t = order[b];
            order[b] = order[b - 1];
            order[b - 1] = t;
        }
    fprintf(f, "\n  ranked by speed (innermost loop's stride of each operand):\n");
    for (int i = 0; i < n; i++)
        fprintf(f, "  %d. %-10s %8.2f GFLOP/s  %5.1fx slowest   %s\n", i + 1, LAB.stages[order[i]].name,
                r->stages[order[i]].gflops, r->stages[order[i]].gflops / r->stages[order[n - 1]].gflops,
                LAB.stages[order[i]].what);
}

int lab_fp32_capped(void)
{
    for (int st = 0; st < LAB.nstages; st++)
        if (LAB.stages[st].problem->fp32_capped) return 1;
    return 0;
}

void report_table(const lab_run *r, FILE *f)
{
    fprintf(f, "\n== %s: %s ==  (graded: %s/%s/%s)\n", LAB.id, LAB.title, r->work, LAB.id, LAB.source);
    fprintf(f, "seed 0x%016" PRIx64 "   replay: make grade LAB=%s SEED=0x%016" PRIx64 "\n", r->seed, LAB.id, r->seed);
    if (LAB.gpu && r->skip_why[0]) {
        char checker[64];
        fprintf(f, "%s\n", r->skip_why);
        /* what a machine without a GPU did check (the build ran where r->cflags is set) */
        const char *sm = strstr(r->cflags, "code=sm_");
        int named = 0, judged = 0; /* stages with a technique check (thresholds.conf); those it could read */
        for (int i = 0; i < LAB.nstages; i++) {
            named += technique_spec(&r->cfg, i) != NULL;
            judged += technique_spec(&r->cfg, i) != NULL && r->stages[i].technique_read;
        }
        if (r->cflags[0] && r->build_status == BUILD_OK) {
            fprintf(f, "checked here: your file compiled%s%.*s and passed the audit (no refused call, no forbidden "
                       "instruction)", sm ? " for " : "", sm ? (int)strcspn(sm + 5, " ") : 0, sm ? sm + 5 : "");
            if (judged) fprintf(f, "; %d stage%s technique checked in the machine code (one without it is marked "
                                   "`technique` below)", judged, judged > 1 ? "s'" : "'s");
            if (named > judged) fprintf(f, "; %d stage%s technique not checked yet: no kernel launched there", named - judged,
                                        named - judged > 1 ? "s'" : "'s");
            fprintf(f, "\n");
        }
        snprintf(checker, sizeof checker, "scripts/emu/check%.2s.cpp", LAB.id);
        if (access(checker, R_OK) == 0) /* run from the workbook's top: make grade */
            fprintf(f, "no GPU here: `make emulate LAB=%.2s%s%s` runs your kernels on the CPU and says which stage is "
                       "wrong where, with the first wrong element (logic only: never speed, and a race may not show)\n",
                    LAB.id, strcmp(r->work, "labs") ? " WORK=" : "", strcmp(r->work, "labs") ? r->work : "");
    } else if (LAB.gpu) {
        int kinds[3] = {0, 0, 0};
        for (int i = 0; i < LAB.nstages; i++) kinds[LAB.stages[i].problem->ceiling] = 1;
        fprintf(f, "device: %s; device copy bandwidth %.0f GB/s this run (calibrated %.0f GB/s)\n", r->device,
                r->now.stream_gbs, r->cached.stream_gbs);
        if (kinds[CEIL_STREAM] && lab_fp32_capped())
            fprintf(f, "ceiling: device copy bandwidth x arithmetic intensity, or the FP32 peak measured in this run "
                       "(%.0f GFLOP/s, FFMA), whichever is lower\n", r->fp32_gflops);
        else if (kinds[CEIL_STREAM]) fprintf(f, "ceiling: device copy bandwidth x arithmetic intensity\n");
        if (kinds[CEIL_BLAS]) fprintf(f, "ceiling: cuBLAS on the same inputs at the timed size, in this run\n");
        if (kinds[CEIL_PIPELINE])
            fprintf(f, "ceiling: the ideal overlapped time, max(copy in, kernel, copy out), each timed alone at the timed "
                       "size in this run\n");
        fprintf(f, "cuBLAS (calibration): SGEMM %.0f GFLOP/s, HGEMM %.0f GFLOP/s\n", r->sgemm_gflops, r->hgemm_gflops);
        if (r->gpu_busy > 0)
            fprintf(f, "warning: %d other process%s using this GPU: speeds below are not trustworthy\n", r->gpu_busy,
                    r->gpu_busy > 1 ? "es are" : " is");
    } else {
        int stream = 0;
        for (int i = 0; i < LAB.nstages; i++) stream |= LAB.stages[i].problem->ceiling == CEIL_STREAM;
        fprintf(f, "machine: %s, %d cores, last-level cache %.1f MiB\n", r->mach.cpu, r->mach.cores,
                r->mach.llc_bytes / 1048576.0);
        char now[64];
        if (r->stream_lo > 0 && r->stream_lo < 0.995 * r->stream_hi)
            snprintf(now, sizeof now, "%.2f-%.2f GB/s this run, measured as each stage started", r->stream_lo,
                     r->stream_hi);
        else snprintf(now, sizeof now, "%.2f GB/s this run", r->stream_lo > 0 ? r->stream_lo : r->now.stream_gbs);
        if (!r->now_measured) snprintf(now, sizeof now, "(not measured this run: no stage was timed)");
        if (stream) fprintf(f, "ceiling: triad bandwidth %s (%d thread%s; calibrated %.2f GB/s) x arithmetic intensity\n",
                now, r->threads, r->threads > 1 ? "s" : "", r->cached.stream_gbs);
        char chained[128] = "";
        int flops = 0;
        for (int i = 0; i < LAB.nstages; i++)
            if (LAB.stages[i].chain && LAB.stages[i].chains <= 1 && strlen(chained) + strlen(LAB.stages[i].name) + 3 < sizeof chained)
                snprintf(chained + strlen(chained), sizeof chained - strlen(chained), "%s%s", chained[0] ? ", " : "",
                         LAB.stages[i].name), flops = LAB.stages[i].chain;
        if (chained[0] && r->now.chain_gadds > 0)
            fprintf(f, "ceiling of %s (one chain of dependent adds): the lower of that and %d FLOPs x %.2f G adds/s, "
                       "the add latency's rate measured in this run\n", chained, flops, r->now.chain_gadds);
        for (int i = 0; i < LAB.nstages; i++) {
            const lab_stage *st = &LAB.stages[i];
            double over = over_chain(&r->cfg, i);
            if (over > 0 && r->now.chain_gadds > 0)
                fprintf(f, "%s (%d chains): needs its fraction of that, or %.3gx one chain's rate (%.2f GFLOP/s), whichever "
                           "is lower: it is there to break the chain\n", st->name, st->chains, over, over * st->chain * r->now.chain_gadds);
        }
    }
    if (r->nblas) {
        if (LAB.gpu) fprintf(f, "ceiling: cuBLAS measured in this run at each timed size:");
        else fprintf(f, "ceiling: OpenBLAS dgemm (%d thread%s) measured in this run at each timed size:", r->threads,
                     r->threads > 1 ? "s" : "");
        for (int i = 0; i < r->nblas; i++)
            fprintf(f, " %dx%dx%d %.1f GFLOP/s%s", r->blas[i].s.m, r->blas[i].s.n, r->blas[i].s.k, r->blas[i].gflops,
                    i + 1 < r->nblas ? ";" : "");
        fprintf(f, " (%s)\n", r->blas_note);
    }
    double low = r->stream_lo > 0 ? r->stream_lo : r->now.stream_gbs;
    if (low > 0 && low < 0.75 * r->cached.stream_gbs)
        fprintf(f, "warning: this run's bandwidth fell to %.0f%% of the calibrated figure: the machine is busy, and "
                   "speeds below may read low (a stage timed while it was below %.0f%% is not judged: BUSY)\n",
                100 * low / r->cached.stream_gbs, 100 * BUSY_FRACTION);
    if (r->sanitize && LAB.gpu && !r->skip_why[0])
        fprintf(f, "SANITIZE=1: your kernels run under compute-sanitizer (memcheck: out-of-bounds and misaligned "
                   "accesses; racecheck: shared-memory races; initcheck: reads of global memory never written; "
                   "synccheck: barriers not every thread reaches), each tool over the small correctness cases; "
                   "nothing timed, no score\n");
    else if (r->sanitize && !LAB.gpu)
        fprintf(f, "SANITIZE=1: your file built with AddressSanitizer and UBSan, correctness cases only; "
                   "nothing timed, no score\n");
    int scaling = 0; /* a threaded lab: a speedup column, each entry "got/needed" */
    for (int i = 0; i < LAB.nstages; i++) scaling |= r->stages[i].speedup_required > 0;
    if (scaling && r->threads < 2)
        fprintf(f, "speedup: not judged: the grader may use only 1 core here, and a parallel speedup needs 2 or "
                   "more; races, too, seldom show when threads take turns on one core. Grade on a machine with "
                   "more cores before you trust a pass.\n");
    else if (scaling)
        fprintf(f, "speedup: bandwidth-bound stages: the rate at %d threads over the one-thread roof (the fastest one "
                   "thread streams memory here, this run, times the intensity: what no serial code beats);\n"
                   "         compute-bound stages: the rate at %d threads over the grader's own one-thread i-k-j "
                   "baseline (grading/03-openmp/baseline.c), timed in the same run\n", r->threads, r->threads);
    int w = 12; /* the stage column: as wide as the longest name */
    for (int i = 0; i < LAB.nstages; i++) w = (int)fmax(w, (double)strlen(LAB.stages[i].name));
    fprintf(f, "\n  %-*s %-8s %9s %8s %10s %9s %s %s\n", w, "stage", "correct", "GFLOP/s", "GB/s", "% ceiling", "required",
            scaling ? "    speedup" : "", "verdict");
    for (int i = 0; i < LAB.nstages; i++) {
        const stage_result *s = &r->stages[i];
        char correct[16], speedup[32] = "";
        if (s->cases_total) snprintf(correct, sizeof correct, "%d/%d", s->cases_ok + s->timed, s->cases_total + s->timed);
        else snprintf(correct, sizeof correct, "-");
        if (scaling && s->speedup_unjudged) snprintf(speedup, sizeof speedup, " %11s", "not judged*");
        else if (scaling && s->speedup > 0) snprintf(speedup, sizeof speedup, " %5.2f/%4.2fx", s->speedup, s->speedup_required);
        else if (scaling) snprintf(speedup, sizeof speedup, " %11s", "-");
        /* percentages at the precision the requirement is set with (0.5%, not 0%) */
        int dr = percent_decimals(s->required, s->required), df = percent_decimals(s->required, s->fraction);
        if (s->timed && s->gflops > 0)
            fprintf(f, "  %-*s %-8s %9.2f %8.2f %9.*f%% %8.*f%%%s  %s\n", w, LAB.stages[i].name, correct, s->gflops,
                    s->gbs, df, 100 * s->fraction, dr, 100 * s->required, speedup, verdict(s));
        else
            fprintf(f, "  %-*s %-8s %9s %8s %10s %8.*f%%%s  %s\n", w, LAB.stages[i].name, correct, "-", "-", "-", dr,
                    100 * s->required, speedup, verdict(s));
    }
    for (int i = 0, said = 0; i < LAB.nstages && !said; i++)
        if (r->stages[i].speedup_unjudged && (said = 1))
            fprintf(f, "* not judged: this machine's memory bandwidth at %d threads is not enough above one thread's "
                       "(%.1f against %.1f GB/s this run) for code bound by memory to show the speedup required\n", r->threads,
                    fmax(r->now.stream_gbs, r->now.read_gbs), fmax(r->now1.stream_gbs, r->now1.read_gbs));
    ranking(r, f);
    for (int i = 0; i < LAB.nstages; i++) report_timeline(&r->stages[i], LAB.stages[i].name, f);
    int shown_build = 0;
    for (int i = 0; i < LAB.nstages; i++) {
        const stage_result *s = &r->stages[i];
        if (!strcmp(s->reason, "ok") || (s->skipped && strcmp(s->reason, "technique"))) continue;
        int build = !strcmp(s->reason, "build") || !strcmp(s->reason, "audit");
        if (build && shown_build++) continue; /* one build message serves every stage */
        fprintf(f, "\n%s [%s]:\n", build ? "all stages" : LAB.stages[i].name, s->reason);
        indented(f, s->detail, "  ");
    }
    for (int i = 0; i < LAB.nstages; i++) {
        const stage_result *s = &r->stages[i];
        if (!s->printed[0]) continue;
        fprintf(f, "\n%s: your code printed %d line%s (%snot graded):\n", LAB.stages[i].name, s->printed_lines,
                s->printed_lines == 1 ? "" : "s", s->printed_lines > 5 ? "the first five shown; " : "");
        indented(f, s->printed, "  | ");
    }
    double score = 0, max = 0;
    int passed = 0, skipped = 0, busy = 0, unjudged = 0;
    for (int i = 0; i < LAB.nstages; i++) {
        score += r->stages[i].points_correct + r->stages[i].points_speed;
        max += r->stages[i].skipped ? 0 : r->stages[i].max_correct + r->stages[i].max_speed;
        passed += !strcmp(verdict(&r->stages[i]), "PASS");
        busy += !strcmp(verdict(&r->stages[i]), "BUSY");
        unjudged += !strcmp(verdict(&r->stages[i]), "UNJUDGED");
        skipped += r->stages[i].skipped;
    }
    if (busy)
        fprintf(f, "\n%d stage%s not judged for speed (BUSY): the machine was busy when %s timed; grade again when "
                   "it is quieter\n", busy, busy > 1 ? "s were" : " was", busy > 1 ? "they were" : "it was");
    if (unjudged)
        fprintf(f, "\n%d stage%s not judged for speedup (UNJUDGED): your code kept the threads busy, but no speedup "
                   "could be shown on this machine now (the notes above say why); no speed credit, and not a failure: "
                   "grade again\n", unjudged, unjudged > 1 ? "s were" : " was");
    if (skipped && r->skip_why[0])
        fprintf(f, "\n%s: %d of %d stages skipped (%s); %d pass\n", LAB.id, skipped, LAB.nstages, r->skip_why, passed);
    else if (skipped) /* STAGE=name: the others were not graded */
        fprintf(f, "\n%s: %d of %d stages graded, %d pass; score %.1f / %.0f\n", LAB.id, LAB.nstages - skipped,
                LAB.nstages, passed, score, max);
    else fprintf(f, "\n%s: %d of %d stages pass; score %.1f / %.0f\n", LAB.id, passed, LAB.nstages, score, max);
}

static void test_entry(json *j, const char *stage, const char *check, double score, double max, int passed,
                       const char *reason, const char *output, const stage_result *s, const char *ceiling)
{
    char name[96];
    snprintf(name, sizeof name, "%s: %s", stage, check);
    json_begin_object(j);
    json_kv_string(j, "name", name);
    json_kv_number(j, "score", score);
    json_kv_number(j, "max_score", s && s->skipped ? 0 : max);
    if (!(s && s->skipped)) json_kv_string(j, "status", passed ? "passed" : "failed");
    json_kv_string(j, "output", output);
    json_key(j, "extra_data");
    json_begin_object(j);
    json_kv_string(j, "stage", stage);
    json_kv_string(j, "check", check);
    json_kv_string(j, "reason", reason);
    if (s) {
        json_kv_number(j, "gflops", s->gflops);
        json_kv_number(j, "gbs", s->gbs);
        json_kv_number(j, "ceiling_gflops", s->ceiling_gflops);
        json_kv_string(j, "ceiling", ceiling); /* what ceiling_gflops is: "stream", "blas", "pipeline", "chain" or "fp32" */
        json_kv_number(j, "fraction", s->fraction);
        json_kv_number(j, "required", s->required);
        json_kv_number(j, "speedup", s->speedup);
        json_kv_number(j, "speedup_required", s->speedup_required);
        if (s->speedup_required > 0) json_kv_number(j, "cpus", s->cpus); /* the kernel's count, over the timed calls */
        if (s->shared_cpu > 0) json_kv_number(j, "shared_cpu", s->shared_cpu); /* the probe of shared work (judge_shared) */
        if (s->gflops > 0 && s->stolen >= 0) json_kv_number(j, "stolen_cpus", s->stolen); /* the host's steal, then */
        if (s->gflops > 0 && s->waited >= 0) json_kv_number(j, "waited_cpus", s->waited); /* the run queue's */
        if (s->timed) { /* the timed calls: how many were proven, whose runner figure was not used, an empty one */
            json_kv_number(j, "proven_calls", s->proven);
            json_kv_number(j, "floored_calls", s->disagreed);
            json_kv_number(j, "empty_call_s", s->empty_seconds);
        }
        json_kv_number(j, "m", s->timed_shape.m);
        json_kv_number(j, "n", s->timed_shape.n);
        json_kv_number(j, "k", s->timed_shape.k);
        if (s->pipe.h2d > 0) {
            json_kv_number(j, "h2d_s", s->pipe.h2d);
            json_kv_number(j, "kernel_s", s->pipe.kernel);
            json_kv_number(j, "d2h_s", s->pipe.d2h);
        }
    }
    json_end_object(j);
    json_end_object(j);
}

int report_json(const lab_run *r, const char *path)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash) {
        *slash = '\0';
        mkdirs(dir);
    }
    /* Never through a link someone left in its place. */
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        if (fd >= 0) close(fd);
        return -1;
    }
    json j;
    json_open(&j, f);
    double score = 0;
    for (int i = 0; i < LAB.nstages; i++) score += r->stages[i].points_correct + r->stages[i].points_speed;
    char seed[32], summary[256];
    snprintf(seed, sizeof seed, "0x%016" PRIx64, r->seed);
    snprintf(summary, sizeof summary, "%s graded with seed %s", LAB.id, seed);
    json_begin_object(&j);
    json_kv_number(&j, "score", score);
    json_kv_string(&j, "output", summary);
    json_key(&j, "tests");
    json_begin_array(&j);
    for (int i = 0; i < LAB.nstages; i++) {
        const stage_result *s = &r->stages[i];
        const char *name = LAB.stages[i].name;
        int speed_failed = s->correct && !s->fast_enough;
        const char *skip = s->skipped ? s->detail : NULL;
        const char *ceiling = s->chain_bound ? "chain"
                              : s->fp32_bound ? "fp32"
                                              : (const char *[]){"stream", "blas", "pipeline"}[LAB.stages[i].problem->ceiling];
        int technique = !strcmp(s->reason, "technique"); /* no speed points, run or not */
        test_entry(&j, name, "correctness", s->points_correct, s->max_correct, s->correct,
                   s->correct ? "ok" : s->skipped ? "skipped" : s->reason, skip ? skip : s->correct ? "" : s->detail,
                   s->skipped ? s : NULL, ceiling);
        test_entry(&j, name, "speed", s->points_speed, s->max_speed, s->correct && s->fast_enough,
                   technique ? "technique" : s->correct ? (s->fast_enough ? "ok" : s->reason) : s->skipped ? "skipped" : "not-run",
                   skip ? skip : speed_failed ? s->detail : "", s, ceiling);
    }
    json_end_array(&j);
    json_key(&j, "extra_data");
    json_begin_object(&j);
    json_kv_string(&j, "lab", LAB.id);
    json_kv_string(&j, "seed", seed);
    json_kv_string(&j, "work", r->work);
    json_kv_string(&j, "cpu", r->mach.cpu);
    json_kv_number(&j, "cores", r->mach.cores);
    json_kv_number(&j, "threads", r->threads);
    json_kv_string(&j, "gpu", r->device);
    const char *driver = LAB.gpu && r->device[0] ? config_str(&r->gpu, "driver_cuda") : NULL;
    json_kv_string(&j, "gpu_driver_cuda", driver ? driver : "");
    json_kv_string(&j, "compiler", r->compiler);
    json_kv_string(&j, "cflags", r->cflags);
    char hash[20];
    snprintf(hash, sizeof hash, "%016llx", r->grader_hash);
    json_kv_string(&j, "grader_hash", hash);
    snprintf(hash, sizeof hash, "%016llx", r->config_hash);
    json_kv_string(&j, "thresholds_hash", hash);
    char replay[160];
    snprintf(replay, sizeof replay, "make grade LAB=%s SEED=%s (same machine, grader and thresholds hashes)", LAB.id, seed);
    json_kv_string(&j, "replay", replay);
    /* the chart's memory roof: this run's, or where nothing was timed (none measured), the calibration's */
    const bandwidth *bw = LAB.gpu || r->now_measured ? &r->now : &r->cached;
    json_kv_number(&j, "stream_gbs", bw->stream_gbs);
    json_kv_number(&j, "read_gbs", bw->read_gbs);
    json_kv_number(&j, "calibrated_stream_gbs", r->cached.stream_gbs);
    json_kv_string(&j, "bandwidth", r->ceiling); /* what stream_gbs measures: "triad" or "device copy" */
    json_kv_number(&j, "compute_gflops", r->compute_gflops); /* the roofline chart's compute roof (0: none) */
    json_kv_string(&j, "compute_source", r->compute_source);
    json_end_object(&j);
    json_end_object(&j);
    return fclose(f) ? -1 : 0;
}
