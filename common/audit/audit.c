/* audit.c - see audit.h: what a student object may contain and call, read from the object
 * itself (symbols, sections, relocations) and from the device code nvcc generated (PTX, SASS). */
#define _GNU_SOURCE
#include "audit.h"
#include "callsite.h"
#include "elf.h"
#include "config.h"
#include "tool.h"
#include "util.h"

#include <fnmatch.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
        /* a section that is never loaded (the line tables' .debug_*) can't run or point at anything */
        int from = section_index(e, r->from);
        if (from >= 0 && !strchr(e->sec[from].flags, 'A')) continue;
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

/* ---- what the object may call and define ---- */

/* A weak definition the host compiler made from C++: an inline function or member, a template
 * instance (the student's own, or std::vector's from a standard header), a vtable or typeinfo. Each
 * has a mangled name (_Z...) and lies in a COMDAT group, as every such definition does. build.c
 * makes every symbol but the lab's functions local before the link, so none can stand in for a
 * symbol of the runner's or of a library; and no group that the runner or the CUDA runtime links
 * has a mangled signature (the CUDA runtime's are obfuscated C names; tests/test_audit.c checks it
 * on the toolkit installed), so none can take the place of one of theirs either. */
static int cxx_instance(const elf_info *e, const char *name)
{
    int s = !strncmp(name, "_Z", 2) ? symbol_index(e, name) : -1, sec = s >= 0 ? e->sym[s].section : -1;
    return sec >= 0 && sec < e->nsec && strchr(e->sec[sec].flags, 'G') != NULL;
}

/* A C++ name in an anonymous namespace (or a kernel's stub for one): "_ZN", the length of the first component, then nvcc's
 * "_GLOBAL__N__<file hash>" (or gcc's "_GLOBAL__N_1"). nvcc gives such functions global, hidden
 * binding; no other object can name them (the hash is the file's), and every symbol but the lab's
 * functions is made local before the link anyway. */
static int anonymous_namespace(const char *name)
{
    const char *q = name + 2; /* a kernel's host stub: "_Z<length>__device_stub_" + the kernel's name */
    while (!strncmp(name, "_Z", 2) && *q >= '0' && *q <= '9') q++;
    if (q > name + 2 && !strncmp(q, "__device_stub_", 14)) name = q + 14;
    if (strncmp(name, "_ZN", 3)) return 0;
    const char *p = name + 3;
    while (*p >= '0' && *p <= '9') p++;
    return p > name + 3 && !strncmp(p, "_GLOBAL__N_", 11);
}

static int call_allowed(const build_spec *b, const char *name, int cuda)
{
    return in_list(name, base_allowed, -1) || (cuda && in_list(name, cxx_runtime, -1)) || word_in(name, b->allow_calls);
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
        } else if (!weak && type >= 'A' && type <= 'Z' && !in_list(sym, b->functions, b->nfunctions) &&
                   !(cuda && anonymous_namespace(sym))) {
            demangle(b, sym, name, sizeof name);
            snprintf(defines, sizeof defines, "audit: defines global symbol %s; only the lab's functions may be global "
                     "(make helpers%s static)", name, cuda ? " and kernels" : "");
        } else if (weak && cuda && (!strcmp(sym, "DW.ref.__gxx_personality_v0") || cxx_instance(&e, sym))) {
            /* nvcc's C++ exception-handling reference, and inline C++ and template instances */
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
void ptx_normalise(char *text)
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

