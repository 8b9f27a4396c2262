/* bench.c - see bench.h: `make bench` (a table of sizes per stage, and the compiler study) and
 * `make profile` (one stage's timed case under a profiler). Nothing here is graded. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build.h"
#include "cases.h"
#include "submission.h"
#include "judge.h"
#include "ncu.h"
#include "bench.h"
#include "util.h"

/* ---------------------------------------------------------------- bench */

/* A bench row whose one call would take longer than this (estimated from the row before) is
 * skipped, so `make bench` of any lab ends in minutes: the slow loop orders at 1024^3 take half a
 * minute a call and teach nothing the smaller sizes don't. */
#define BENCH_CALL_MAX_S 2.0

/* MAX_MIB: a row whose arrays would take more is skipped (a quick table, or a machine short of
 * memory); 0, no cap. */
static double bench_max_mib;

static int over_cap(const lab_problem *p, lab_shape s) { return bench_max_mib > 0 && p->bytes(s) / (1 << 20) > bench_max_mib; }

/* One row of the bench table; returns the seconds a call took (or, for a row skipped because
 * `expect` says a call would take too long, that estimate), 0 where it failed. */
static double bench_row(grader *g, int stage, lab_shape s, const char *label, double expect)
{
    const lab_problem *p = LAB.stages[stage].problem;
    stage_result res = {0};
    if (over_cap(p, s)) {
        char sh[64];
        shape_text(p, s, sh, sizeof sh);
        printf("  %-8s %-22s %9.1f  %-12s  skipped: over MAX_MIB=%g\n", label, sh, p->bytes(s) / (1 << 20),
               LAB.stages[stage].name, bench_max_mib);
        return 0;
    }
    if (expect > BENCH_CALL_MAX_S) {
        char sh[64];
        shape_text(p, s, sh, sizeof sh);
        printf("  %-8s %-22s %9.1f  %-12s  skipped: one call would take over %.0f s (estimated from the row before)\n",
               label, sh, p->bytes(s) / (1 << 20), LAB.stages[stage].name, BENCH_CALL_MAX_S);
        return expect;
    }
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
        return 0;
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
    else if (p->fp32_capped && g->run->fp32_gflops > 0 && g->run->fp32_gflops < g->run->now.stream_gbs * p->flops(s) / p->bytes(s))
        printf("  %-8s %-22s %9.1f  %-12s %9.2f %9.2f %8.0f%%   (of the FP32 peak: the lower roof here)\n", label, sh,
               mib, LAB.stages[stage].name, gf, gbs, 100 * gf / g->run->fp32_gflops);
    else
        printf("  %-8s %-22s %9.1f  %-12s %9.2f %9.2f %8.0f%%\n", label, sh, mib, LAB.stages[stage].name, gf, gbs,
               100 * gbs / g->run->now.stream_gbs);
    return res.seconds;
}

/* A call's time at shape s, from one measured at shape `at` (work scales with the flops). */
static double scaled(const lab_problem *p, double seconds, lab_shape at, lab_shape s)
{
    return seconds > 0 ? seconds * p->flops(s) / p->flops(at) : 0;
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

int find_cuda_tool(const options *opt, const char *name, char *out, size_t len)
{
    const char *home = opt->cuda_home && *opt->cuda_home ? opt->cuda_home : getenv("CUDA_HOME");
    if (home && *home) {
        snprintf(out, len, "%s/bin/%s", home, name);
        if (access(out, X_OK) == 0) return 0;
    }
    const char *slash = opt->nvcc ? strrchr(opt->nvcc, '/') : NULL;
    if (slash) {
        snprintf(out, len, "%.*s/%s", (int)(slash - opt->nvcc), opt->nvcc, name);
        if (access(out, X_OK) == 0) return 0;
    }
    if (find_program(name, out, len) == 0) return 0;
    snprintf(out, len, "/usr/local/cuda/bin/%s", name);
    return access(out, X_OK) == 0 ? 0 : -1;
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

/* ---------------------------------------------------------------- make profile on a GPU: ncu */

/* A stage's cases, in `cases`, and which is the timed one; the session ended, so that the timed
 * case's runner starts under the profiler. */
static int profiled_case(grader *g, const lab_problem *p, lab_case *cases)
{
    int n = problem_cases(g->run, p, cases), timed = n - 1;
    for (int i = 0; i < n; i++)
        if (cases[i].timed) timed = i;
    size_limits(g, p, cases, n);
    session_end(g);
    return timed;
}

/* The submission built for a profile, and the scratch folder's absolute path in dir (a profiler runs
 * in the runner's folder and writes its report here); 0, or the exit status to return. */
static int build_to_profile(const options *opt, grader *g, const char *source, char *dir)
{
    char msg[4096];
    if (build_submission(opt, g, source, config_str(&g->run->cfg, "cflags"), msg, sizeof msg) != BUILD_OK) {
        fprintf(stderr, "%s: %s\n", source, msg);
        return 1;
    }
    if (!realpath(g->scratch, dir)) die("cannot find %s", g->scratch);
    return 0;
}

/* The stage's timed case with its runner under Nsight Compute: the first few launches of the
 * student's kernels (every kernel but the runner's wb_*), each with the figures that explain a
 * kernel's speed, and the reference's where they were recorded. */
static int profile_gpu(const options *opt, grader *g, const char *source, int stage)
{
    char ncu[1024], log[1100], raw[1100];
    if (g->run->skip_why[0]) {
        printf("%s profile: %s (make profile of a CUDA lab runs Nsight Compute on a GPU)\n", LAB.id, g->run->skip_why);
        return 2;
    }
    if (find_cuda_tool(opt, "ncu", ncu, sizeof ncu)) {
        printf("%s profile: Nsight Compute (ncu) not found (it comes with the CUDA toolkit: CUDA_HOME/bin, or beside "
               "nvcc)\n", LAB.id);
        return 2;
    }
    char dir[PATH_MAX];
    int built = build_to_profile(opt, g, source, dir);
    if (built) return built;
    snprintf(log, sizeof log, "%s/ncu.csv", dir);
    /* --clock-control none: ncu would otherwise lock the GPU's clocks to base while it profiles, a
     * setting of the card's that other work on it (and the timings of the grader) would see */
    char *wrap[] = {ncu, "--clock-control", "none", "--csv", "--page", "raw", "--log-file", log, "--kernel-name-base", "function", "--kernel-name",
                    "regex:^(?!wb_)", "--launch-count", "4", "--section", "SpeedOfLight", "--section", "Occupancy",
                    "--section", "LaunchStats", "--section", "WarpStateStats", "--metrics",
                    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_"
                    "shared_op_st.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum", NULL};
    lab_case cases[LAB_MAX_CASES];
    const lab_problem *p = LAB.stages[stage].problem;
    int timed = profiled_case(g, p, cases);
    double timeout = g->lim.timeout_s;
    g->lim.timeout_s *= 10; /* each profiled launch is replayed for every group of counters */
    g->lim.wrapper = wrap, g->lim.wrapper_keeps_rights = 1, g->lim.cuda_tool = "ncu"; /* counters need the grader's rights */
    stage_result res = {0};
    outcome o = run_timed(g, stage, cases[timed].s, &res);
    session_end(g);
    g->lim.wrapper = NULL, g->lim.wrapper_keeps_rights = 0, g->lim.cuda_tool = NULL;
    g->lim.timeout_s = timeout;
    char sh[64];
    shape_text(p, cases[timed].s, sh, sizeof sh);
    printf("%s profile of %s at %s on %s: Nsight Compute over the first launches of your kernels\n", LAB.id,
           LAB.stages[stage].name, sh, g->run->device);
    char *text = read_text(log, 1 << 22);
    if (text && strstr(text, "ERR_NVGPUCTRPERM")) {
        printf("  the driver lets only administrators read the GPU's performance counters here (ERR_NVGPUCTRPERM): run "
               "as root, or ask for the driver option NVreg_RestrictProfilingToAdminUsers=0 "
               "(https://developer.nvidia.com/ERR_NVGPUCTRPERM)\n");
        free(text);
        return 2;
    }
    if (!o.ok) printf("  the stage did not run cleanly [%s]: %s\n", o.reason, o.detail);
    /* the header line (it names "Kernel Name"), the units line, then a row a kernel */
    ncu_kernel found[NCU_KERNELS_MAX];
    int kernels = ncu_read(text, found, NCU_KERNELS_MAX);
    char ref_path[1200];
    snprintf(ref_path, sizeof ref_path, "%s/profile/%s.txt", opt->lab_dir, LAB.stages[stage].name);
    char *ref = read_text(ref_path, 1 << 20);
    snprintf(raw, sizeof raw, "%s/profile-%s.txt", dir, LAB.stages[stage].name);
    FILE *keep = kernels ? fopen(raw, "w") : NULL;
    for (int k = 0; k < kernels; k++) {
        const ncu_kernel *nk = &found[k];
        printf("\n  kernel %d: %s%s\n", k, nk->name, ref ? "   (right: the reference's, as recorded in grading/.../profile/)" : "");
        if (keep) fprintf(keep, "kernel %d %s\n", k, nk->name);
        for (int m = 0; m < NCU_SHOWN; m++) {
            const ncu_metric *km = &ncu_shown[m];
            if (isnan(nk->value[m])) {
                printf("  %-28s %12s\n", km->label, "not measured");
                continue;
            }
            double r = ncu_recorded(ref, k, km->name);
            char rs[32] = "";
            if (!isnan(r)) snprintf(rs, sizeof rs, "%10.4g", r);
            printf("  %-28s %12.4g %-5s %10s  %s\n", km->label, nk->value[m], km->unit, rs, km->meaning);
            if (keep) fprintf(keep, "%.*s %.6g\n", (int)strcspn(km->name, "|"), km->name, nk->value[m]); /* its first name */
        }
        printf("  warp stalls, cycles per instruction issued (the three largest):\n");
        for (int t = 0; t < 3 && nk->stall[t] >= 0; t++)
            printf("    %-20s %8.2f  %s\n", ncu_stalls[nk->stall[t]].reason, nk->stall_cycles[t],
                   ncu_stalls[nk->stall[t]].meaning);
        if (nk->stall[0] < 0) printf("    not measured\n");
    }
    if (keep) fclose(keep);
    free(ref);
    if (!kernels) {
        printf("  no kernel of yours was profiled (ncu's log: %s)\n", log);
        int shown = 0; /* what ncu said of it: its errors and notes, not its warnings */
        for (char *line = text, *next; line && *line && shown < 8; line = next) {
            next = strchr(line, '\n');
            if (next) *next++ = '\0';
            if (!strncmp(line, "==ERROR==", 9) || !strncmp(line, "==PROF==", 8)) printf("    ncu: %s\n", line), shown++;
        }
        free(text);
        return o.ok ? 2 : 1;
    }
    free(text);
    printf("\nthe figures as numbers: %s (copied to grading/%s/profile/%s.txt, they are the reference's column)\n", raw,
           LAB.id, LAB.stages[stage].name);
    return o.ok ? 0 : 1;
}

/* The timed case of one stage, its runner run under `perf stat`: hardware counters over the
 * run (mostly the timed calls), each with what it means. CPU labs; the machine must let perf
 * read counters (virtual machines often hide them: then only the software ones show). */
int profile(const options *opt, grader *g, const char *source)
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
    if (LAB.gpu) return profile_gpu(opt, g, source, stage);
    char perf[1024], out[1100];
    if (find_program("perf", perf, sizeof perf)) {
        printf("%s profile: perf is not installed (Debian package linux-perf: apt-get install -y linux-perf)\n", LAB.id);
        return 2;
    }
    char dir[PATH_MAX];
    int built = build_to_profile(opt, g, source, dir);
    if (built) return built;
    snprintf(out, sizeof out, "%s/perf.txt", dir); /* absolute: perf runs in the scratch folder */
    char events[512] = "";
    for (size_t i = 0; i < sizeof counters / sizeof counters[0]; i++)
        snprintf(events + strlen(events), sizeof events - strlen(events), "%s%s", i ? "," : "", counters[i].event);
    char *wrap[] = {perf, "stat", "-x", ",", "-o", out, "-e", events, "--", NULL};
    lab_case cases[LAB_MAX_CASES];
    const lab_problem *p = LAB.stages[stage].problem;
    int timed = profiled_case(g, p, cases);
    g->lim.wrapper = wrap;
    g->lim.wrapper_keeps_rights = 1; /* perf counts with the grader's rights */
    stage_result res = {0};
    outcome o = run_timed(g, stage, cases[timed].s, &res);
    session_end(g);
    g->lim.wrapper = NULL;
    g->lim.wrapper_keeps_rights = 0;
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
/* STAGE=name benches that stage alone. */
static int benched(const options *opt, int stage)
{
    return !opt->stage || !*opt->stage || !strcmp(opt->stage, LAB.stages[stage].name);
}

/* The vendor library's routine for each problem that names one (lab_problem.vendor), at that
 * problem's bench sizes, each size once: what the stages are measured against besides the roof. */
static void vendor_rows(grader *g)
{
    char probe[1024], what[160] = "";
    snprintf(probe, sizeof probe, "%s/common/gpu-probe", g->run->build_dir);
    lab_shape done[LAB_MAX_CASES];
    int ndone = 0;
    for (int st = 0; st < LAB.nstages; st++) {
        const lab_problem *p = LAB.stages[st].problem;
        lab_case cases[LAB_MAX_CASES];
        int n = p->vendor ? p->bench_cases(g->run->mach.llc_bytes, cases) : 0;
        for (int i = 0; i < n; i++) {
            int seen = 0;
            for (int d = 0; d < ndone; d++) seen |= !memcmp(&done[d], &cases[i].s, sizeof done[d]);
            if (seen || ndone == LAB_MAX_CASES) continue;
            done[ndone++] = cases[i].s;
            char sh[64];
            shape_text(p, cases[i].s, sh, sizeof sh);
            double t = gpu_vendor(probe, g->scratch, p->vendor, cases[i].s, what, sizeof what);
            if (t <= 0) {
                printf("  %-8s %-22s %9.1f  %-12s  the probe failed (see %s/vendor-probe.txt)\n", "vendor", sh,
                       p->bytes(cases[i].s) / (1 << 20), p->vendor, g->scratch);
                continue;
            }
            double gbs = p->bytes(cases[i].s) / t * 1e-9;
            printf("  %-8s %-22s %9.1f  %-12s %9.2f %9.2f %8.0f%%\n", "vendor", sh, p->bytes(cases[i].s) / (1 << 20),
                   p->vendor, p->flops(cases[i].s) / t * 1e-9, gbs, 100 * gbs / g->run->now.stream_gbs);
        }
    }
    if (ndone) printf("vendor rows: %s, timed by the probe on its own data (median of 10 calls)\n", what);
}

int bench(const options *opt, grader *g, const char *source)
{
    char msg[4096];
    const char *cflags = config_str(&g->run->cfg, "cflags");
    g->same_inputs = 1; /* not graded: the time goes to measuring, not to references */
    bench_max_mib = opt->max_mib;
    if (g->run->skip_why[0]) {
        printf("%s bench: %s\n", LAB.id, g->run->skip_why);
        return 0;
    }
    if (build_submission(opt, g, source, cflags, msg, sizeof msg) != BUILD_OK) {
        fprintf(stderr, "%s: %s\n", source, msg);
        return 1;
    }
    printf("%s bench: %s; %s %.1f GB/s this run; seed 0x%016" PRIx64 "\n", LAB.id,
           LAB.gpu ? g->run->device : g->run->mach.cpu, g->run->ceiling, g->run->now.stream_gbs, g->run->seed);
    printf("columns: flags (the lab's compile flags, or the thread count), size, MiB (the arrays one call touches), "
           "GFLOP/s, GB/s (the compulsory bytes over the call's time), ceiling (below); a row whose one call would "
           "take over %.0f s is skipped\n", BENCH_CALL_MAX_S);
    int blas = 0, stream = 0;
    for (int st = 0; st < LAB.nstages; st++) blas |= LAB.stages[st].problem->ceiling == CEIL_BLAS;
    for (int st = 0; st < LAB.nstages; st++) stream |= LAB.stages[st].problem->ceiling != CEIL_BLAS &&
                                                     LAB.stages[st].problem->ceiling != CEIL_PIPELINE;
    if (stream)
        printf("ceiling column: for bandwidth-bound stages, GB/s as %% of the %s bandwidth measured in this run\n",
               g->run->ceiling);
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
        if (!benched(opt, st)) continue;
        const lab_problem *p = LAB.stages[st].problem;
        lab_case cases[LAB_MAX_CASES];
        int n = p->bench_cases(g->run->mach.llc_bytes, cases);
        double took[257] = {0}; /* a call's seconds at the previous size, by thread count (0: default) */
        for (int i = 0; i < n; i++) {
            lab_shape before = cases[i > 0 ? i - 1 : 0].s;
            if (LAB.threads == 1 || LAB.gpu)
                took[0] = bench_row(g, st, cases[i].s, "default", scaled(p, took[0], before, cases[i].s));
            for (int t = 1; t <= g->run->threads && t <= 256 && LAB.threads != 1 && !LAB.gpu; t++) { /* scaling */
                char label[16];
                snprintf(label, sizeof label, "%d thr", t);
                g->case_threads = t;
                took[t] = bench_row(g, st, cases[i].s, label, scaled(p, took[t], before, cases[i].s));
            }
            g->case_threads = 0;
        }
    }
    if (LAB.gpu) vendor_rows(g);
    if (LAB.gpu) return 0;
    /* From -O3 down: a level is taken to be at most 3x slower than the one above it, so a row that
     * would pass the time limit is skipped before it runs. */
    static const char *levels[] = {"-O3", "-O2", "-O1", "-O0"};
    double took[16][LAB_MAX_CASES] = {{0}}; /* a call's seconds at the level above */
    printf("\ncompiler study: the graded timed size at each optimisation level, -O3 down to -O0 (flags: %s, level "
           "replaced)%s\n", cflags, bench_max_mib > 0 ? "; where that size is over MAX_MIB, the largest bench size under it" : "");
    for (int l = 0; l < 4; l++) {
        char flags[512], *o3;
        snprintf(flags, sizeof flags, "%s", cflags);
        if ((o3 = strstr(flags, "-O3"))) memcpy(o3, levels[l], 3);
        if (build_submission(opt, g, source, flags, msg, sizeof msg) != BUILD_OK) {
            printf("  %s: %s\n", levels[l], msg);
            continue;
        }
        for (int st = 0; st < LAB.nstages; st++) {
            if (!benched(opt, st)) continue;
            const lab_problem *p = LAB.stages[st].problem;
            lab_case graded[LAB_MAX_CASES], sizes[LAB_MAX_CASES];
            int ng = problem_cases(g->run, p, graded), nb = p->bench_cases(g->run->mach.llc_bytes, sizes);
            for (int i = 0; i < ng && i < LAB_MAX_CASES && st < 16; i++) {
                if (!graded[i].timed) continue;
                lab_shape s = graded[i].s;
                for (int b = 0; over_cap(p, graded[i].s) && b < nb; b++) /* the largest bench size under the cap */
                    if (!over_cap(p, sizes[b].s) && (over_cap(p, s) || p->bytes(sizes[b].s) > p->bytes(s))) s = sizes[b].s;
                took[st][i] = bench_row(g, st, s, levels[l], 3 * took[st][i]);
            }
        }
    }
    return 0;
}
