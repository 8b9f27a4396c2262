/* audit.c - see audit.h: what a student object may contain and call, read from the object
 * itself (symbols, sections, relocations) and from the device code nvcc generated (PTX, SASS). */
#define _GNU_SOURCE
#include "audit.h"
#include "config.h"
#include "gpu_register.h"
#include "util.h"

#include <fnmatch.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TOOL_TIMEOUT_S 60.0

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
int audit_ptx(const build_spec *b, const char *keep, char *msg, size_t len)
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
int audit_sass(const build_spec *b, const char *object, const char *patterns, char *msg, size_t len)
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
char *forbidden_sass(const build_spec *b)
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

