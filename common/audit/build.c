/* build.c - see build.h. */
#define _GNU_SOURCE
#include "audit.h"
#include "build.h"
#include "config.h"
#include "gpu_register.h"
#include "tool.h"
#include "util.h"

#include <fcntl.h>
#include <fnmatch.h>
#include <glob.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>


#define MAX_SOURCE_BYTES (1 << 20)

/* argv from a space-separated string plus fixed words; returns a NULL-terminated vector. */
static char **argv_build(const char *const *head, const char *flags, const char *const *tail)
{
    char **v = xcalloc(256, sizeof *v);
    int n = 0;
    for (; *head; head++) v[n++] = xstrdup(*head);
    char *copy = xstrdup(flags ? flags : ""), *save = NULL;
    for (char *w = strtok_r(copy, " \t", &save); w && n < 200; w = strtok_r(NULL, " \t", &save)) v[n++] = xstrdup(w);
    free(copy);
    for (; *tail && n < 254; tail++) v[n++] = xstrdup(*tail);
    return v;
}

static void argv_free(char **v)
{
    for (char **p = v; *p; p++) free(*p);
    free(v);
}

/* One step of the build: head, the flags split into words, tail; its output to `out`. 0 when it
 * succeeded; otherwise msg is `failure` and what the tool said. */
static int build_step(const char *const *head, const char *flags, const char *const *tail, const char *out,
                      char *msg, size_t len, const char *failure)
{
    char **argv = argv_build(head, flags, tail);
    int rc = run_tool(argv, out, TOOL_TIMEOUT_S);
    argv_free(argv);
    if (rc != 0) tool_message(out, msg, len, failure);
    return rc != 0;
}

static int copy_source(const char *from, const char *to, char *msg, size_t len)
{
    struct stat st;
    if (stat(from, &st) || !S_ISREG(st.st_mode)) {
        snprintf(msg, len, "missing file: %s (the file you edit for this lab)", from);
        return BUILD_MISSING;
    }
    if (st.st_size > MAX_SOURCE_BYTES) {
        snprintf(msg, len, "%s is %lld bytes; the limit is %d", from, (long long)st.st_size, MAX_SOURCE_BYTES);
        return BUILD_MISSING;
    }
    char *text = read_text(from, MAX_SOURCE_BYTES);
    FILE *f = fopen(to, "w");
    int bad = !text || !f || fputs(text, f) < 0;
    if (f && fclose(f)) bad = 1;
    free(text);
    if (bad) snprintf(msg, len, "could not copy %s to %s", from, to);
    return bad ? BUILD_TOOL : BUILD_OK;
}

/* The system include folders gcc searches, as "dir/" prefixes, newline separated. */
static char *system_include_dirs(const char *scratch)
{
    char out[1024];
    snprintf(out, sizeof out, "%s/include-dirs.txt", scratch);
    char *argv[] = {"gcc", "-E", "-Wp,-v", "-x", "c", "/dev/null", "-o", "/dev/null", NULL};
    run_tool(argv, out, TOOL_TIMEOUT_S);
    char *text = read_text(out, 1 << 16), *list = xcalloc(1, (1 << 16) + 1024);
    char *p = text ? strstr(text, "#include <...> search starts here:") : NULL;
    for (char *line = p ? strchr(p, '\n') : NULL; line && *++line == ' '; line = strchr(line, '\n')) {
        size_t n = strcspn(line + 1, "\n");
        char dir[PATH_MAX], resolved[PATH_MAX];
        snprintf(dir, sizeof dir, "%.*s", (int)n, line + 1);
        if (realpath(dir, resolved)) strcat(strcat(strcat(list, resolved), "/"), "\n");
    }
    free(text);
    return list;
}

static int under_any(const char *path, const char *prefixes)
{
    char resolved[PATH_MAX];
    if (!realpath(path, resolved)) return 0;
    for (const char *p = prefixes; *p;) {
        size_t n = strcspn(p, "\n");
        if (n && strncmp(resolved, p, n) == 0) return 1;
        p += n + (p[n] == '\n');
    }
    return 0;
}

/* The CUDA toolkit's header folders, which a CUDA lab's code may include like system headers. */
static void add_cuda_dirs(const build_spec *b, char *allowed)
{
    static const char *const sub[] = {"include", "targets/x86_64-linux/include", "targets/sbsa-linux/include"};
    for (size_t i = 0; b->cuda_home && i < sizeof sub / sizeof sub[0]; i++) {
        char dir[PATH_MAX + 64], resolved[PATH_MAX];
        snprintf(dir, sizeof dir, "%s/%s", b->cuda_home, sub[i]);
        if (realpath(dir, resolved)) strcat(strcat(strcat(allowed, resolved), "/"), "\n");
    }
}

/* " -L<dir>" for the CUDA toolkit's stub of the driver's library, where the lab links it (ldlibs
 * names -lcuda: lab 12's cuTensorMapEncodeTiled) and the toolkit has one: a machine with the
 * toolkit and no driver (CI) still links and audits the code. The stub has the real library's
 * name (libcuda.so.1), which is what the runner loads where a driver is installed. */
static void cuda_stubs(const build_spec *b, char *out, size_t len)
{
    static const char *const sub[] = {"lib64/stubs", "lib/stubs", "targets/x86_64-linux/lib/stubs", "targets/sbsa-linux/lib/stubs"};
    const char *l = b->ldlibs;
    int wants = 0;
    for (const char *p = l ? strstr(l, "-lcuda") : NULL; p; p = strstr(p + 1, "-lcuda"))
        if ((p == l || p[-1] == ' ') && (p[6] == '\0' || p[6] == ' ')) wants = 1;
    for (size_t i = 0; wants && b->cuda_home && i < sizeof sub / sizeof sub[0]; i++) {
        char dir[PATH_MAX + 64], lib[PATH_MAX + 80];
        snprintf(dir, sizeof dir, "%s/%s", b->cuda_home, sub[i]);
        snprintf(lib, sizeof lib, "%s/libcuda.so", dir);
        if (access(lib, R_OK) == 0) {
            snprintf(out, len, " -L%s", dir);
            return;
        }
    }
}

/* The folders the student's build may read files from, as "dir/" prefixes, newline separated:
 * the system headers, the CUDA toolkit's, the lab's folder, and grading/plants/ beside it where it
 * exists: helpers several labs' planted submissions share (instructor-only, like planted/; absent
 * from the student kit, common/tools/kit.sh), which a plant includes as "../plants/<name>.h". */
/* The lab's folder as a "dir/" prefix, resolved where it can be. */
static void lab_prefix(const build_spec *b, char out[PATH_MAX + 2])
{
    if (!realpath(b->lab_dir, out)) snprintf(out, PATH_MAX, "%s", b->lab_dir);
    strcat(out, "/");
}

static char *allowed_dirs(const build_spec *b)
{
    char labdir[PATH_MAX + 2], plants[PATH_MAX + 16], resolved[PATH_MAX];
    char *allowed = system_include_dirs(b->scratch);
    add_cuda_dirs(b, allowed);
    lab_prefix(b, labdir);
    strcat(strcat(allowed, labdir), "\n");
    snprintf(plants, sizeof plants, "%s/../plants", b->lab_dir);
    if (realpath(plants, resolved)) strcat(strcat(allowed, resolved), "/\n");
    return allowed;
}

/* The library a system header belongs to where it is one of ready-made kernels: CUB and Thrust
 * (in the CUDA toolkit), CUTLASS and CuTe (wherever installed). Their templates compile into the
 * student's own kernels, so neither the link line nor the symbol audit sees them, and their
 * shuffles and tensor-core instructions would pass a stage's technique check; what a lab asks
 * the student to write, handed over. NULL for any other header. */
static const char *kernel_library(const char *path)
{
    static const char *const libs[][2] = {{"/cub/", "CUB"}, {"/thrust/", "Thrust"}, {"/cutlass/", "CUTLASS"}, {"/cute/", "CuTe"}};
    char resolved[PATH_MAX];
    if (!realpath(path, resolved)) return NULL;
    for (size_t i = 0; i < sizeof libs / sizeof libs[0]; i++)
        if (strstr(resolved, libs[i][0])) return libs[i][1];
    return NULL;
}

/* Every file a preprocessor's dependency list `deps` names (make's form: "student.o: student.c a.h
 * \\\n b.h", the first word after ':' the source) must be a system header or in the lab folder, and
 * no system header one of a library of ready-made kernels (kernel_library). */
static int check_deps(const build_spec *b, const char *deps, char *msg, size_t len)
{
    char *allowed = allowed_dirs(b), labdir[PATH_MAX + 2];
    lab_prefix(b, labdir);
    char *d = read_text(deps, 1 << 20), *save = NULL;
    int status = BUILD_OK;
    char *list = d ? strchr(d, ':') : NULL;
    int first = 1;
    for (char *w = list ? strtok_r(list + 1, " \\\n", &save) : NULL; w; w = strtok_r(NULL, " \\\n", &save)) {
        if (first) { first = 0; continue; }
        if (!under_any(w, allowed)) {
            snprintf(msg, len, "audit: includes %s, which is outside the system headers and the lab's folder", w);
            status = BUILD_AUDIT;
            break;
        }
        const char *lib = under_any(w, labdir) ? NULL : kernel_library(w);
        if (lib) {
            snprintf(msg, len, "audit: includes %s, a header of %s: a library of ready-made kernels is not yours to use "
                     "in a lab that asks you to write them", w, lib);
            status = BUILD_AUDIT;
            break;
        }
    }
    free(d);
    free(allowed);
    return status;
}

/* Preprocessed text must not ask the assembler for a file (.incbin, .include): a quick first look;
 * check_assembler_reads below is the check no spelling escapes. */
static int check_preprocessed(const char *pre, char *msg, size_t len)
{
    char *text = read_text(pre, 16 << 20);
    int bad = text && (strstr(text, ".incbin") || strstr(text, ".include"));
    free(text);
    if (bad) snprintf(msg, len, "audit: inline assembly pulls in a file (.incbin/.include)");
    return bad ? BUILD_AUDIT : BUILD_OK;
}

/* gcc: preprocess first, writing the dependencies on the way, and check both before compiling.
 * (nvcc would need two passes of its own for that, a second of its build; it writes them while
 * compiling instead, and they are checked after: nvcc_deps_checked below.) */
static int check_includes(const build_spec *b, const char *src, char *msg, size_t len)
{
    char deps[1024], pre[1024], out[1024], idir[1100];
    snprintf(deps, sizeof deps, "%s/student.d", b->scratch);
    snprintf(pre, sizeof pre, "%s/student.i", b->scratch);
    snprintf(out, sizeof out, "%s/preprocess.txt", b->scratch);
    snprintf(idir, sizeof idir, "-I%s", b->lab_dir);
    const char *head[] = {b->compiler, NULL}, *tail[] = {idir, "-E", "-MD", "-MF", deps, src, "-o", pre, NULL};
    if (build_step(head, b->cflags, tail, out, msg, len, "does not compile (preprocessor):\n")) return BUILD_COMPILE;
    int st = check_deps(b, deps, msg, len);
    return st != BUILD_OK ? st : check_preprocessed(pre, msg, len);
}

/* nvcc, after its compile (`failed` if it failed): the dependencies it wrote (-MD) and the
 * preprocessed text it kept (host and device), checked as gcc's are before. An include from
 * outside is an audit finding even where the compile failed (the file's text is then no C). */
static int nvcc_deps_checked(const build_spec *b, const char *deps, const char *keep, int failed, char *msg, size_t len)
{
    char pre[1200];
    if (access(deps, R_OK) == 0 && check_deps(b, deps, msg, len) != BUILD_OK) return BUILD_AUDIT; /* else msg untouched */
    if (failed) return BUILD_COMPILE;
    static const char *const kept[] = {"student.cpp1.ii", "student.cpp4.ii"};
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++) {
        snprintf(pre, sizeof pre, "%s/%s", keep, kept[i]);
        if (check_preprocessed(pre, msg, len) != BUILD_OK) return BUILD_AUDIT;
    }
    return BUILD_OK;
}

/* The assembler can read files too (.incbin, .include), and no search of the source finds every
 * spelling of those directives: ".inc" "bin" is joined only after preprocessing, capitals work,
 * and an assembler macro can build the name. So the compile asks the assembler for the list of
 * files it read (--MD, written to `deps`), and each must be a system header or in the lab folder.
 * The list also names the source as the assembler knew it (.file): the student's copy, or for
 * nvcc and gcc's temporaries a name that no longer exists; those are skipped. (A `.file` naming
 * a real file elsewhere is rejected too: only a cheat writes one.) */
static int check_assembler_reads(const build_spec *b, const char *src, const char *deps, char *msg, size_t len)
{
    char *d = read_text(deps, 1 << 20), *save = NULL, source[PATH_MAX], real[PATH_MAX];
    if (!d) {
        snprintf(msg, len, "the assembler wrote no list of the files it read (%s): is binutils installed?", deps);
        return BUILD_TOOL;
    }
    if (!realpath(src, source)) source[0] = '\0';
    char *allowed = allowed_dirs(b), *list = strchr(d, ':');
    int status = BUILD_OK;
    for (char *w = list ? strtok_r(list + 1, " \\\n", &save) : NULL; w; w = strtok_r(NULL, " \\\n", &save)) {
        if (!realpath(w, real) || !strcmp(real, source)) continue;
        if (!under_any(w, allowed)) {
            snprintf(msg, len, "audit: the assembler read %s (.incbin or .include), which is outside the system headers "
                               "and the lab's folder", w);
            status = BUILD_AUDIT;
            break;
        }
    }
    free(d);
    free(allowed);
    return status;
}

/* Empty a folder of files (the last build's intermediate files); 0 on success. */
static int remove_files(const char *dir)
{
    char pattern[1100];
    snprintf(pattern, sizeof pattern, "%s/*", dir);
    glob_t g;
    int rc = glob(pattern, 0, NULL, &g);
    if (rc == GLOB_NOMATCH) return 0;
    for (size_t i = 0; rc == 0 && i < g.gl_pathc; i++) rc = unlink(g.gl_pathv[i]);
    globfree(&g);
    return rc;
}

/* The compiler's messages name the scratch copy it compiled: name the student's own file instead,
 * so "student.c:16:9" reads as the path and line the student edits. */
static void point_at_source(const char *src, const char *source, char *msg, size_t len)
{
    size_t n = strlen(src), m = strlen(source);
    char *at;
    for (char *from = msg; (at = strstr(from, src)) != NULL; from = at + m) {
        if (strlen(msg) - n + m >= len) break; /* no room: leave the rest as it is */
        memmove(at + m, at + n, strlen(at + n) + 1);
        memcpy(at, source, m);
    }
}

static int build_steps(const build_spec *b, char *msg, size_t len);

int build_runner(const build_spec *b, char *msg, size_t len)
{
    char src[1024];
    const char *ext = strrchr(b->source, '.');
    snprintf(src, sizeof src, "%s/student%s", b->scratch, ext ? ext : ".c");
    int st = build_steps(b, msg, len);
    if (st != BUILD_OK) point_at_source(src, b->source, msg, len);
    return st;
}

static int build_steps(const build_spec *b, char *msg, size_t len)
{
    char src[1024], obj[1024], local[1024], runner[1024], out[1024], idir[1100];
    const char *ext = strrchr(b->source, '.');
    snprintf(src, sizeof src, "%s/student%s", b->scratch, ext ? ext : ".c");
    snprintf(obj, sizeof obj, "%s/student.o", b->scratch);
    snprintf(local, sizeof local, "%s/student-local.o", b->scratch);
    snprintf(runner, sizeof runner, "%s/runner", b->scratch);
    snprintf(out, sizeof out, "%s/compile.txt", b->scratch);
    snprintf(idir, sizeof idir, "-I%s", b->lab_dir);
    msg[0] = '\0';
    int st = copy_source(b->source, src, msg, len);
    if (st == BUILD_OK && !strstr(b->compiler, "nvcc")) st = check_includes(b, src, msg, len);
    if (st != BUILD_OK) return st;

    /* A CUDA build keeps nvcc's PTX, to read it: the lab's forbidden instructions (below), and the
     * stages' techniques (technique.c, after the build). */
    char keep[1100], keep_dir[1200];
    snprintf(keep, sizeof keep, "%s/keep", b->scratch);
    snprintf(keep_dir, sizeof keep_dir, "--keep-dir=%s", keep);
    int ptx = strstr(b->compiler, "nvcc") != NULL, forbid = ptx && b->forbid_ptx && *b->forbid_ptx;
    if (ptx && (mkdirs(keep) || remove_files(keep))) {
        snprintf(msg, len, "cannot create %s", keep);
        return BUILD_TOOL;
    }
    /* The assembler's list of the files it read (check_assembler_reads); nvcc passes the request
     * on to the host compiler, which passes it to the assembler. */
    char asm_deps[1100], asm_flag[1200];
    snprintf(asm_deps, sizeof asm_deps, "%s/assembler.d", b->scratch);
    int nv = strstr(b->compiler, "nvcc") != NULL;
    snprintf(asm_flag, sizeof asm_flag, nv ? "-Xassembler,--MD,-Xassembler,%s" : "-Wa,--MD,%s", asm_deps);
    unlink(asm_deps);
    const char *head[] = {b->compiler, NULL}, *tail[20];
    int t = 0;
    if (nv) tail[t++] = "-Xcompiler";
    tail[t++] = asm_flag;
    /* each host function in a section of its own: the audit tells nvcc's registration code from
     * the student's functions by section (audit_registration) */
    if (nv) tail[t++] = "-Xcompiler", tail[t++] = "-ffunction-sections";
    /* line tables, so the audit can name the line of a refused call (the host compiler's -g never
     * changes the code it makes; nvcc's device code is not touched) */
    if (nv) tail[t++] = "-Xcompiler";
    tail[t++] = "-g";
    tail[t++] = idir, tail[t++] = "-c", tail[t++] = src, tail[t++] = "-o", tail[t++] = obj;
    if (ptx) tail[t++] = "--keep", tail[t++] = keep_dir;
    char deps[1100];
    snprintf(deps, sizeof deps, "%s/student.d", b->scratch);
    unlink(deps);
    if (nv) tail[t++] = "-MD", tail[t++] = "-MF", tail[t++] = deps;
    tail[t] = NULL;
    int failed = build_step(head, b->cflags, tail, out, msg, len, "does not compile:\n");
    if (nv && (st = nvcc_deps_checked(b, deps, keep, failed, msg, len)) != BUILD_OK) return st;
    if (failed) return BUILD_COMPILE;
    phase("  compile");
    if ((st = check_assembler_reads(b, src, asm_deps, msg, len)) != BUILD_OK) return st;
    if ((st = audit_object(b, obj, msg, len)) != BUILD_OK) return st;
    phase("  audit: object");
    if (forbid && (st = audit_ptx(b, keep, msg, len)) != BUILD_OK) return st;
    phase("  audit: ptx");
    char *sass = nv ? forbidden_sass(b) : NULL;
    st = sass ? audit_sass(b, obj, sass, msg, len) : BUILD_OK;
    free(sass);
    if (st == -1) st = BUILD_OK; /* no cuobjdump here: the PTX audit above stands alone */
    if (st != BUILD_OK) return st;
    phase("  audit: sass");
    char flags[2048];
    snprintf(flags, sizeof flags, "%s %s", b->cflags, b->sanitize ? b->sanitize : "");
    if (b->sanitize && *b->sanitize && /* the audited source again, instrumented */
        build_step(head, flags, tail, out, msg, len, "does not compile with the sanitizers:\n"))
        return BUILD_COMPILE;

    /* Belt and braces: after the audit only the lab's functions stay global. */
    char **oc = xcalloc((size_t)b->nfunctions + 4, sizeof *oc);
    int n = 0;
    oc[n++] = xstrdup("objcopy");
    for (int i = 0; i < b->nfunctions; i++) {
        oc[n] = xmalloc(strlen(b->functions[i]) + 32);
        sprintf(oc[n++], "--keep-global-symbol=%s", b->functions[i]);
    }
    oc[n++] = xstrdup(obj);
    oc[n++] = xstrdup(local);
    int rc = run_tool(oc, out, TOOL_TIMEOUT_S);
    argv_free(oc);
    if (rc != 0) {
        tool_message(out, msg, len, "objcopy failed:\n");
        return BUILD_TOOL;
    }
    const char *lhead[] = {b->compiler, "-o", runner, b->runner_base, local, NULL}, *ltail[] = {NULL};
    /* A CUDA runner stops if device code is registered after start-up (gpu_register.c); its own
     * -Xlinker joins any the lab's ldlibs pass (lab 05 wraps the calls it counts). */
    int san_link = b->sanitize && *b->sanitize && !nv; /* nvcc's -lineinfo (compute-sanitizer) is a compile flag */
    char stubs[PATH_MAX + 64] = "";
    if (nv) cuda_stubs(b, stubs, sizeof stubs);
    snprintf(flags, sizeof flags, "%s%s%s%s%s%s", b->ldlibs, stubs, nv ? " " : "", nv ? GPU_REGISTER_LDFLAGS : "",
             san_link ? " -no-pie " : "", san_link ? b->sanitize : "");
    st = build_step(lhead, flags, ltail, out, msg, len, "does not link:\n") ? BUILD_LINK : BUILD_OK;
    phase("  link");
    return st;
}
