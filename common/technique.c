/* technique.c - see technique.h. */
#define _GNU_SOURCE
#include <ctype.h>
#include <fnmatch.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "elf.h"
#include "technique.h"
#include "util.h"

/* ---- the PTX side: functions, their opcodes, their calls ---- */

typedef struct ptx_fn {
    char name[512];
    const char *body, *end; /* between the braces of its definition */
    int entry;              /* a kernel (.entry), not a device function (.func) */
} ptx_fn;

static int name_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '$' || c == '.'; }

/* The functions (.entry kernels, .func device functions) defined in normalised PTX text, at most
 * max. A declaration without a body is left out. */
static int ptx_functions(const char *t, ptx_fn *fn, int max)
{
    int n = 0;
    for (const char *p = t; n < max && (p = strstr(p, ".")) != NULL;) {
        int entry = !strncmp(p, ".entry", 6), func = !strncmp(p, ".func", 5);
        if ((!entry && !func) || name_char(p[entry ? 6 : 5])) {
            p++;
            continue;
        }
        p += entry ? 6 : 5;
        p += strspn(p, " \t\r\n");
        if (*p == '(') { /* a device function's return value: "(.param.b32 func_retval0)" */
            const char *close = strchr(p, ')');
            if (!close) break;
            p = close + 1 + strspn(close + 1, " \t\r\n");
        }
        size_t k = 0;
        while (name_char(p[k]) && k + 1 < sizeof fn[n].name) k++;
        if (!k) continue;
        snprintf(fn[n].name, sizeof fn[n].name, "%.*s", (int)k, p);
        p += k;
        /* its parameters, then a body, or ';' for a declaration */
        int depth = 0;
        while (*p && !(depth == 0 && (*p == '{' || *p == ';'))) depth += (*p == '(') - (*p == ')'), p++;
        if (*p != '{') continue;
        const char *body = ++p;
        for (depth = 1; *p && depth; p++) depth += (*p == '{') - (*p == '}');
        fn[n].body = body, fn[n].end = p, fn[n].entry = entry;
        n++;
    }
    return n;
}

/* The opcode of one statement (the text before its ';'): past braces, labels ("$L__BB0_2:"),
 * directives (".loc 1 5 3", which ends with a line, not a ';') and a predicate ("@%p1", "@!%p2").
 * Empty where the statement is a directive. */
static void statement_opcode(const char *s, const char *end, char *op, size_t len)
{
    op[0] = '\0';
    while (s < end) {
        s += strspn(s, " \t\r\n{}");
        if (s >= end) return;
        size_t word = 0;
        while (s + word < end && !isspace((unsigned char)s[word]) && s[word] != '{' && s[word] != '}') word++;
        /* a label ("$L__BB0_2:"), which the normalising may have joined to a directive after it
         * ("$L__BB0_2:.loc"); a single ':' (an opcode may hold "::", as in ld.global.L1::no_allocate) */
        const char *colon = NULL;
        for (size_t k = 0; k < word && !colon; k++)
            if (s[k] == ':' && (k + 1 == word || s[k + 1] != ':') && (k == 0 || s[k - 1] != ':')) colon = s + k;
        if (colon) {
            s = colon + 1;
            continue;
        }
        if (*s == '.') { /* a directive: to the end of its line */
            const char *nl = memchr(s, '\n', (size_t)(end - s));
            if (!nl) return;
            s = nl + 1;
            continue;
        }
        if (*s == '@') { /* a predicate */
            s += word;
            continue;
        }
        snprintf(op, len, "%.*s", (int)word, s);
        return;
    }
}

static int matches_any(const char *op, const char *patterns)
{
    char words[1024], *save = NULL;
    snprintf(words, sizeof words, "%s", patterns);
    for (char *w = strtok_r(words, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
        if (fnmatch(w, op, 0) == 0) return 1;
    return 0;
}

/* Does a call in [s, end) name the function `name` (a whole token)? */
static int names(const char *s, const char *end, const char *name)
{
    size_t k = strlen(name);
    for (const char *p = s; p + k <= end && (p = memmem(p, (size_t)(end - p), name, k)) != NULL; p += k)
        if ((p == s || !name_char(p[-1])) && (p + k == end || !name_char(p[k]))) return 1;
    return 0;
}

/* Does function i, or a function it calls (transitively: `seen` marks those visited), use a
 * matching instruction? */
static int uses(const ptx_fn *fn, int n, int i, const char *patterns, char *seen)
{
    if (seen[i]) return 0;
    seen[i] = 1;
    char op[128];
    for (const char *s = fn[i].body; s < fn[i].end;) {
        const char *semi = memchr(s, ';', (size_t)(fn[i].end - s));
        const char *end = semi ? semi : fn[i].end;
        statement_opcode(s, end, op, sizeof op);
        if (op[0] && matches_any(op, patterns)) return 1;
        if (!strncmp(op, "call", 4))
            for (int j = 0; j < n; j++)
                if (j != i && !seen[j] && names(s, end, fn[j].name) && uses(fn, n, j, patterns, seen)) return 1;
        s = end + 1;
    }
    return 0;
}

enum { MAX_PTX_FUNCTIONS = 512 };

int ptx_kernel_uses(const char *ptx, const char *kernel, const char *patterns)
{
    char *text = xstrdup(ptx);
    ptx_normalise(text);
    ptx_fn *fn = xcalloc(MAX_PTX_FUNCTIONS, sizeof *fn);
    int n = ptx_functions(text, fn, MAX_PTX_FUNCTIONS), found = -1;
    char *seen = xcalloc(MAX_PTX_FUNCTIONS, 1);
    for (int i = 0; i < n && found < 1; i++)
        if (!strcmp(fn[i].name, kernel)) found = uses(fn, n, i, patterns, seen);
    free(seen);
    free(fn);
    free(text);
    return found;
}

/* ---- the host side: which kernels a stage's function reaches ---- */

/* The names of the functions in the sections reached from `function`'s through the relocations
 * (calls, and addresses taken: a kernel launched through a pointer, a table of them), and of those
 * sections ("_Z...L11tile_kernel..." for ".text._Z...": a local template's stub is reached through
 * its section). Returns how many, into names (for the caller to free); -1 where readelf failed. */
static int reached_names(const build_spec *b, const char *object, const char *function, char ***names)
{
    elf_info e;
    if (elf_read(b, object, &e)) return -1;
    int start = symbol_index(&e, function), count = 0;
    char *reached = xcalloc((size_t)e.nsec + 1, 1);
    int *queue = xcalloc((size_t)e.nsec + 1, sizeof *queue), head = 0, tail = 0;
    if (start >= 0 && e.sym[start].section >= 0 && e.sym[start].section < e.nsec)
        reached[e.sym[start].section] = 1, queue[tail++] = e.sym[start].section;
    while (head < tail) {
        const char *from = e.sec[queue[head++]].name;
        for (int i = 0; i < e.nrel; i++) {
            if (strcmp(e.rel[i].from, from)) continue;
            int to = section_index(&e, e.rel[i].to);
            if (to < 0) {
                int s = symbol_index(&e, e.rel[i].to);
                to = s >= 0 ? e.sym[s].section : -1;
            }
            if (to < 0 || to >= e.nsec || reached[to]) continue;
            const char *name = e.sec[to].name;
            if (strncmp(name, ".text", 5) && strncmp(name, ".data", 5) && strncmp(name, ".rodata", 7)) continue;
            reached[to] = 1, queue[tail++] = to;
        }
    }
    *names = xcalloc((size_t)e.nsym + (size_t)e.nsec + 1, sizeof **names);
    for (int i = 0; i < e.nsym; i++)
        if (e.sym[i].func && e.sym[i].section >= 0 && e.sym[i].section < e.nsec && reached[e.sym[i].section])
            (*names)[count++] = xstrdup(e.sym[i].name);
    for (int s = 0; s < e.nsec; s++)
        if (reached[s] && !strncmp(e.sec[s].name, ".text.", 6)) {
            const char *n = e.sec[s].name + 6;
            if (!strncmp(n, "unlikely.", 9)) n += 9;
            (*names)[count++] = xstrdup(n);
        }
    free(reached);
    free(queue);
    elf_free(&e);
    return count;
}

/* Each of the n names demangled (c++filt, all in one call), into out[i] (for the caller to free);
 * a name c++filt does not change, or all of them where it can't be run, as it is. */
static void demangle_all(const build_spec *b, char **in, int n, char **out)
{
    char **argv = xcalloc((size_t)n + 2, sizeof *argv), path[1100];
    argv[0] = "c++filt";
    for (int i = 0; i < n; i++) argv[i + 1] = in[i];
    snprintf(path, sizeof path, "%s/technique-names.txt", b->scratch);
    char *text = n && run_tool(argv, path, 60) == 0 ? read_text(path, 16 << 20) : NULL, *line = text;
    for (int i = 0; i < n; i++) {
        size_t k = line ? strcspn(line, "\n") : 0;
        out[i] = line && *line ? strndup(line, k) : xstrdup(in[i]);
        if (line) line = line[k] ? line + k + 1 : line + k;
    }
    free(text);
    free(argv);
}

/* A kernel's name for a message: demangled, its parameter list left out. */
static void short_name(const char *demangled, char *out, size_t len)
{
    const char *paren = strchr(demangled, '(');
    snprintf(out, len, "%.*s", paren ? (int)(paren - demangled) : (int)strlen(demangled), demangled);
}

int technique_check(const build_spec *b, const char *function, const char *spec, char *msg, size_t len)
{
    char object[1100], pattern[1100];
    snprintf(object, sizeof object, "%s/student.o", b->scratch);
    snprintf(pattern, sizeof pattern, "%s/keep/*.ptx", b->scratch);
    msg[0] = '\0';
    char **host = NULL;
    int nhost = reached_names(b, object, function, &host);
    if (nhost < 0) {
        snprintf(msg, len, "technique not checked: readelf could not read the object");
        return -1;
    }
    /* every PTX file (one an architecture) and the kernels defined in each */
    glob_t g;
    if (glob(pattern, 0, NULL, &g) != 0) {
        snprintf(msg, len, "technique not checked: no PTX from nvcc in %s/keep", b->scratch);
        for (int i = 0; i < nhost; i++) free(host[i]);
        free(host);
        return -1;
    }
    char **ptx = xcalloc(g.gl_pathc, sizeof *ptx);
    ptx_fn *fn = xcalloc(MAX_PTX_FUNCTIONS, sizeof *fn);
    char **kernels = xcalloc(MAX_PTX_FUNCTIONS, sizeof *kernels);
    int nkernels = 0;
    for (size_t f = 0; f < g.gl_pathc; f++) {
        ptx[f] = read_text(g.gl_pathv[f], 64 << 20);
        if (!ptx[f]) continue;
        ptx_normalise(ptx[f]);
        int n = ptx_functions(ptx[f], fn, MAX_PTX_FUNCTIONS);
        for (int i = 0; i < n && nkernels < MAX_PTX_FUNCTIONS; i++) {
            if (!fn[i].entry) continue;
            int known = 0;
            for (int k = 0; k < nkernels && !known; k++) known = !strcmp(kernels[k], fn[i].name);
            if (!known) kernels[nkernels++] = xstrdup(fn[i].name);
        }
    }
    /* the kernels the function reaches: the same name, or the same demangled (a local
     * template's host stub is spelt with an 'L' its PTX name lacks) */
    char **all = xcalloc((size_t)(nhost + nkernels) + 1, sizeof *all), **plain = xcalloc((size_t)(nhost + nkernels) + 1, sizeof *plain);
    for (int i = 0; i < nhost; i++) all[i] = host[i];
    for (int k = 0; k < nkernels; k++) all[nhost + k] = kernels[k];
    demangle_all(b, all, nhost + nkernels, plain);
    int *hit = xcalloc((size_t)nkernels + 1, sizeof *hit), nhit = 0;
    for (int k = 0; k < nkernels; k++)
        for (int i = 0; i < nhost && !hit[k]; i++)
            if (!strcmp(host[i], kernels[k]) || !strcmp(plain[i], plain[nhost + k])) hit[k] = 1, nhit++;
    int result = 1;
    if (!nhit) {
        snprintf(msg, len, "technique not checked: no kernel found that %s launches", function);
        result = -1;
    }
    /* each requirement: "what: patterns", met by any reached kernel in any PTX file */
    char reqs[2048], *save = NULL;
    snprintf(reqs, sizeof reqs, "%s", spec);
    for (char *r = strtok_r(reqs, ";", &save); r && result == 1; r = strtok_r(NULL, ";", &save)) {
        char *colon = strchr(r, ':');
        const char *what = colon ? r : "the instructions", *pats = colon ? colon + 1 : r;
        if (colon) *colon = '\0';
        what += strspn(what, " \t");
        int met = 0;
        for (size_t f = 0; f < g.gl_pathc && !met; f++)
            for (int k = 0; k < nkernels && !met; k++)
                met = hit[k] && ptx[f] && ptx_kernel_uses(ptx[f], kernels[k], pats) == 1;
        if (met) continue;
        result = 0;
        char list[600] = "", one[300];
        int shown = 0;
        for (int k = 0; k < nkernels; k++) {
            if (!hit[k]) continue;
            if (shown++ == 3) {
                snprintf(list + strlen(list), sizeof list - strlen(list), ", ...");
                break;
            }
            short_name(plain[nhost + k], one, sizeof one);
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", shown > 1 ? ", " : "", one);
        }
        char trimmed[512];
        snprintf(trimmed, sizeof trimmed, "%s", pats + strspn(pats, " \t"));
        trimmed[strcspn(trimmed, "\n")] = '\0';
        snprintf(msg, len, "%s launches %s %s, and %s no %s (looked for in the PTX nvcc made of your file: %s).\n"
                           "This stage earns its speed points with that technique: the code of an earlier stage does "
                           "not earn them, however fast",
                 function, nhit > 1 ? "the kernels" : "the kernel", list, nhit > 1 ? "none of them has" : "it has", what,
                 trimmed);
    }
    for (int i = 0; i < nhost + nkernels; i++) free(plain[i]);
    for (int i = 0; i < nhost; i++) free(host[i]);
    for (int k = 0; k < nkernels; k++) free(kernels[k]);
    for (size_t f = 0; f < g.gl_pathc; f++) free(ptx[f]);
    free(all), free(plain), free(host), free(kernels), free(ptx), free(fn), free(hit);
    globfree(&g);
    return result;
}
