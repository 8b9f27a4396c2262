/* build.c - see build.h. */
#define _GNU_SOURCE
#include "build.h"
#include "config.h"
#include "gpu_register.h"
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

/* ---- device code registered outside nvcc's own path (row 37 of GRADER_THREATS.md) ----
 *
 * A submission can carry a prebuilt fatbin (bytes in a const array) and register it itself with
 * the calls nvcc's generated code uses (__cudaRegisterFatBinary, __cudaRegisterFunction ...): the
 * allow list must let those names through, and the PTX the audit reads never shows that code. So
 * CUDA code is compiled with -ffunction-sections, each host function in a section of its own, and
 * every reference to a registration call must come from a section of nvcc's generated code.
 * nvcc 13.0's names for them (`readelf -r` of a .cu compiled with and without kernels, at -O3
 * and -O0): the constructor __sti____cudaRegisterAll (in .text.startup.<name> at -O2 and above,
 * .text.<name> below), __nv_cudaEntityRegisterCallback (inlined into the constructor at -O3),
 * __cudaUnregisterBinaryUtil (the atexit handler) and __nv_init_managed_rt_with_module (calls
 * __cudaInitModule; -O0 only). */
static const char *const nvcc_registration[] = {
    "_ZL24__sti____cudaRegisterAllv", "_ZL31__nv_cudaEntityRegisterCallbackPPv", "_ZL26__cudaUnregisterBinaryUtilv",
    "_ZL32__nv_init_managed_rt_with_modulePPv", NULL,
};
/* Sections of nvcc's that point at its fatbin and at the constructor: data only nvcc's code uses. */
static const char *const nvcc_fatbin_data[] = {".nvFatBinSegment", ".nv_fatbin", "_ZL15__fatDeviceText", "fatbinData",
                                               NULL};

/* Calls that register or unregister device code with the runtime: nvcc's code only. */
static int registration_call(const char *name)
{
    return !strncmp(name, "__cudaRegister", 14) || !strncmp(name, "__cudaUnregister", 16) ||
           !strcmp(name, "__cudaInitModule");
}

/* Calls no lab allows, whatever its allow_calls says (a pattern like cu* would otherwise let them
 * in): they load device code from bytes or files (modules, libraries, the JIT linker), or fetch any
 * driver function by name, which would reach the first list by another road. */
static const char *const never_allowed[] = {"cudaGetDriverEntryPoint", "cuGetProcAddress", "cuModule", "cuLibrary",
                                            "cudaLibrary", "cuLink", NULL};

static int never_allowed_call(const char *name)
{
    for (int i = 0; never_allowed[i]; i++)
        if (!strncmp(name, never_allowed[i], strlen(never_allowed[i]))) return 1;
    return 0;
}

typedef struct elf_section { char name[256]; unsigned long size; } elf_section;
typedef struct elf_symbol { char name[512]; int section; unsigned long value, size; } elf_symbol;
typedef struct elf_reloc { char from[256], to[512]; } elf_reloc; /* the section it patches; its symbol */
typedef struct elf_info {
    elf_section *sec;
    elf_symbol *sym;
    elf_reloc *rel;
    int nsec, nsym, nrel;
} elf_info;

static void elf_free(elf_info *e)
{
    free(e->sec);
    free(e->sym);
    free(e->rel);
    memset(e, 0, sizeof *e);
}

/* Run readelf with `opt` on the object; its output, or NULL. */
static char *readelf_text(const build_spec *b, const char *opt, const char *object, const char *file)
{
    char out[1100];
    snprintf(out, sizeof out, "%s/%s", b->scratch, file);
    char *argv[] = {"readelf", (char *)opt, "-W", (char *)object, NULL};
    return run_tool(argv, out, TOOL_TIMEOUT_S) == 0 ? read_text(out, 1 << 24) : NULL;
}

/* Sections (readelf -S), symbols with the section they are in (readelf -s) and relocations with
 * the section they patch (readelf -r). 0, or -1 when readelf could not be run. */
static int elf_read(const build_spec *b, const char *object, elf_info *e)
{
    memset(e, 0, sizeof *e);
    char *sec = readelf_text(b, "-S", object, "sections.txt"), *sym = readelf_text(b, "-s", object, "symtab.txt"),
         *rel = readelf_text(b, "-r", object, "relocs.txt"), *save = NULL;
    int ok = sec && sym && rel, cap = 0;
    /* "  [ 5] .text.foo  PROGBITS  0000000000000000 000040 00000c 00  AX  0   0 16" */
    for (char *l = ok ? strtok_r(sec, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
        char *close = strchr(l, ']');
        int idx;
        elf_section s = {{0}, 0};
        if (!close || sscanf(l, " [%d]", &idx) != 1 || idx < 0 || idx > 1 << 20 ||
            sscanf(close + 1, "%255s %*s %*x %*x %lx", s.name, &s.size) != 2)
            continue;
        if (idx >= cap) {
            int old = cap;
            cap = idx * 2 + 16;
            e->sec = xrealloc(e->sec, (size_t)cap * sizeof *e->sec);
            memset(e->sec + old, 0, (size_t)(cap - old) * sizeof *e->sec);
        }
        e->sec[idx] = s;
        if (idx >= e->nsec) e->nsec = idx + 1;
    }
    /* "    12: 0000000000000000   134 FUNC    LOCAL  DEFAULT   13 _ZL24__sti____cudaRegisterAllv"
     * (a size of 100000 or more is printed in hex) */
    cap = 0;
    for (char *l = ok ? strtok_r(sym, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
        char size[32], type[32], ndx[32];
        elf_symbol s = {{0}, -1, 0, 0};
        if (sscanf(l, " %*d: %lx %31s %31s %*s %*s %31s %511s", &s.value, size, type, ndx, s.name) != 5 ||
            !strcmp(type, "SECTION") || !strcmp(type, "FILE"))
            continue;
        s.size = strtoul(size, NULL, 0);
        s.section = ndx[0] >= '0' && ndx[0] <= '9' ? atoi(ndx) : -1;
        if (e->nsym == cap) e->sym = xrealloc(e->sym, (size_t)(cap = cap * 2 + 64) * sizeof *e->sym);
        e->sym[e->nsym++] = s;
    }
    /* "Relocation section '.rela.text.foo' at offset ..." then
     * "0000000000000009  0000002b00000004 R_X86_64_PLT32  0000000000000000 __cudaRegisterFatBinary - 4" */
    cap = 0;
    char from[256] = "";
    for (char *l = ok ? strtok_r(rel, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
        elf_reloc r;
        if (sscanf(l, "Relocation section '%255[^']'", from) == 1) {
            /* '.rela.text.foo' patches '.text.foo' (and '.rel.x' patches '.x') */
            size_t skip = !strncmp(from, ".rela.", 6) ? 5 : !strncmp(from, ".rel.", 5) ? 4 : 0;
            memmove(from, from + skip, strlen(from + skip) + 1);
            continue;
        }
        if (!from[0] || sscanf(l, "%*x %*x %*s %*x %511s", r.to) != 1) continue;
        snprintf(r.from, sizeof r.from, "%s", from);
        if (e->nrel == cap) e->rel = xrealloc(e->rel, (size_t)(cap = cap * 2 + 256) * sizeof *e->rel);
        e->rel[e->nrel++] = r;
    }
    free(sec);
    free(sym);
    free(rel);
    return ok ? 0 : -1;
}

/* Is `section` one that nvcc's registration function `fn` is compiled into? */
static int section_of(const char *section, const char *fn)
{
    static const char *const prefixes[] = {".text.", ".text.startup.", NULL};
    for (int i = 0; prefixes[i]; i++) {
        size_t n = strlen(prefixes[i]);
        if (!strncmp(section, prefixes[i], n) && !strcmp(section + n, fn)) return 1;
    }
    return 0;
}

static const char *registration_section(const char *section)
{
    for (int i = 0; nvcc_registration[i]; i++)
        if (section_of(section, nvcc_registration[i])) return nvcc_registration[i];
    return NULL;
}

/* The function a section holds, for a message: "vector_add", or demangled "sum(int, float const*, ...)". */
static void section_function(const build_spec *b, const char *section, char *out, size_t len)
{
    static const char *const prefixes[] = {".text.startup.", ".text.unlikely.", ".text.hot.", ".text.", NULL};
    const char *fn = NULL;
    for (int i = 0; prefixes[i] && !fn; i++)
        if (!strncmp(section, prefixes[i], strlen(prefixes[i]))) fn = section + strlen(prefixes[i]);
    if (!fn || !*fn) {
        snprintf(out, len, "section %s", section);
        return;
    }
    snprintf(out, len, "%s", fn);
    char path[1100];
    snprintf(path, sizeof path, "%s/demangled.txt", b->scratch);
    char *argv[] = {"c++filt", (char *)fn, NULL};
    char *text = run_tool(argv, path, TOOL_TIMEOUT_S) == 0 ? read_text(path, 4096) : NULL;
    if (text && *text) snprintf(out, len, "%.*s", (int)strcspn(text, "\n"), text);
    free(text);
}

/* Each section of nvcc's registration code must hold that function and nothing else: a student
 * function placed there (__attribute__((section))) would be a second symbol, and bytes added by
 * top-level assembly would move the function from offset 0 or make the section longer than it. */
static int registration_sections_sole(const elf_info *e, char *msg, size_t len)
{
    for (int s = 0; s < e->nsec; s++) {
        const char *fn = registration_section(e->sec[s].name);
        if (!fn) continue;
        int held = 0, whole = 0;
        for (int i = 0; i < e->nsym; i++)
            if (e->sym[i].section == s) {
                held++;
                whole = !strcmp(e->sym[i].name, fn) && e->sym[i].value == 0 && e->sym[i].size == e->sec[s].size;
            }
        if (held != 1 || !whole) {
            snprintf(msg, len, "audit: section %s holds more than nvcc's registration function: only kernels "
                               "compiled from your file may run", e->sec[s].name);
            return BUILD_AUDIT;
        }
    }
    return BUILD_OK;
}

/* Every reference to a registration call comes from nvcc's registration code; and nvcc's
 * registration code and fatbin are referenced only from there, the constructor table and the
 * unwind tables (calling nvcc's constructor again would register after start-up). */
static int audit_registration(const build_spec *b, const elf_info *e, char *msg, size_t len)
{
    int st = registration_sections_sole(e, msg, len);
    for (int i = 0; i < e->nrel && st == BUILD_OK; i++) {
        const elf_reloc *r = &e->rel[i];
        char fn[600];
        int from_nvcc = registration_section(r->from) != NULL;
        if (registration_call(r->to) && !from_nvcc) {
            section_function(b, r->from, fn, sizeof fn);
            snprintf(msg, len, "audit: registers device code itself (%s called from %s): only kernels compiled "
                               "from your file may run", r->to, fn);
            st = BUILD_AUDIT;
            continue;
        }
        int to_nvcc = registration_section(r->to) != NULL || in_list(r->to, nvcc_registration, -1) ||
                      in_list(r->to, nvcc_fatbin_data, -1);
        if (to_nvcc && !from_nvcc && strcmp(r->from, ".init_array") && strcmp(r->from, ".eh_frame") &&
            strcmp(r->from, ".nvFatBinSegment")) {
            section_function(b, r->from, fn, sizeof fn);
            snprintf(msg, len, "audit: %s uses nvcc's registration code or fatbin (%s): only nvcc's start-up code "
                               "may register kernels", fn, r->to);
            st = BUILD_AUDIT;
        }
    }
    return st;
}

/* nvcc's host object registers its kernels from one constructor of its own: the only entry
 * its .init_array may have. Returns 1 when the object's constructors are exactly that. */
static int only_cuda_registration(const elf_info *e)
{
    int entries = 0, nvcc = 0;
    for (int i = 0; i < e->nrel; i++)
        if (!strcmp(e->rel[i].from, ".init_array")) {
            entries++;
            /* the relocation names the constructor's section (or the function itself) + 0 */
            nvcc = section_of(e->rel[i].to, nvcc_registration[0]) || !strcmp(e->rel[i].to, nvcc_registration[0]);
        }
    return entries == 1 && nvcc;
}

int audit_object(const build_spec *b, const char *object, char *msg, size_t len)
{
    char out[1024];
    int cuda = strstr(b->compiler, "nvcc") != NULL;
    elf_info e;
    if (elf_read(b, object, &e)) {
        elf_free(&e);
        snprintf(msg, len, "could not run readelf on the object (is binutils installed?)");
        return BUILD_TOOL;
    }
    static const char *const banned[] = {".init_array", ".fini_array", ".preinit_array", ".ctors", ".dtors",
                                         ".init", ".fini", NULL};
    for (int s = 0; s < e.nsec; s++) {
        for (int i = 0; banned[i]; i++) {
            /* .init_array.00100 is a constructor with a priority: the same thing */
            size_t n = strlen(banned[i]);
            if (strncmp(e.sec[s].name, banned[i], n) || (e.sec[s].name[n] && (i >= 5 || e.sec[s].name[n] != '.')))
                continue;
            if (i == 0 && cuda && !e.sec[s].name[n] && only_cuda_registration(&e)) continue;
            snprintf(msg, len, "audit: the object has a %s section (constructors/destructors are not allowed)",
                     banned[i]);
            elf_free(&e);
            return BUILD_AUDIT;
        }
    }
    int status = cuda ? audit_registration(b, &e, msg, len) : BUILD_OK;
    elf_free(&e);
    if (status != BUILD_OK) return status;
    snprintf(out, sizeof out, "%s/symbols.txt", b->scratch);
    char *nm[] = {"nm", "-P", (char *)object, NULL};
    if (run_tool(nm, out, TOOL_TIMEOUT_S) != 0) {
        snprintf(msg, len, "could not run nm on the object");
        return BUILD_TOOL;
    }
    char *text = read_text(out, 1 << 22);
    char *save = NULL;
    for (char *line = text ? strtok_r(text, "\n", &save) : NULL; line && status == BUILD_OK;
         line = strtok_r(NULL, "\n", &save)) {
        char name[512], type;
        if (sscanf(line, "%511s %c", name, &type) != 2) continue;
        if (type == 'U') {
            if (never_allowed_call(name)) {
                snprintf(msg, len, "audit: calls %s, which loads device code or looks up driver functions by name "
                                   "(no lab allows it): only kernels compiled from your file may run", name);
                status = BUILD_AUDIT;
            } else if (!in_list(name, base_allowed, -1) && !word_in(name, b->allow_calls)) {
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

/* PTX as ptxas reads it, for the search below: comments dropped, and no white space before a
 * '.'. From inline asm ptxas accepts "mma", then a comment or a line break, then ".sync.aligned
 * ...": a search for "mma." would miss that (the SASS audit sees it; this covers toolkits without
 * cuobjdump). An opcode itself can't be split: a comment inside "mma" is a syntax error. */
static void ptx_normalise(char *text)
{
    char *out = text;
    for (char *p = text; *p;) { /* comments become a space: they separate tokens */
        if (p[0] == '/' && p[1] == '/') p += strcspn(p, "\n");
        else if (p[0] == '/' && p[1] == '*') {
            char *end = strstr(p + 2, "*/");
            p = end ? end + 2 : p + strlen(p);
            *out++ = ' ';
        } else *out++ = *p++;
    }
    *out = '\0';
    out = text;
    for (char *p = text; *p;) {
        if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
            char *q = p + strspn(p, " \t\n\r");
            if (*q != '.') *out++ = *p;
            p = q;
        } else *out++ = *p++;
    }
    *out = '\0';
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
        if (text) ptx_normalise(text);
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

/* Is the SASS opcode (before its first '.': HMMA of HMMA.16816.F32) one of the patterns? */
static const char *sass_forbidden(const char *opcode, const char *patterns)
{
    static char hit[64];
    char base[64], words[512], *save = NULL;
    snprintf(base, sizeof base, "%.*s", (int)strcspn(opcode, ". ;"), opcode);
    snprintf(words, sizeof words, "%s", patterns);
    for (char *w = strtok_r(words, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
        if (fnmatch(w, base, 0) == 0) return snprintf(hit, sizeof hit, "%s", w), hit;
    return NULL;
}

/* The lab's forbidden SASS opcodes, looked for in the machine code of every architecture in the
 * object (cuobjdump -sass): what the GPU would run, however it was written. The PTX audit reads
 * what nvcc generated from the source; this reads what the object carries. Returns BUILD_OK,
 * BUILD_AUDIT, BUILD_TOOL, or -1 when this toolkit has no cuobjdump (or no nvdisasm, which it runs):
 * some installs leave them out, and the build then relies on the PTX audit alone. */
static int audit_sass(const build_spec *b, const char *object, const char *patterns, char *msg, size_t len)
{
    char tool[PATH_MAX + 32], disasm[PATH_MAX + 32], out[1100];
    snprintf(tool, sizeof tool, "%s/bin/cuobjdump", b->cuda_home ? b->cuda_home : "");
    snprintf(disasm, sizeof disasm, "%s/bin/nvdisasm", b->cuda_home ? b->cuda_home : "");
    if (!b->cuda_home || access(tool, X_OK) || access(disasm, X_OK)) return -1;
    snprintf(out, sizeof out, "%s/sass.txt", b->scratch);
    char *argv[] = {tool, "-sass", (char *)object, NULL};
    if (run_tool_files(argv, out, TOOL_TIMEOUT_S, (size_t)256 << 20) != 0) {
        tool_message(out, msg, len, "cuobjdump could not read the object's device code:\n");
        return BUILD_TOOL;
    }
    char *text = read_text(out, (size_t)256 << 20), *save = NULL, arch[32] = "?", fn[512] = "?";
    if (!text) {
        snprintf(msg, len, "could not read cuobjdump's output %s", out);
        return BUILD_TOOL;
    }
    int status = BUILD_OK;
    /* Lines "arch = sm_90", "Function : _Z4tileiii..." and, per instruction, its address in a
     * comment, an optional predicate and the opcode: "(address)   @!P0 HMMA.16816.F32 R4, ... ;" */
    for (char *l = strtok_r(text, "\n", &save); l && status == BUILD_OK; l = strtok_r(NULL, "\n", &save)) {
        char *p = l + strspn(l, " \t");
        if (sscanf(p, "arch = %31s", arch) == 1 || sscanf(p, "Function : %511s", fn) == 1) continue;
        if (strncmp(p, "/*", 2) || !(p = strstr(p + 2, "*/"))) continue;
        p += 2 + strspn(p + 2, " \t");
        if (*p == '@') p += strcspn(p, " \t"), p += strspn(p, " \t"); /* a predicate: @P0, @!PT */
        const char *w = *p >= 'A' && *p <= 'Z' ? sass_forbidden(p, patterns) : NULL;
        if (w) {
            char section[600], fname[600];
            snprintf(section, sizeof section, ".text.%s", fn);
            section_function(b, section, fname, sizeof fname);
            snprintf(msg, len, "audit: the kernel %s uses the instruction %.*s (%s, in its %s machine code), which "
                               "this lab does not allow", fname, (int)strcspn(p, " ;"), p, w, arch);
            status = BUILD_AUDIT;
        }
    }
    free(text);
    return status;
}

/* forbid_sass from the lab's thresholds.conf (build.h), for the caller to free; NULL: none. */
static char *forbidden_sass(const build_spec *b)
{
    char path[1100], err[256];
    snprintf(path, sizeof path, "%s/thresholds.conf", b->lab_dir);
    config c;
    if (config_load(&c, path, err, sizeof err)) return NULL;
    const char *v = config_str(&c, "forbid_sass");
    char *copy = v && *v ? xstrdup(v) : NULL;
    config_free(&c);
    return copy;
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
    const char *head[] = {b->compiler, NULL}, *tail[16];
    int t = 0;
    if (nv) tail[t++] = "-Xcompiler";
    tail[t++] = asm_flag;
    /* each host function in a section of its own: the audit tells nvcc's registration code from
     * the student's functions by section (audit_registration) */
    if (nv) tail[t++] = "-Xcompiler", tail[t++] = "-ffunction-sections";
    tail[t++] = idir, tail[t++] = "-c", tail[t++] = src, tail[t++] = "-o", tail[t++] = obj;
    if (ptx) tail[t++] = "--keep", tail[t++] = keep_dir;
    tail[t] = NULL;
    if (build_step(head, b->cflags, tail, out, msg, len, "does not compile:\n")) return BUILD_COMPILE;
    if ((st = check_assembler_reads(b, src, asm_deps, msg, len)) != BUILD_OK) return st;
    if ((st = audit_object(b, obj, msg, len)) != BUILD_OK) return st;
    if (ptx && (st = audit_ptx(b, keep, msg, len)) != BUILD_OK) return st;
    char *sass = nv ? forbidden_sass(b) : NULL;
    st = sass ? audit_sass(b, obj, sass, msg, len) : BUILD_OK;
    free(sass);
    if (st == -1) st = BUILD_OK; /* no cuobjdump here: the PTX audit above stands alone */
    if (st != BUILD_OK) return st;
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
    snprintf(flags, sizeof flags, "%s%s%s%s%s", b->ldlibs, nv ? " " : "", nv ? GPU_REGISTER_LDFLAGS : "",
             b->sanitize && *b->sanitize ? " -no-pie " : "", b->sanitize ? b->sanitize : "");
    return build_step(lhead, flags, ltail, out, msg, len, "does not link:\n") ? BUILD_LINK : BUILD_OK;
}
