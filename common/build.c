/* build.c - see build.h. */
#define _GNU_SOURCE
#include "build.h"
#include "util.h"

#include <fcntl.h>
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

/* What any lab's code may call: memory, printing for debugging, assert, and <math.h>. */
static const char *const base_allowed[] = {
    "memcpy", "memset", "memmove", "memcmp", "malloc", "calloc", "realloc", "free", "aligned_alloc",
    "posix_memalign", "printf", "puts", "putchar", "fprintf", "fputs", "fputc", "fwrite", "fflush",
    "stdout", "stderr", "abort", "__assert_fail", "__stack_chk_fail", "_GLOBAL_OFFSET_TABLE_",
    /* the same calls where the compiler fortifies them (-D_FORTIFY_SOURCE, on by default in
     * Ubuntu's gcc): checked variants with the same effect */
    "__printf_chk", "__fprintf_chk", "__memcpy_chk", "__memmove_chk", "__memset_chk",
    "sqrt", "sqrtf", "fabs", "fabsf", "fma", "fmaf", "fmin", "fmax", "fminf", "fmaxf", "floor", "ceil",
    "exp", "expf", "log", "logf", "pow", "powf", "sin", "cos", "sinf", "cosf", "tanh", "tanhf", "round",
    NULL,
};

#define TOOL_TIMEOUT_S 60.0
#define MAX_SOURCE_BYTES (1 << 20)

int run_tool(char *const argv[], const char *out_path, double timeout_s)
{
    return run_tool_files(argv, out_path, timeout_s, (size_t)64 << 20); /* no object beyond 64 MiB */
}

int run_tool_files(char *const argv[], const char *out_path, double timeout_s, size_t max_file_bytes)
{
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int in = open("/dev/null", O_RDONLY);
        if (out < 0 || in < 0) _exit(126);
        dup2(in, 0);
        dup2(out, 1);
        dup2(out, 2);
        struct rlimit fs = {max_file_bytes, max_file_bytes};
        setrlimit(RLIMIT_FSIZE, &fs);
        setenv("LC_ALL", "C", 1); /* plain ASCII quotes in compiler messages */
        execvp(argv[0], argv);
        _exit(127);
    }
    double deadline = now_s() + timeout_s;
    int status;
    while (waitpid(pid, &status, WNOHANG) == 0) {
        if (now_s() > deadline) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            return -1;
        }
        usleep(2000);
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

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

/* The first `max` bytes of a tool's output, for a message. */
static void tool_message(const char *path, char *msg, size_t len, const char *prefix)
{
    char *text = read_text(path, 3000);
    snprintf(msg, len, "%s%s", prefix, text ? text : "(no output)");
    free(text);
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

/* The folders the student's build may read files from, as "dir/" prefixes, newline separated:
 * the system headers, the CUDA toolkit's, and the lab's folder. */
static char *allowed_dirs(const build_spec *b)
{
    char labdir[PATH_MAX + 2];
    char *allowed = system_include_dirs(b->scratch);
    add_cuda_dirs(b, allowed);
    if (!realpath(b->lab_dir, labdir)) snprintf(labdir, sizeof labdir, "%s", b->lab_dir);
    strcat(strcat(allowed, labdir), "/\n");
    return allowed;
}

/* Preprocess: every file the source includes must be a system header or in the lab folder. */
static int check_includes(const build_spec *b, const char *src, char *msg, size_t len)
{
    char deps[1024], pre[1024], out[1024];
    snprintf(deps, sizeof deps, "%s/student.d", b->scratch);
    snprintf(pre, sizeof pre, "%s/student.i", b->scratch);
    snprintf(out, sizeof out, "%s/preprocess.txt", b->scratch);
    char idir[1100];
    snprintf(idir, sizeof idir, "-I%s", b->lab_dir);
    int nv = strstr(b->compiler, "nvcc") != NULL;
    /* gcc writes the dependencies while preprocessing; nvcc needs two passes */
    const char *head[] = {b->compiler, NULL};
    const char *gcc_tail[] = {idir, "-E", "-MD", "-MF", deps, src, "-o", pre, NULL};
    const char *nv_deps[] = {idir, "-M", src, "-o", deps, NULL}, *nv_pre[] = {idir, "-E", src, "-o", pre, NULL};
    const char *failed = "does not compile (preprocessor):\n";
    if (build_step(head, b->cflags, nv ? nv_deps : gcc_tail, out, msg, len, failed) ||
        (nv && build_step(head, b->cflags, nv_pre, out, msg, len, failed)))
        return BUILD_COMPILE;
    char *allowed = allowed_dirs(b);
    char *d = read_text(deps, 1 << 20), *save = NULL;
    int status = BUILD_OK;
    /* make-style: "student.o: student.c a.h \\\n b.h"; the first word after ':' is the source. */
    char *list = d ? strchr(d, ':') : NULL;
    int first = 1;
    for (char *w = list ? strtok_r(list + 1, " \\\n", &save) : NULL; w; w = strtok_r(NULL, " \\\n", &save)) {
        if (first) { first = 0; continue; }
        if (!under_any(w, allowed)) {
            snprintf(msg, len, "audit: includes %s, which is outside the system headers and the lab's folder", w);
            status = BUILD_AUDIT;
            break;
        }
    }
    free(d);
    free(allowed);
    char *text = status == BUILD_OK ? read_text(pre, 16 << 20) : NULL;
    if (text && (strstr(text, ".incbin") || strstr(text, ".include"))) {
        snprintf(msg, len, "audit: inline assembly pulls in a file (.incbin/.include)");
        status = BUILD_AUDIT;
    }
    free(text);
    return status;
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

static int in_list(const char *name, const char *const *list, int n)
{
    for (int i = 0; n < 0 ? list[i] != NULL : i < n; i++)
        if (strcmp(name, list[i]) == 0) return 1;
    return 0;
}

/* Is `name` one of the space-separated words? A word ending in '*' matches any name it begins
 * (GOMP_* : the entry points OpenMP pragmas compile into). */
static int word_in(const char *name, const char *words)
{
    for (const char *p = words; p && *p;) {
        size_t len = strcspn(p, " ");
        if (len && p[len - 1] == '*' ? strncmp(name, p, len - 1) == 0
                                     : len == strlen(name) && strncmp(name, p, len) == 0)
            return 1;
        p += len + (p[len] == ' ');
    }
    return 0;
}

/* nvcc's host object registers its kernels from one constructor of its own: the only entry
 * its .init_array may have. Returns 1 when the object's constructors are exactly that. */
static int only_cuda_registration(const build_spec *b, const char *object)
{
    char out[1024];
    snprintf(out, sizeof out, "%s/relocs.txt", b->scratch);
    char *readelf[] = {"readelf", "-r", "-W", (char *)object, NULL};
    if (run_tool(readelf, out, TOOL_TIMEOUT_S) != 0) return 0;
    char *text = read_text(out, 1 << 22), *sec = text ? strstr(text, "'.rela.init_array'") : NULL;
    unsigned long entries = 0, addend = ~0ul;
    if (sec) sscanf(strstr(sec, "contains") ? strstr(sec, "contains") : "", "contains %lu", &entries);
    char *plus = sec ? strstr(sec, ".text.startup + ") : NULL;
    if (plus) addend = strtoul(plus + strlen(".text.startup + "), NULL, 16);
    free(text);
    snprintf(out, sizeof out, "%s/symbols.txt", b->scratch);
    char *nm[] = {"nm", "-P", (char *)object, NULL};
    if (entries != 1 || run_tool(nm, out, TOOL_TIMEOUT_S) != 0) return 0;
    text = read_text(out, 1 << 22);
    char *reg = text ? strstr(text, "__sti____cudaRegisterAllv t ") : NULL;
    unsigned long value = reg ? strtoul(reg + strlen("__sti____cudaRegisterAllv t "), NULL, 16) : ~1ul;
    free(text);
    return value == addend;
}

int audit_object(const build_spec *b, const char *object, char *msg, size_t len)
{
    char out[1024];
    int cuda = strstr(b->compiler, "nvcc") != NULL;
    snprintf(out, sizeof out, "%s/sections.txt", b->scratch);
    char *readelf[] = {"readelf", "-S", "-W", (char *)object, NULL};
    if (run_tool(readelf, out, TOOL_TIMEOUT_S) != 0) {
        snprintf(msg, len, "could not run readelf on the object (is binutils installed?)");
        return BUILD_TOOL;
    }
    char *text = read_text(out, 1 << 20);
    static const char *const banned[] = {".init_array", ".fini_array", ".preinit_array", ".ctors", ".dtors",
                                         " .init ", " .fini ", NULL};
    for (int i = 0; text && banned[i]; i++) {
        if (!strstr(text, banned[i])) continue;
        if (i == 0 && cuda && only_cuda_registration(b, object)) continue;
        snprintf(msg, len, "audit: the object has a %s section (constructors/destructors are not allowed)",
                 banned[i]);
        free(text);
        return BUILD_AUDIT;
    }
    free(text);
    snprintf(out, sizeof out, "%s/symbols.txt", b->scratch);
    char *nm[] = {"nm", "-P", (char *)object, NULL};
    if (run_tool(nm, out, TOOL_TIMEOUT_S) != 0) {
        snprintf(msg, len, "could not run nm on the object");
        return BUILD_TOOL;
    }
    text = read_text(out, 1 << 22);
    int status = BUILD_OK;
    char *save = NULL;
    for (char *line = text ? strtok_r(text, "\n", &save) : NULL; line && status == BUILD_OK;
         line = strtok_r(NULL, "\n", &save)) {
        char name[512], type;
        if (sscanf(line, "%511s %c", name, &type) != 2) continue;
        if (type == 'U') {
            if (!in_list(name, base_allowed, -1) && !word_in(name, b->allow_calls)) {
                snprintf(msg, len, "audit: calls %s, which this lab does not allow", name);
                status = BUILD_AUDIT;
            }
        } else if (type == 'i') {
            snprintf(msg, len, "audit: %s is an ifunc (its resolver would run before the grader)", name);
            status = BUILD_AUDIT;
        } else if (type != 'w' && type != 'v' && type != 'V' && type != 'W' && type >= 'A' && type <= 'Z' &&
                   !in_list(name, b->functions, b->nfunctions)) {
            snprintf(msg, len, "audit: defines global symbol %s; only the lab's functions may be global "
                     "(make helpers%s static)", name, cuda ? " and kernels" : "");
            status = BUILD_AUDIT;
        } else if ((type == 'w' || type == 'v' || type == 'V' || type == 'W') && cuda &&
                   strcmp(name, "DW.ref.__gxx_personality_v0") == 0) {
            /* nvcc's C++ exception-handling reference: not code of the student's */
        } else if ((type == 'w' || type == 'v' || type == 'V' || type == 'W') && !in_list(name, b->functions, b->nfunctions)) {
            snprintf(msg, len, "audit: defines weak symbol %s", name);
            status = BUILD_AUDIT;
        }
    }
    free(text);
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

/* The PTX of a CUDA build (nvcc keeps it in `keep`, one file per architecture) may not contain
 * the lab's forbidden instructions: "mma." covers wmma.mma, mma.sync and wgmma.mma_async, the
 * tensor cores lab 06 must do without. Read from the generated code, so no spelling in the source
 * escapes it. */
static int audit_ptx(const build_spec *b, const char *keep, char *msg, size_t len)
{
    char pattern[1100], words[256];
    snprintf(pattern, sizeof pattern, "%s/*.ptx", keep);
    glob_t g;
    if (glob(pattern, 0, NULL, &g) != 0) {
        snprintf(msg, len, "could not find the PTX nvcc generated in %s", keep);
        return BUILD_TOOL;
    }
    int status = BUILD_OK;
    for (size_t f = 0; f < g.gl_pathc && status == BUILD_OK; f++) {
        char *text = read_text(g.gl_pathv[f], 64 << 20), *save = NULL;
        snprintf(words, sizeof words, "%s", b->forbid_ptx);
        for (char *w = strtok_r(words, " ", &save); w && text && status == BUILD_OK; w = strtok_r(NULL, " ", &save))
            if (strstr(text, w)) {
                snprintf(msg, len, "audit: the kernels use the PTX instruction %s..., which this lab does not allow", w);
                status = BUILD_AUDIT;
            }
        free(text);
    }
    globfree(&g);
    return status;
}

int build_runner(const build_spec *b, char *msg, size_t len)
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
    if (st == BUILD_OK) st = check_includes(b, src, msg, len);
    if (st != BUILD_OK) return st;

    /* A CUDA lab that forbids instructions keeps nvcc's PTX, to read it. */
    char keep[1100], keep_dir[1200];
    snprintf(keep, sizeof keep, "%s/keep", b->scratch);
    snprintf(keep_dir, sizeof keep_dir, "--keep-dir=%s", keep);
    int ptx = b->forbid_ptx && *b->forbid_ptx && strstr(b->compiler, "nvcc");
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
    const char *head[] = {b->compiler, NULL}, *tail[12];
    int t = 0;
    if (nv) tail[t++] = "-Xcompiler";
    tail[t++] = asm_flag;
    tail[t++] = idir, tail[t++] = "-c", tail[t++] = src, tail[t++] = "-o", tail[t++] = obj;
    if (ptx) tail[t++] = "--keep", tail[t++] = keep_dir;
    tail[t] = NULL;
    if (build_step(head, b->cflags, tail, out, msg, len, "does not compile:\n")) return BUILD_COMPILE;
    if ((st = check_assembler_reads(b, src, asm_deps, msg, len)) != BUILD_OK) return st;
    if ((st = audit_object(b, obj, msg, len)) != BUILD_OK) return st;
    if (ptx && (st = audit_ptx(b, keep, msg, len)) != BUILD_OK) return st;
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
    snprintf(flags, sizeof flags, "%s%s%s", b->ldlibs, b->sanitize && *b->sanitize ? " -no-pie " : "",
             b->sanitize ? b->sanitize : "");
    return build_step(lhead, flags, ltail, out, msg, len, "does not link:\n") ? BUILD_LINK : BUILD_OK;
}
