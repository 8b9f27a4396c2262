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
    /* the usual error check ends `fprintf(stderr, ...); exit(1);`: exit mid-test only ends the case
     * without its records, which the scorer reports ("does your code call exit()?", checks.c), and
     * whatever status it gives, a case that did not finish fails. (_exit stays out: no honest code
     * needs it, and planted/exit_libc.c of lab 01 expects the audit to name it.) */
    "exit",
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

/* What C++ host code may call in every CUDA lab (the compiler is nvcc), besides the lab's
 * allow_calls: the C++ runtime that the standard headers' containers (std::vector in host code)
 * and function-local statics compile into, read with nm -u from nvcc 13.0 objects (g++ 12 as the
 * host compiler) at -O2 and -O3. None of it reaches outside the process. Threads (std::thread,
 * std::async), streams and files of the standard library stay out: their symbols are not here. */
static const char *const cxx_runtime[] = {
    /* operator new and delete (plain, sized, array, over-aligned): memory, as malloc and free are */
    "_Znwm", "_Znam", "_ZdlPv", "_ZdlPvm", "_ZdaPv", "_ZdaPvm", "_ZnwmSt11align_val_t", "_ZnamSt11align_val_t",
    "_ZdlPvSt11align_val_t", "_ZdlPvmSt11align_val_t", "_ZdaPvSt11align_val_t", "_ZdaPvmSt11align_val_t",
    /* the containers' out-of-line throws (a length over max_size(), a failed allocation, at() out
     * of range, new T[n] with n < 0): each only throws, and an exception that leaves the lab's
     * function ends the case; and the failed-assertion report of -D_GLIBCXX_ASSERTIONS (some
     * distributions' default hardening), which aborts */
    "_ZSt17__throw_bad_allocv", "_ZSt20__throw_length_errorPKc", "_ZSt28__throw_bad_array_new_lengthv",
    "_ZSt20__throw_out_of_rangePKc", "_ZSt24__throw_out_of_range_fmtPKcz", "_ZSt19__throw_logic_errorPKc",
    "_ZSt24__throw_invalid_argumentPKc", "__cxa_throw_bad_array_new_length", "_ZSt21__glibcxx_assert_failPKciS0_S0_",
    /* exception handling: unwinding through a function that owns a container, the catch and
     * rethrow of a container's strong guarantee, std::terminate when a noexcept function throws */
    "__gxx_personality_v0", "_Unwind_Resume", "__cxa_begin_catch", "__cxa_end_catch", "__cxa_rethrow",
    "__cxa_call_terminate", "_ZSt9terminatev",
    /* a function-local static: its one-time initialisation guard, and its destructor registered to
     * run at exit (as atexit, which nvcc's own start-up code calls) */
    "__cxa_guard_acquire", "__cxa_guard_release", "__cxa_guard_abort", "__cxa_atexit", "__dso_handle",
    NULL,
};

typedef struct elf_section { char name[256], flags[16]; unsigned long size; } elf_section; /* flags: readelf's Flg */
typedef struct elf_symbol { char name[512]; int section, func, weak; unsigned long value, size; } elf_symbol;
/* the section it patches, and where in it; its symbol and addend */
typedef struct elf_reloc { char from[256], to[512]; unsigned long offset; long addend; } elf_reloc;
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
        elf_section s = {{0}, {0}, 0};
        /* Flg may be empty; the next word (Lk) then holds no flag letter */
        if (!close || sscanf(l, " [%d]", &idx) != 1 || idx < 0 || idx > 1 << 20 ||
            sscanf(close + 1, "%255s %*s %*x %*x %lx %*x %15s", s.name, &s.size, s.flags) < 2)
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
        char size[32], type[32], bind[32], ndx[32];
        elf_symbol s = {{0}, -1, 0, 0, 0, 0};
        if (sscanf(l, " %*d: %lx %31s %31s %31s %*s %31s %511s", &s.value, size, type, bind, ndx, s.name) != 6 ||
            !strcmp(type, "SECTION") || !strcmp(type, "FILE"))
            continue;
        s.size = strtoul(size, NULL, 0);
        s.func = !strcmp(type, "FUNC");
        s.weak = !strcmp(bind, "WEAK");
        s.section = ndx[0] >= '0' && ndx[0] <= '9' ? atoi(ndx) : -1;
        if (e->nsym == cap) e->sym = xrealloc(e->sym, (size_t)(cap = cap * 2 + 64) * sizeof *e->sym);
        e->sym[e->nsym++] = s;
    }
    /* "Relocation section '.rela.text.foo' at offset ..." then (offset, info, type, value, symbol,
     * addend) "0000000000000009  0000002b00000004 R_X86_64_PLT32  0000000000000000 __cudaRegisterFatBinary - 4" */
    cap = 0;
    char from[256] = "";
    for (char *l = ok ? strtok_r(rel, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
        elf_reloc r = {{0}, {0}, 0, 0};
        char sign = '+';
        if (sscanf(l, "Relocation section '%255[^']'", from) == 1) {
            /* '.rela.text.foo' patches '.text.foo' (and '.rel.x' patches '.x') */
            size_t skip = !strncmp(from, ".rela.", 6) ? 5 : !strncmp(from, ".rel.", 5) ? 4 : 0;
            memmove(from, from + skip, strlen(from + skip) + 1);
            continue;
        }
        unsigned long addend = 0;
        if (!from[0] || sscanf(l, "%lx %*x %*s %*x %511s %c %lx", &r.offset, r.to, &sign, &addend) < 2) continue;
        r.addend = sign == '-' ? -(long)addend : (long)addend;
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

/* A symbol as the source spells it: "_ZdlPvm" is "operator delete(void*, unsigned long)". C names
 * are kept; so is a C++ name where c++filt (binutils) is missing or fails. */
static void demangle(const build_spec *b, const char *name, char *out, size_t len)
{
    snprintf(out, len, "%s", name);
    if (strncmp(name, "_Z", 2)) return;
    char path[1100];
    snprintf(path, sizeof path, "%s/demangled.txt", b->scratch);
    char *argv[] = {"c++filt", (char *)name, NULL};
    char *text = run_tool(argv, path, TOOL_TIMEOUT_S) == 0 ? read_text(path, 4096) : NULL;
    if (text && *text && *text != '\n') snprintf(out, len, "%.*s", (int)strcspn(text, "\n"), text);
    free(text);
}

/* The function a section holds, for a message: "vector_add", or demangled "sum(int, float const*, ...)". */
static void section_function(const build_spec *b, const char *section, char *out, size_t len)
{
    static const char *const prefixes[] = {".text.startup.", ".text.unlikely.", ".text.hot.", ".text.", NULL};
    const char *fn = NULL;
    for (int i = 0; prefixes[i] && !fn; i++)
        if (!strncmp(section, prefixes[i], strlen(prefixes[i]))) fn = section + strlen(prefixes[i]);
    if (!fn || !*fn) snprintf(out, len, "section %s", section);
    else demangle(b, fn, out, len);
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

/* ---- where a refused call is made, for the message ----
 *
 * The audited object tells the function: the relocation of the call lies in its code. A line
 * needs a line table, and the grader's flags ask for none (no -g in cflags), so once the audit has
 * refused a call the student's copy is compiled again as build.c compiled it, with -g (nvcc: for
 * the host code); addr2line turns the call's place in that object into lines, through every
 * function inlined there, and the first line in the student's file is reported. An accepted build
 * costs nothing; a refused one a second compile (about 2 s with nvcc, a fraction with gcc). */

/* The copy of the student's file build.c compiles: scratch/student.c or .cu. Messages that name
 * it are made to name the student's own file by build.c (point_at_source). */
static void student_copy(const build_spec *b, char *out, size_t len)
{
    const char *ext = strrchr(b->source, '.');
    snprintf(out, len, "%s/student%s", b->scratch, ext ? ext : ".c");
}

static int section_index(const elf_info *e, const char *name)
{
    for (int s = 0; s < e->nsec; s++)
        if (!strcmp(e->sec[s].name, name)) return s;
    return -1;
}

static int symbol_index(const elf_info *e, const char *name)
{
    for (int i = 0; i < e->nsym; i++)
        if (!strcmp(e->sym[i].name, name)) return i;
    return -1;
}

/* The function whose code holds offset `off` of section `sec`, or -1. */
static int function_at(const elf_info *e, int sec, unsigned long off)
{
    for (int i = 0; i < e->nsym; i++) {
        const elf_symbol *f = &e->sym[i];
        if (f->func && f->section == sec && off >= f->value && off < f->value + f->size) return i;
    }
    return -1;
}

/* Does relocation r point at symbol t: by its name, or, as assemblers write calls to local
 * functions, by its section's symbol with an addend inside it (a PC-relative call on x86-64
 * carries the target's offset - 4, on aarch64 the offset)? */
static int points_at(const elf_info *e, const elf_reloc *r, int t)
{
    const elf_symbol *s = &e->sym[t];
    if (!strcmp(r->to, s->name)) return 1;
    if (s->section < 0 || s->section >= e->nsec || strcmp(r->to, e->sec[s->section].name)) return 0;
    long lo = (long)s->value, hi = (long)(s->value + s->size);
    return (r->addend >= lo && r->addend < hi) || (r->addend + 4 >= lo && r->addend + 4 < hi);
}

/* Judges a place in `object`'s code that leads to the refused call: 1, with `out` filled, to report it. */
typedef int (*site_judge)(const build_spec *b, const elf_info *e, const char *object, int sec, unsigned long off,
                          int fn, char *out, size_t len);

/* From the refused symbol `name` to the code that refers to it, then from the function holding
 * that code to the code that calls it (std::vector's call to operator new sits in an std::
 * template, which the student's function calls), three levels at most, until `judge` accepts a
 * place. 1 when one was accepted. */
static int find_site(const build_spec *b, const elf_info *e, const char *object, const char *name, site_judge judge,
                     char *out, size_t len)
{
    enum { MAX_TARGETS = 16, MAX_TRIES = 24 };
    int targets[MAX_TARGETS], nt = 0, tries = 0, from = 0;
    if ((targets[nt] = symbol_index(e, name)) < 0) return 0;
    nt++;
    for (int depth = 0; depth < 4 && from < nt; depth++) {
        int to = nt;
        for (int i = 0; i < e->nrel; i++) {
            const elf_reloc *r = &e->rel[i];
            int sec = section_index(e, r->from);
            if (sec < 0 || !strchr(e->sec[sec].flags, 'X')) continue; /* code only: not .eh_frame or .debug_* */
            for (int t = from; t < to; t++) {
                if (!points_at(e, r, targets[t])) continue;
                int fn = function_at(e, sec, r->offset), seen = fn < 0;
                if (tries++ < MAX_TRIES && judge(b, e, object, sec, r->offset, fn, out, len)) return 1;
                for (int k = 0; k < nt && !seen; k++) seen = targets[k] == fn;
                if (!seen && nt < MAX_TARGETS) targets[nt++] = fn;
                break;
            }
        }
        from = to;
    }
    return 0;
}

/* Is a (mangled) name in namespace std or __gnu_cxx: the standard headers' code, std::vector<float>'s
 * members or std::async<lambda>'s (local when instantiated with a local type such as a lambda)? */
static int std_name(const char *name)
{
    static const char *const std_names[] = {"_ZNSt", "_ZNKSt", "_ZSt", "_ZNSa", "_ZNKSa", "_ZN9__gnu_cxx",
                                            "_ZNK9__gnu_cxx", NULL};
    for (int i = 0; std_names[i]; i++)
        if (!strncmp(name, std_names[i], strlen(std_names[i]))) return 1;
    return 0;
}

/* A function of the student's: not one the compiler made from a header (weak, or in namespace std). */
static int judge_own_function(const build_spec *b, const elf_info *e, const char *object, int sec, unsigned long off,
                              int fn, char *out, size_t len)
{
    (void)object, (void)sec, (void)off;
    if (fn < 0 || e->sym[fn].weak || std_name(e->sym[fn].name)) return 0;
    demangle(b, e->sym[fn].name, out, len);
    return 1;
}

/* Any function (or the section, where no symbol covers the place). */
static int judge_any_function(const build_spec *b, const elf_info *e, const char *object, int sec, unsigned long off,
                              int fn, char *out, size_t len)
{
    (void)object, (void)off;
    if (fn >= 0) demangle(b, e->sym[fn].name, out, len);
    else section_function(b, e->sec[sec].name, out, len);
    return 1;
}

/* A line of the student's file among the frames addr2line gives for the place: pairs of lines,
 * a function, then "file:line" (maybe followed by " (discriminator N)"), innermost first: a call
 * in a header's inline function is reported where the student's code calls that. (The function
 * names are not used: for nvcc's host code addr2line 2.40 gives the outermost one at every
 * level.) */
static int judge_line(const build_spec *b, const elf_info *e, const char *object, int sec, unsigned long off, int fn,
                      char *out, size_t len)
{
    char src[1100], real_src[PATH_MAX], real[PATH_MAX], path[1100], addr[32];
    (void)fn;
    student_copy(b, src, sizeof src);
    if (!realpath(src, real_src)) return 0;
    snprintf(path, sizeof path, "%s/addr2line.txt", b->scratch);
    snprintf(addr, sizeof addr, "0x%lx", off);
    char *argv[] = {"addr2line", "-f", "-i", "-C", "-e", (char *)object, "-j", e->sec[sec].name, addr, NULL};
    char *text = run_tool(argv, path, TOOL_TIMEOUT_S) == 0 ? read_text(path, 1 << 16) : NULL, *save = NULL;
    int found = 0, k = 0;
    for (char *l = text ? strtok_r(text, "\n", &save) : NULL; l && !found; l = strtok_r(NULL, "\n", &save)) {
        if (k++ % 2 == 0) continue; /* the function's name */
        l[strcspn(l, " ")] = '\0'; /* drops " (discriminator 2)" */
        char *colon = strrchr(l, ':');
        if (colon && colon[1] >= '1' && colon[1] <= '9') {
            *colon = '\0';
            if (realpath(l, real) && !strcmp(real, real_src)) {
                snprintf(out, len, "%s:%d", src, atoi(colon + 1));
                found = 1;
            }
        }
    }
    free(text);
    return found;
}

/* The student's copy compiled again as build.c compiled it, with line tables: for messages only
 * (nothing of it is linked or run). 0 with its path in `object`. */
static int debug_build(const build_spec *b, char *object, size_t len)
{
    char src[1100], idir[1100], out[1100], *argv[200], *save = NULL;
    student_copy(b, src, sizeof src);
    if (access(src, R_OK)) return -1;
    snprintf(object, len, "%s/audit-lines.o", b->scratch);
    snprintf(out, sizeof out, "%s/audit-lines.txt", b->scratch);
    snprintf(idir, sizeof idir, "-I%s", b->lab_dir);
    char *flags = xstrdup(b->cflags ? b->cflags : "");
    int n = 0;
    argv[n++] = (char *)b->compiler;
    for (char *w = strtok_r(flags, " \t", &save); w && n < 180; w = strtok_r(NULL, " \t", &save)) argv[n++] = w;
    if (strstr(b->compiler, "nvcc")) /* as build.c: each host function in a section of its own */
        argv[n++] = "-Xcompiler", argv[n++] = "-g", argv[n++] = "-Xcompiler", argv[n++] = "-ffunction-sections";
    else argv[n++] = "-g";
    argv[n++] = idir, argv[n++] = "-c", argv[n++] = src, argv[n++] = "-o", argv[n++] = object, argv[n] = NULL;
    int rc = run_tool(argv, out, TOOL_TIMEOUT_S);
    free(flags);
    return rc == 0 ? 0 : -1;
}

/* Where the object `e` calls `name`, for the message: " at <src>:<line>, in the code of fn" (the
 * function the line is compiled into: itself, or one it is inlined into), else " in the code of
 * fn", else "" (no code refers to it by name). */
static void call_site(const build_spec *b, const elf_info *e, const char *object, const char *name, char *out,
                      size_t len)
{
    char fn[1024] = "", line[2200] = "", debug[1100];
    if (!find_site(b, e, object, name, judge_own_function, fn, sizeof fn))
        find_site(b, e, object, name, judge_any_function, fn, sizeof fn);
    elf_info d;
    memset(&d, 0, sizeof d);
    if (debug_build(b, debug, sizeof debug) == 0 && elf_read(b, debug, &d) == 0)
        find_site(b, &d, debug, name, judge_line, line, sizeof line);
    elf_free(&d);
    const char *in = !fn[0] ? "" : line[0] ? ", in the code of " : " in the code of ";
    snprintf(out, len, "%s%s%s%s", line[0] ? " at " : "", line, in, fn);
}

/* ---- what the object may call and define ---- */

/* A weak definition the host compiler made from a standard header (std::vector's members, the
 * helpers of std::sort): named in namespace std or __gnu_cxx, and in a COMDAT group, as every
 * template instance is. build.c makes every symbol but the lab's functions local before the link,
 * so none can stand in for a symbol of the runner's or of a library. */
static int std_instance(const elf_info *e, const char *name)
{
    int s = std_name(name) ? symbol_index(e, name) : -1, sec = s >= 0 ? e->sym[s].section : -1;
    return sec >= 0 && sec < e->nsec && strchr(e->sec[sec].flags, 'G') != NULL;
}

static int call_allowed(const build_spec *b, const char *name, int cuda)
{
    return in_list(name, base_allowed, -1) || (cuda && in_list(name, cxx_runtime, -1)) || word_in(name, b->allow_calls);
}

/* The object's refused calls as a message: one with where it is made (the first in nm's order
 * that code of the student's own calls, rather than one reached only through a library template's
 * virtual function), three more by name, and how many more there are (`total` in all; `names`
 * holds the first `kept`). */
static void refused_message(const build_spec *b, const elf_info *e, const char *object, char names[][512], int kept,
                            int total, char *msg, size_t len)
{
    char name[1024], site[2400];
    int first = 0;
    for (int i = 0; i < kept && !first; i++)
        if (find_site(b, e, object, names[i], judge_own_function, site, sizeof site)) first = i + 1;
    first = first ? first - 1 : 0;
    demangle(b, names[first], name, sizeof name);
    call_site(b, e, object, names[first], site, sizeof site);
    snprintf(msg, len, "audit: calls %s%s, which this lab does not allow", name, site);
    for (int i = 0, listed = 0; i < kept && listed < 3; i++) {
        if (i == first) continue;
        demangle(b, names[i], name, sizeof name);
        size_t at = strlen(msg);
        snprintf(msg + at, len - at, "%s%s", listed++ ? ", " : "; nor these: ", name);
    }
    size_t at = strlen(msg);
    if (total > 4) snprintf(msg + at, len - at, " (and %d more)", total - 4);
}

int audit_object(const build_spec *b, const char *object, char *msg, size_t len)
{
    enum { KEPT = 64 }; /* refused calls kept to choose the one to place */
    char out[2400], refused[KEPT][512], name[1024], defines[1600] = "";
    int cuda = strstr(b->compiler, "nvcc") != NULL, nrefused = 0;
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
    if (status != BUILD_OK) {
        elf_free(&e);
        return status;
    }
    snprintf(out, sizeof out, "%s/symbols.txt", b->scratch);
    char *nm[] = {"nm", "-P", (char *)object, NULL};
    if (run_tool(nm, out, TOOL_TIMEOUT_S) != 0) {
        elf_free(&e);
        snprintf(msg, len, "could not run nm on the object");
        return BUILD_TOOL;
    }
    char *text = read_text(out, 1 << 22);
    char *save = NULL;
    for (char *line = text ? strtok_r(text, "\n", &save) : NULL; line && status == BUILD_OK;
         line = strtok_r(NULL, "\n", &save)) {
        char sym[512], type;
        if (sscanf(line, "%511s %c", sym, &type) != 2) continue;
        /* U: a call; w and v: a weak reference (no error at the link if nothing defines it), a call all
         * the same; W and V: a weak definition */
        int weak = type == 'V' || type == 'W';
        if (type == 'U' || ((type == 'w' || type == 'v') && !in_list(sym, b->functions, b->nfunctions))) {
            if (never_allowed_call(sym)) {
                demangle(b, sym, name, sizeof name);
                call_site(b, &e, object, sym, out, sizeof out);
                snprintf(msg, len, "audit: calls %s%s, which loads device code or looks up driver functions by name "
                                   "(no lab allows it): only kernels compiled from your file may run", name, out);
                status = BUILD_AUDIT;
            } else if (!call_allowed(b, sym, cuda)) {
                if (nrefused < KEPT) snprintf(refused[nrefused], sizeof refused[0], "%s", sym);
                nrefused++;
            }
        } else if (defines[0]) {
            /* a definition is refused already: the rest of the list is read for refused calls,
             * which the message names first (a thread library's calls say more than its typeinfo) */
        } else if (type == 'i') {
            demangle(b, sym, name, sizeof name);
            snprintf(defines, sizeof defines, "audit: %s is an ifunc (its resolver would run before the grader)", name);
        } else if (!weak && type >= 'A' && type <= 'Z' && !in_list(sym, b->functions, b->nfunctions)) {
            demangle(b, sym, name, sizeof name);
            snprintf(defines, sizeof defines, "audit: defines global symbol %s; only the lab's functions may be global "
                     "(make helpers%s static)", name, cuda ? " and kernels" : "");
        } else if (weak && cuda && (!strcmp(sym, "DW.ref.__gxx_personality_v0") || std_instance(&e, sym))) {
            /* nvcc's C++ exception-handling reference, and the standard headers' template
             * instances: not code of the student's */
        } else if (weak && !in_list(sym, b->functions, b->nfunctions)) {
            demangle(b, sym, name, sizeof name);
            snprintf(defines, sizeof defines, "audit: defines weak symbol %s", name);
        }
    }
    if (status == BUILD_OK && nrefused > 0) {
        refused_message(b, &e, object, refused, nrefused < KEPT ? nrefused : KEPT, nrefused, msg, len);
        status = BUILD_AUDIT;
    } else if (status == BUILD_OK && defines[0]) {
        snprintf(msg, len, "%s", defines);
        status = BUILD_AUDIT;
    }
    free(text);
    elf_free(&e);
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

