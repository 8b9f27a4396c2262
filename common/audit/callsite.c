/* callsite.c - see callsite.h. */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callsite.h"
#include "tool.h"
#include "util.h"

/* ---- where a refused call is made, for the message ----
 *
 * The audited object tells the function: the relocation of the call lies in its code. It has line
 * tables too (build.c compiles the host code with -g, which changes no instruction), so addr2line
 * turns the call's place into lines, through every function inlined there, and the first line in
 * the student's file is reported. */

/* The copy of the student's file build.c compiles: scratch/student.c or .cu. Messages that name
 * it are made to name the student's own file by build.c (point_at_source). */
static void student_copy(const build_spec *b, char *out, size_t len)
{
    const char *ext = strrchr(b->source, '.');
    snprintf(out, len, "%s/student%s", b->scratch, ext ? ext : ".c");
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
int std_name(const char *name)
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

/* Where the object `e` calls `name`, for the message: " at <src>:<line>, in the code of fn" (the
 * function the line is compiled into: itself, or one it is inlined into), else " in the code of
 * fn", else "" (no code refers to it by name). */
void call_site(const build_spec *b, const elf_info *e, const char *object, const char *name, char *out,
                      size_t len)
{
    char fn[1024] = "", line[2200] = "";
    if (!find_site(b, e, object, name, judge_own_function, fn, sizeof fn))
        find_site(b, e, object, name, judge_any_function, fn, sizeof fn);
    find_site(b, e, object, name, judge_line, line, sizeof line); /* build.c compiles with -g */
    const char *in = !fn[0] ? "" : line[0] ? ", in the code of " : " in the code of ";
    snprintf(out, len, "%s%s%s%s", line[0] ? " at " : "", line, in, fn);
}

/* The object's refused calls as a message: one with where it is made (the first in nm's order
 * that code of the student's own calls, rather than one reached only through a library template's
 * virtual function), three more by name, and how many more there are (`total` in all; `names`
 * holds the first `kept`). */
void refused_message(const build_spec *b, const elf_info *e, const char *object, char names[][512], int kept,
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
