/* calib.c - see calib.h. */
#define _GNU_SOURCE
#include "calib.h"
#include "config.h"
#include "stats.h"
#include "tool.h"
#include "util.h"

#include <math.h>
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static size_t parse_size(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    if (*end == 'K') v *= 1024;
    if (*end == 'M') v *= 1024 * 1024;
    return (size_t)v;
}

/* The largest cache any cpu0 cache level reports: the last-level cache. */
static size_t read_llc(void)
{
    size_t best = 0;
    for (int i = 0; i < 8; i++) {
        char path[96];
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        char *s = read_text(path, 64);
        if (!s) continue;
        size_t v = parse_size(s);
        if (v > best) best = v;
        free(s);
    }
    if (best == 0) {
        long v = sysconf(_SC_LEVEL3_CACHE_SIZE);
        best = v > 0 ? (size_t)v : (size_t)32 << 20;
    }
    return best;
}

/* The cores this process may use: its affinity mask (taskset, a SLURM or container cpuset), no more
 * than a cgroup v2 CPU quota allows (docker --cpus). Not the cores the machine has online: a job given
 * 2 of 64 cores that started 64 threads would time oversubscription. */
static int usable_cores(void)
{
    cpu_set_t set;
    int n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : (int)sysconf(_SC_NPROCESSORS_ONLN);
    char *quota = read_text("/sys/fs/cgroup/cpu.max", 256);
    long max, period;
    if (quota && sscanf(quota, "%ld %ld", &max, &period) == 2 && max > 0 && period > 0) {
        long q = (max + period - 1) / period;
        if (q < n) n = (int)q;
    }
    free(quota);
    return n > 0 ? n : 1;
}

void machine_read(machine *m)
{
    memset(m, 0, sizeof *m);
    snprintf(m->cpu, sizeof m->cpu, "unknown cpu");
    char *info = read_text("/proc/cpuinfo", 1 << 16);
    char *p = info ? strstr(info, "model name") : NULL;
    if (p && (p = strchr(p, ':'))) {
        p += 2;
        size_t n = strcspn(p, "\n");
        snprintf(m->cpu, sizeof m->cpu, "%.*s", (int)n, p);
    }
    free(info);
    m->cores = usable_cores();
    m->llc_bytes = read_llc();
    char host[64] = "";
    gethostname(host, sizeof host - 1);
    char desc[512];
    snprintf(desc, sizeof desc, "%s|%d|%zu|%ld|%s", m->cpu, m->cores, m->llc_bytes,
             sysconf(_SC_PHYS_PAGES), host);
    snprintf(m->key, sizeof m->key, "%016llx", (unsigned long long)fnv1a(desc, strlen(desc), 0));
}

/* A sum with eight independent chains, so bandwidth and not add latency limits it. */
static double sum_stream(const double *v, size_t n)
{
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        s0 += v[i], s1 += v[i + 1], s2 += v[i + 2], s3 += v[i + 3];
        s4 += v[i + 4], s5 += v[i + 5], s6 += v[i + 6], s7 += v[i + 7];
    }
    for (; i < n; i++) s0 += v[i];
    return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
}

/* One chain of dependent adds, in G adds a second: the best of a few passes of about a
 * millisecond. Without -ffast-math the compiler keeps the order written, so each add waits for
 * the one before it (its latency, 3-4 cycles on current cores). */
static double measure_chain(void)
{
    enum { ADDS = 1 << 20, PASSES = 8 };
    volatile double step = 0x1p-40; /* read once: a value the compiler can't fold */
    double d = step, s = 0, best = INFINITY;
    for (int p = 0; p <= PASSES; p++) { /* pass 0 warms up */
        double t0 = now_s();
        for (int i = 0; i < ADDS; i += 8) {
            s += d, s += d, s += d, s += d;
            s += d, s += d, s += d, s += d;
        }
        if (p > 0) best = fmin(best, now_s() - t0);
    }
    if (s == 42.0) puts(""); /* keep the chain alive */
    return ADDS / best * 1e-9;
}

/* STREAM-style triad and a read-only sum, each over about `bytes` bytes; and the one-chain add rate. */
bandwidth measure_bandwidth(int threads, size_t bytes, double seconds)
{
    size_t n = bytes / (3 * sizeof(double));
    double *a = big_take(n * sizeof *a), *b = big_take(n * sizeof *b), *c = big_take(n * sizeof *c);
    const double s = 1.5;
    /* At least MIN_PASSES and `seconds` of them: the best of a few milliseconds swings with a
     * neighbour's moment (5% between runs here), the best of a tenth of a second much less. */
    enum { MIN_PASSES = 7, MAX_PASSES = 400 };
    double bt = INFINITY, br = INFINITY, sink = 0, start = now_s();
#pragma omp parallel for num_threads(threads) schedule(static)
    for (size_t i = 0; i < n; i++) { /* first touch by the threads that will stream the data */
        a[i] = 0;
        b[i] = 1;
        c[i] = 2;
    }
    for (int p = 0; p <= MAX_PASSES && (p <= MIN_PASSES || now_s() - start < seconds); p++) { /* pass 0 warms up */
        double t0 = now_s();
#pragma omp parallel for num_threads(threads) schedule(static)
        for (size_t i = 0; i < n; i++) a[i] = b[i] + s * c[i];
        double t1 = now_s(), sum = 0;
        const double *arrays[3] = {a, b, c};
        for (int k = 0; k < 3; k++) {
#pragma omp parallel num_threads(threads) reduction(+ : sum)
            {
                int t = omp_get_thread_num(), nt = omp_get_num_threads();
                size_t lo = n * (size_t)t / (size_t)nt, hi = n * (size_t)(t + 1) / (size_t)nt;
                sum += sum_stream(arrays[k] + lo, hi - lo);
            }
        }
        /* The best pass, as STREAM reports: on a shared machine a neighbour only ever slows a pass. */
        if (p > 0) bt = fmin(bt, t1 - t0), br = fmin(br, now_s() - t1);
        sink += sum;
    }
    if (sink == 42.0) puts(""); /* keep the sums alive */
    big_give(a);
    big_give(b);
    big_give(c);
    return (bandwidth){24.0 * n / bt * 1e-9, 24.0 * n / br * 1e-9, measure_chain()};
}

/* One thread's read rate over the first `bytes` of v (GB/s): the best of three passes at least,
 * and of as many as fit in 20 ms. */
static double read_rate(const double *v, size_t bytes)
{
    size_t n = bytes / sizeof *v;
    double best = INFINITY, sink = 0, start = now_s();
    for (int p = 0; p <= 3 || (now_s() - start < 0.02 && p < 64); p++) { /* pass 0 warms up */
        double t0 = now_s();
        sink += sum_stream(v, n);
        if (p > 0) best = fmin(best, now_s() - t0);
    }
    if (sink == 42.0) puts("");
    return bytes / best * 1e-9;
}

size_t cache_knee(size_t llc)
{
    size_t top = 2 * llc < ((size_t)256 << 20) ? (size_t)256 << 20 : 2 * llc;
    if (top > ((size_t)1 << 30)) top = (size_t)1 << 30;
    double *v = xmalloc(top);
    for (size_t i = 0; i < top / sizeof *v; i++) v[i] = 1; /* touched: no page is first met while timed */
    double rate[32], memory = read_rate(v, top);
    size_t size[32], knee = 0;
    int k = 0;
    for (size_t b = (size_t)8 << 20; b < top && k < 32; b *= 2, k++) size[k] = b, rate[k] = read_rate(v, b);
    free(v);
    /* the last of the sizes, from the smallest up, still read well above memory's rate */
    for (int i = 0; i < k && rate[i] >= 1.25 * memory; i++) knee = size[i];
    return knee;
}

size_t usable_llc(const char *dir, const machine *m, int force)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s-llc.conf", dir, m->key);
    char *text = force ? NULL : read_text(path, 4096);
    double cached = 0;
    int ok = text && sscanf(text, "llc_bytes = %lf", &cached) == 1 && cached >= (1 << 20);
    free(text);
    if (ok) return (size_t)cached;
    /* the cache lies between the knee and twice it: twice, so that "past it" stays past it */
    size_t knee = cache_knee(m->llc_bytes), llc = knee && 2 * knee < m->llc_bytes ? 2 * knee : m->llc_bytes;
    mkdir(dir, 0755);
    FILE *f = fopen(path, "w");
    if (f) {
        fprintf(f, "llc_bytes = %zu\n# %s: the cache reports %zu bytes; one thread reads %zu bytes well above "
                   "memory's rate, %s\n", llc, m->cpu, m->llc_bytes, knee,
                knee && 2 * knee < m->llc_bytes ? "so twice that is what sizes are judged past" : "so the size reported is");
        fclose(f);
    }
    return llc;
}

static int read_cache(const char *path, bandwidth *out)
{
    char *text = read_text(path, 4096);
    if (!text) return -1;
    int ok = sscanf(text, "stream_gbs = %lf\nread_gbs = %lf", &out->stream_gbs, &out->read_gbs) == 2;
    free(text);
    return ok && out->stream_gbs > 0 && out->read_gbs > 0 ? 0 : -1;
}

int calibration(const char *dir, const machine *m, int threads, int force, bandwidth *out)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s-t%d.conf", dir, m->key, threads);
    if (!force && read_cache(path, out) == 0) return 0;
    fprintf(stderr, "calibrating this machine (%s, %d thread%s): memory bandwidth ...\n", m->cpu, threads,
            threads > 1 ? "s" : "");
    *out = measure_bandwidth(threads, 4 * m->llc_bytes, ROOF_SECONDS);
    mkdir(dir, 0755);
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fprintf(f, "stream_gbs = %.3f\nread_gbs = %.3f\n# %s, %d cores, last-level cache %zu bytes, %d thread(s)\n",
            out->stream_gbs, out->read_gbs, m->cpu, m->cores, m->llc_bytes, threads);
    return fclose(f) ? -1 : 0;
}

/* Run a probe program (argv), keep its "key = value" output in out_path and parse it into c. */
static int run_probe(char *const argv[], const char *out_path, config *c)
{
    char err[256];
    /* The GPU probe's cuBLAS reference for 8192^2 outputs is 512 MiB. */
    if (run_tool_files(argv, out_path, 600, (size_t)4 << 30) != 0) return -1;
    snprintf(c->path, sizeof c->path, "%s", out_path);
    char *text = read_text(out_path, 1 << 16);
    int rc = text ? config_parse(c, text, err, sizeof err) : -1;
    free(text);
    return rc;
}

int gpu_probe(const char *probe, const char *args, const char *out_path, config *c)
{
    char *argv[] = {(char *)probe, (char *)args, NULL};
    return run_probe(argv, out_path, c);
}

int gpu_calibration(const char *dir, const machine *m, const char *device, const char *probe, int force, config *c)
{
    char path[1024], key[300];
    snprintf(key, sizeof key, "%s|%s", m->key, device);
    snprintf(path, sizeof path, "%s/%016llx-gpu.conf", dir, (unsigned long long)fnv1a(key, strlen(key), 0));
    char err[256];
    if (!force && config_load(c, path, err, sizeof err) == 0 && config_str(c, "sgemm_gflops")) return 0;
    fprintf(stderr, "calibrating this GPU (%s): copy bandwidth, cuBLAS SGEMM and HGEMM ...\n", device);
    mkdir(dir, 0755);
    return gpu_probe(probe, "--blas", path, c);
}

/* Kernels OpenBLAS falls back to on a CPU it does not recognise: none uses AVX2. */
static int generic_core(const char *name)
{
    static const char *const old[] = {"Prescott", "Core2", "Penryn", "Dunnington", "Nehalem", "Atom", "Katmai",
                                      "Coppermine", "Northwood", "Banias", "Opteron", "Barcelona", "Sandybridge",
                                      "generic", "Generic", NULL};
    for (int i = 0; old[i]; i++)
        if (name && strcmp(name, old[i]) == 0) return 1;
    return 0;
}

/* The kernel OpenBLAS chooses on this machine by itself: asked of the probe once a process (it
 * chooses when it loads, so nothing need be timed), "?" if the probe could not say. */
static const char *blas_own_choice(const char *probe, const char *out)
{
    static char core[64];
    if (core[0]) return core;
    char *argv[] = {"env", "-u", "OPENBLAS_CORETYPE", (char *)probe, "corename", NULL};
    config c = {0};
    int rc = run_probe(argv, out, &c);
    snprintf(core, sizeof core, "%s", rc == 0 && config_str(&c, "corename") ? config_str(&c, "corename") : "?");
    config_free(&c);
    return core;
}

static double run_blas_probe(const char *probe, const char *out, int m, int n, int k, int threads,
                             const char *coretype, char *core, size_t corelen)
{
    char dims[3][16], th[48], ct[64];
    snprintf(dims[0], 16, "%d", m);
    snprintf(dims[1], 16, "%d", n);
    snprintf(dims[2], 16, "%d", k);
    snprintf(th, sizeof th, "OPENBLAS_NUM_THREADS=%d", threads);
    snprintf(ct, sizeof ct, "OPENBLAS_CORETYPE=%s", coretype ? coretype : "");
    char *argv[] = {"env", "-u", "OPENBLAS_CORETYPE", th, coretype ? ct : th, (char *)probe, dims[0], dims[1], dims[2],
                    NULL};
    config c = {0};
    int rc = run_probe(argv, out, &c);
    double g = rc == 0 ? config_num_or(&c, "dgemm_gflops", 0) : 0;
    snprintf(core, corelen, "%s", rc == 0 && config_str(&c, "corename") ? config_str(&c, "corename") : "?");
    config_free(&c);
    return g;
}

double blas_dgemm_gflops(const char *probe, const char *scratch, int m, int n, int k, int threads, char *note,
                         size_t len)
{
    char out[1024], core[64], flags_core[64] = "";
    snprintf(out, sizeof out, "%s/blas-probe.txt", scratch);
    char *info = read_text("/proc/cpuinfo", 1 << 16), *flags = info ? strstr(info, "flags") : NULL;
    if (flags) *strchrnul(flags, '\n') = '\0';
    if (flags && strstr(flags, " avx512f")) snprintf(flags_core, sizeof flags_core, "SkylakeX");
    else if (flags && strstr(flags, " avx2")) snprintf(flags_core, sizeof flags_core, "Haswell");
    free(info);
    /* Where OpenBLAS would fall back to a generic kernel (its table lacks this CPU: a Prescott
     * kernel ran dgemm at a third of SkylakeX's on a Xeon VM), only the real core's is timed. */
    const char *own = blas_own_choice(probe, out);
    if (generic_core(own) && flags_core[0]) {
        char again[64];
        double g = run_blas_probe(probe, out, m, n, k, threads, flags_core, again, sizeof again);
        snprintf(note, len, "OpenBLAS chose %s on this CPU; measured with OPENBLAS_CORETYPE=%s (kernel %s)", own,
                 flags_core, again);
        if (g > 0) return g;
    }
    double g = run_blas_probe(probe, out, m, n, k, threads, NULL, core, sizeof core);
    snprintf(note, len, "OpenBLAS kernel %s", core);
    return g;
}

double gpu_gemm(const char *probe, const char *scratch, const char *kind, int m, int n, int k, double alpha,
                double beta, const void *in, size_t in_bytes, float *out)
{
    char dims[5][32], inp[1024], outp[1024], log[1024];
    snprintf(dims[0], 32, "%d", m);
    snprintf(dims[1], 32, "%d", n);
    snprintf(dims[2], 32, "%d", k);
    snprintf(dims[3], 32, "%.17g", alpha);
    snprintf(dims[4], 32, "%.17g", beta);
    snprintf(inp, sizeof inp, "%s/gemm-in.bin", scratch);
    snprintf(outp, sizeof outp, "%s/gemm-out.bin", scratch);
    snprintf(log, sizeof log, "%s/gemm-probe.txt", scratch);
    if (in) {
        FILE *f = fopen(inp, "wb");
        if (!f || fwrite(in, 1, in_bytes, f) != in_bytes || fclose(f)) return 0;
    }
    char *argv[] = {(char *)probe, "--gemm", (char *)kind, dims[0], dims[1], dims[2], dims[3], dims[4],
                    in ? inp : NULL, outp, NULL};
    config c = {0};
    double g = run_probe(argv, log, &c) == 0 ? config_num_or(&c, "gemm_gflops", 0) : 0;
    config_free(&c);
    if (in) {
        size_t want = 2 * (size_t)m * n * sizeof(float);
        FILE *f = fopen(outp, "rb");
        int ok = f && fread(out, 1, want, f) == want;
        if (f) fclose(f);
        unlink(inp);
        unlink(outp);
        if (!ok) return 0;
    }
    return g;
}

/* The probe's `mode` (--pipeline N DEGREE, --pipeline-matvec M N) with its two numbers. */
static int pipeline_probe(const char *probe, const char *scratch, const char *mode, int a, int b, pipeline_times *out)
{
    char aa[32], bb[32], log[1024];
    snprintf(aa, sizeof aa, "%d", a);
    snprintf(bb, sizeof bb, "%d", b);
    snprintf(log, sizeof log, "%s/pipeline-probe.txt", scratch);
    char *argv[] = {(char *)probe, (char *)mode, aa, bb, NULL};
    config c = {0};
    int rc = run_probe(argv, log, &c);
    *out = (pipeline_times){config_num_or(&c, "h2d_s", 0), config_num_or(&c, "kernel_s", 0),
                            config_num_or(&c, "d2h_s", 0), config_num_or(&c, "stream_create_us", 0),
                            config_num_or(&c, "kernel_best_s", 0)};
    config_free(&c);
    return rc == 0 && out->h2d > 0 && out->kernel > 0 && out->d2h > 0 ? 0 : -1;
}

int gpu_pipeline(const char *probe, const char *scratch, int n, int degree, pipeline_times *out)
{
    return pipeline_probe(probe, scratch, "--pipeline", n, degree, out);
}

int gpu_pipeline_matvec(const char *probe, const char *scratch, int m, int n, pipeline_times *out)
{
    return pipeline_probe(probe, scratch, "--pipeline-matvec", m, n, out);
}

double gpu_vendor(const char *probe, const char *scratch, const char *name, lab_shape s, char *what, size_t len)
{
    char dims[3][32], log[1024];
    snprintf(dims[0], 32, "%d", s.m);
    snprintf(dims[1], 32, "%d", s.n);
    snprintf(dims[2], 32, "%d", s.k);
    snprintf(log, sizeof log, "%s/vendor-probe.txt", scratch);
    char *argv[] = {(char *)probe, "--vendor", (char *)name, dims[0], dims[1], dims[2], NULL};
    config c = {0};
    double t = run_probe(argv, log, &c) == 0 ? config_num_or(&c, "vendor_seconds", 0) : 0;
    snprintf(what, len, "%s", config_str(&c, "vendor") ? config_str(&c, "vendor") : name);
    config_free(&c);
    return t;
}
