/* grade.c - the scorer: grades one lab's work and decides the score. It never runs student code.
 *
 * Per lab: the set-up (calibration, the ceilings measured now), the student's runner built and
 * audited (build.c, audit.c), then stage by stage its cases -> one sandboxed runner session
 * (session.c, sandbox.c) -> the checks of everything sent back (checks.c, against cases.c's
 * reference) -> the judge (judge.c) -> the report (report.c). `make bench` and `make profile`
 * are bench.c's. */
#define _GNU_SOURCE
#include <getopt.h>
#include <omp.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build.h"
#include "grade.h"
#include "report.h"
#include "bench.h"
#include "submission.h"
#include "session.h"
#include "judge.h"
#include "problems.h"
#include "stats.h"
#include "util.h"


/* ---------------------------------------------------------------- set-up */

static void usage(void)
{
    fprintf(stderr, "usage: grade --lab-dir grading/NN-name --work DIR --build DIR --runner-base OBJ\n"
                    "             [--results DIR] [--seed S] [--timeout SECONDS] [--cuda-arch NN] [--cuda-home DIR]\n"
                    "             [--nvcc PATH (empty: no CUDA toolkit)]\n"
                    "             [--sanitize (correctness only, under AddressSanitizer and UBSan)]\n"
                    "             [--stage STAGE (grade that stage only)]\n"
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
        {"nvcc", 1, 0, 'n'}, {"sanitize", 0, 0, 'S'}, {"profile", 1, 0, 'P'}, {"stage", 1, 0, 'T'}, {"max-mib", 1, 0, 'M'},
        {0, 0, 0, 0},
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
        case 'T': o.stage = optarg; break;
        case 'M':
            o.max_mib = strtod(optarg, &end);
            if (*end || !*optarg || o.max_mib <= 0) die("MAX_MIB=%s is not a positive number of MiB", optarg);
            break;
        default: usage();
        }
    }
    if (!o.lab_dir || !o.build || (!o.list && !o.calibrate && (!o.work || !o.runner_base)) || optind != argc) usage();
    return o;
}

/* STAGE=name must name one of the lab's stages: otherwise say which there are (status 2). */
static void check_stage_name(const char *stage)
{
    char names[1024] = "";
    for (int i = 0; i < LAB.nstages; i++) {
        if (!strcmp(stage, LAB.stages[i].name)) return;
        snprintf(names + strlen(names), sizeof names - strlen(names), " %s", LAB.stages[i].name);
    }
    die("%s has no stage '%s'; its stages are:%s", LAB.id, stage, names);
}

static void list_stages(void)
{
    printf("%s: %s%s (edit %s)\n", LAB.id, LAB.title, LAB.threads == 0 ? " (timed on all cores)" : "", LAB.source);
    for (int i = 0; i < LAB.nstages; i++)
        printf("  %d  %-12s %-22s %s\n", i + 1, LAB.stages[i].name, LAB.stages[i].function, LAB.stages[i].what);
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
        const char *only = config_str(&r->cfg, "gpu_arch"); /* a one-architecture lab says which GPU it needs */
        char need[160] = "";
        if (only && *only) gpu_arch_need(only, need, sizeof need);
        snprintf(r->skip_why, sizeof r->skip_why, "skipped: no CUDA device%s%s", *need ? "; this lab needs " : "", need);
        return;
    }
    snprintf(r->device, sizeof r->device, "%s", config_str(&r->gpu, "name"));
    /* a lab built for one architecture (gpu_arch = 90a: wgmma, setmaxnreg) runs on that one alone */
    if (gpu_arch_refused(config_str(&r->cfg, "gpu_arch"), config_str(&r->gpu, "arch"), r->device, r->skip_why,
                         sizeof r->skip_why))
        return;
    r->gpu_busy = (int)config_num_or(&r->gpu, "other_processes", -1);
    r->mach.llc_bytes = (size_t)config_num(&r->gpu, "l2_bytes");
    r->now.stream_gbs = r->now.read_gbs = config_num_or(&r->gpu, "copy_gbs", 0);
    r->fp32_gflops = config_num_or(&r->gpu, "fp32_gflops", 0);
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
    /* WB_CALIBRATION=dir: the calibration cache kept elsewhere (a course's shared figures; the
     * tests play a busy machine with one scaled up). */
    const char *cal = getenv("WB_CALIBRATION");
    if (cal && *cal) snprintf(path, sizeof path, "%s", cal);
    else snprintf(path, sizeof path, "%s/calibration", opt->build);
    mkdirs(path);
    r->ceiling = "triad";
    /* thresholds.conf's size_past_usable_cache = 1: sizes past the cache this machine's cores can
     * use (usable_llc), not the one it reports (lab 02: a 2-core VM reporting 260 MiB timed ikj at
     * 256 x 8192 x 8192, 34 GFLOP a call, past the grader's timeout) */
    if (!LAB.gpu && config_num_or(&r->cfg, "size_past_usable_cache", 0) > 0)
        r->mach.llc_bytes = usable_llc(path, &r->mach, opt->calibrate);
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
    g->lim.sanitize = opt->sanitize; /* CPU: ASan and UBSan built in; GPU: under compute-sanitizer (judge.c) */
    r->sanitize = g->lim.sanitize;
    g->min_time = config_num(&r->cfg, "min_time_s");
    g->min_calls = (unsigned)config_num(&r->cfg, "min_calls");
    g->max_calls = (unsigned)config_num(&r->cfg, "max_calls");
    g->trials = (unsigned)config_num(&r->cfg, "trials");
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

/* The compute roof of the lab's roofline chart (common/tools/roofline.c), recorded in the results; it
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
    else if (LAB.gpu && lab_fp32_capped() && r->fp32_gflops > 0) { /* the roof its stages are judged against */
        r->compute_gflops = r->fp32_gflops;
        snprintf(r->compute_source, sizeof r->compute_source, "FP32 peak (a kernel of independent FMAs), measured "
                 "while grading");
        return;
    } else if (LAB.gpu && r->sgemm_gflops > 0) {
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
    /* The scorer's references use OpenMP for a GPU lab's large inputs. A CPU lab's runner needs
     * every core, and idle OpenMP workers of the scorer spin for a while after each region. */
    if (!LAB.gpu) omp_set_num_threads(1);
    options opt = parse_args(argc, argv);
    if (opt.list) {
        list_stages();
        return 0;
    }
    static lab_run r;
    static grader g;
    phase("start");
    setup(&opt, &r, &g);
    phase("setup (calibration, GPU probe)");
    if (opt.calibrate) {
        print_calibration(&r);
        return 0;
    }
    make_scratch(&opt, &g);
    if (opt.sanitize && LAB.gpu && !r.skip_why[0] && find_cuda_tool(&opt, "compute-sanitizer", g.sanitizer, sizeof g.sanitizer))
        snprintf(r.skip_why, sizeof r.skip_why, "skipped: SANITIZE=1 needs compute-sanitizer, part of the CUDA toolkit "
                 "(not in CUDA_HOME/bin, beside nvcc or on PATH)");
    /* Bench and profile use the roofs measured now; grading measures them once a stage is about to
     * be timed (judge.c), and again before each bandwidth-bound stage. */
    if (opt.bench || opt.profile) measure_now_once(&g, ROOF_SECONDS);
    phase("bandwidth now");
    char source[2048];
    snprintf(source, sizeof source, "%s/%s/%s", opt.work, LAB.id, LAB.source);
    if (opt.stage && *opt.stage) check_stage_name(opt.stage);
    if (opt.bench) return bench(&opt, &g, source);
    if (opt.profile) return profile(&opt, &g, source);

    /* Build even where the lab can't run, so compile errors and audit findings still show. */
    if (!(LAB.gpu && strstr(r.skip_why, "toolkit")))
        r.build_status = build_submission(&opt, &g, source, config_str(&r.cfg, "cflags"), r.build_error, sizeof r.build_error);
    phase("build and audit");
    int all = 1;
    for (int st = 0; st < LAB.nstages; st++) {
        stage_result *res = &r.stages[st];
        stage_points(&r.cfg, st, res);
        if (r.build_status != BUILD_OK) {
            snprintf(res->reason, sizeof res->reason, "%s", r.build_status == BUILD_AUDIT ? "audit" : "build");
            snprintf(res->detail, sizeof res->detail, "%s", r.build_error);
        } else if (opt.stage && *opt.stage && strcmp(opt.stage, LAB.stages[st].name)) {
            res->skipped = 1;
            snprintf(res->reason, sizeof res->reason, "skipped");
            snprintf(res->detail, sizeof res->detail, "not graded this run (STAGE=%s grades that stage only)", opt.stage);
        } else if (r.skip_why[0] && res->technique[0]) { /* not run, but its speed points are known lost */
            res->skipped = 1;
            snprintf(res->reason, sizeof res->reason, "technique");
            snprintf(res->detail, sizeof res->detail, "%s\n(correctness not checked here: %s)", res->technique, r.skip_why);
        } else if (r.skip_why[0]) {
            res->skipped = 1;
            snprintf(res->reason, sizeof res->reason, "skipped");
            snprintf(res->detail, sizeof res->detail, "%s", r.skip_why);
        } else grade_stage(&g, st, res);
    }
    relative_requirements(&r);
    compute_roof(&g);
    for (int st = 0; st < LAB.nstages; st++)
        all &= strcmp(r.stages[st].reason, "technique") &&
               (r.stages[st].skipped || (r.stages[st].correct && r.stages[st].fast_enough));
    phase("stages");
    report_table(&r, stdout);
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.json", opt.results ? opt.results : "build/results", LAB.id);
    if (report_json(&r, path)) fprintf(stderr, "grade: could not write %s\n", path);
    return all ? 0 : 1;
}
