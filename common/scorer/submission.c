/* submission.c - see submission.h. */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "bench.h"
#include "submission.h"
#include "technique.h"
#include "tool.h"
#include "util.h"

/* SANITIZE=1 (CPU labs): the student's file instrumented; a finding ends the runner (sandbox.c).
 * GPU labs: line tables in the device code, so compute-sanitizer names the student's lines. */
#define SANITIZE_FLAGS "-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g"
#define SANITIZE_FLAGS_CUDA "-lineinfo"


/* The student's compile flags: the lab's, and for CUDA the architecture of the GPU graded on
 * (CUDA_ARCH overrides; with no GPU, sm_90 alone, so the code still compiles and is audited). A lab
 * whose instructions exist on one architecture alone names it (`gpu_arch = 90a`, lab 12), and is
 * built for that one everywhere; setup_gpu skips it on any other GPU. */
static void compile_flags(const options *opt, const lab_run *r, const char *cflags, char *out, size_t len)
{
    const char *only = config_str(&r->cfg, "gpu_arch");
    if (!LAB.gpu) {
        snprintf(out, len, "%s", cflags);
        return;
    }
    if (only && *only)
        snprintf(out, len, "%s -gencode=arch=compute_%s,code=sm_%s", cflags, only, only);
    else if (opt->cuda_arch && *opt->cuda_arch)
        snprintf(out, len, "%s -gencode=arch=compute_%s,code=sm_%s", cflags, opt->cuda_arch, opt->cuda_arch);
    else if (r->device[0])
        snprintf(out, len, "%s -gencode=arch=compute_%s,code=sm_%s", cflags, config_str(&r->gpu, "arch"),
                 config_str(&r->gpu, "arch"));
    else /* no device: nothing runs, so one architecture is enough to show compile errors and audit findings */
        snprintf(out, len, "%s -gencode=arch=compute_90,code=sm_90", cflags);
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

/* A stage whose technique thresholds.conf names (technique_<stage>, technique.h): where its code lacks
 * it, res->technique says so. The stage's function is the first its `function` names. */
const char *technique_spec(const config *cfg, int stage)
{
    char key[128];
    snprintf(key, sizeof key, "technique_%s", LAB.stages[stage].name);
    const char *spec = config_str(cfg, key);
    return spec && *spec ? spec : NULL;
}

static void stage_technique(const build_spec *b, const config *cfg, int stage, stage_result *res)
{
    char fn[256], msg[sizeof res->technique];
    const char *spec = technique_spec(cfg, stage);
    res->technique[0] = '\0';
    if (!spec) return;
    /* a CUDA lab's stage of several functions (lab 05's create, run, destroy) is read from all of them */
    snprintf(fn, sizeof fn, "%.*s", LAB.gpu ? (int)strlen(LAB.stages[stage].function) : (int)strcspn(LAB.stages[stage].function, " "),
             LAB.stages[stage].function);
    int found = technique_check(b, fn, spec, msg, sizeof msg);
    res->technique_read = found >= 0;
    if (found == 0) snprintf(res->technique, sizeof res->technique, "%s", msg);
    phase("  technique: %s: %s", LAB.stages[stage].name, found > 0 ? "found" : found == 0 ? "missing" : msg);
}

/* Every technique_<stage> key of thresholds.conf names a stage of a CUDA lab, each of its
 * requirements as "what it is: patterns": a typo must not leave a stage unjudged. */
static void check_technique_keys(const config *cfg)
{
    for (int k = 0; k < cfg->n; k++) {
        const char *key = cfg->e[k].key;
        if (strncmp(key, "technique_", 10)) continue;
        int stage = -1;
        for (int i = 0; i < LAB.nstages; i++)
            if (!strcmp(key + 10, LAB.stages[i].name)) stage = i;
        if (stage < 0) die("%s: %s: names no stage of this lab", cfg->path, key);
        if (!LAB.gpu && !strstr(cfg->e[k].value, "@chains>="))
            die("%s: %s: a CPU lab's technique is '@chains>=K' (technique.h)", cfg->path, key);
        char spec[2048], *save = NULL;
        snprintf(spec, sizeof spec, "%s", cfg->e[k].value);
        for (char *r = strtok_r(spec, ";", &save); r; r = strtok_r(NULL, ";", &save)) {
            char *colon = strchr(r, ':');
            if (!colon || colon == r || strspn(colon + 1, " \t") == strlen(colon + 1))
                die("%s: %s: '%s' is not 'what it is: patterns'", cfg->path, key, r);
            const char *at = colon + 1 + strspn(colon + 1, " \t");
            if (!technique_known(at)) die("%s: %s: '%s' is no figure the technique check knows (technique.h)", cfg->path, key, at);
        }
    }
}

/* "9.0" of "90a" or "90", "10.0" of "100a": a compute capability from an architecture's name. */
static void capability(const char *arch, char *out, size_t len)
{
    size_t digits = strspn(arch, "0123456789");
    if (digits < 2) {
        snprintf(out, len, "%s", arch);
        return;
    }
    snprintf(out, len, "%.*s.%c", (int)(digits - 1), arch, arch[digits - 1]);
}

void gpu_arch_need(const char *only, char *out, size_t len)
{
    char need[16];
    capability(only, need, sizeof need);
    snprintf(out, len, "a GPU of compute capability %s (built for sm_%s%s)", need, only,
             !strcmp(need, "9.0") ? ": Hopper, H100, H200, GH200" : "");
}

int gpu_arch_refused(const char *only, const char *arch, const char *device, char *why, size_t len)
{
    if (!only || !*only || !arch || !*arch) return 0;
    size_t digits = strspn(only, "0123456789");
    if (strlen(arch) == digits && strncmp(only, arch, digits) == 0) return 0;
    char need[160], have[16];
    gpu_arch_need(only, need, sizeof need);
    capability(arch, have, sizeof have);
    snprintf(why, len, "skipped: this lab's kernels need %s; this GPU, %s, is %s", need, device && *device ? device : "unnamed",
             have);
    return 1;
}

/* Build the runner for `source` with `cflags`; a build failure is reported on every stage. */
int build_submission(const options *opt, grader *g, const char *source, const char *cflags, char *msg, size_t len)
{
    const char *fns[64];
    char names[1024] = "", *save = NULL;
    int nfns = 0;
    session_end(g); /* a runner of the old build must not serve the new one's cases */
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
                    g->lim.sanitize ? LAB.gpu ? SANITIZE_FLAGS_CUDA : SANITIZE_FLAGS : NULL};
    check_technique_keys(cfg);
    int status = build_runner(&b, msg, len);
    for (int i = 0; i < LAB.nstages && status == BUILD_OK; i++) stage_technique(&b, cfg, i, &g->run->stages[i]);
    char rel[1100];
    snprintf(rel, sizeof rel, "%s/runner", g->scratch);
    if (status == BUILD_OK && !realpath(rel, g->runner)) die("cannot find %s", rel); /* exec'd after chdir */
    return status;
}
