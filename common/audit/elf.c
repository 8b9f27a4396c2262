/* elf.c - see elf.h. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf.h"
#include "tool.h"
#include "util.h"

void elf_free(elf_info *e)
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
int elf_read(const build_spec *b, const char *object, elf_info *e)
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

int section_index(const elf_info *e, const char *name)
{
    for (int s = 0; s < e->nsec; s++)
        if (!strcmp(e->sec[s].name, name)) return s;
    return -1;
}

int symbol_index(const elf_info *e, const char *name)
{
    for (int i = 0; i < e->nsym; i++)
        if (!strcmp(e->sym[i].name, name)) return i;
    return -1;
}

/* The function whose code holds offset `off` of section `sec`, or -1. */
int function_at(const elf_info *e, int sec, unsigned long off)
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
int points_at(const elf_info *e, const elf_reloc *r, int t)
{
    const elf_symbol *s = &e->sym[t];
    if (!strcmp(r->to, s->name)) return 1;
    if (s->section < 0 || s->section >= e->nsec || strcmp(r->to, e->sec[s->section].name)) return 0;
    long lo = (long)s->value, hi = (long)(s->value + s->size);
    return (r->addend >= lo && r->addend < hi) || (r->addend + 4 >= lo && r->addend + 4 < hi);
}

/* A symbol as the source spells it: "_ZdlPvm" is "operator delete(void*, unsigned long)". C names
 * are kept; so is a C++ name where c++filt (binutils) is missing or fails. */
void demangle(const build_spec *b, const char *name, char *out, size_t len)
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
void section_function(const build_spec *b, const char *section, char *out, size_t len)
{
    static const char *const prefixes[] = {".text.startup.", ".text.unlikely.", ".text.hot.", ".text.", NULL};
    const char *fn = NULL;
    for (int i = 0; prefixes[i] && !fn; i++)
        if (!strncmp(section, prefixes[i], strlen(prefixes[i]))) fn = section + strlen(prefixes[i]);
    if (!fn || !*fn) snprintf(out, len, "section %s", section);
    else demangle(b, fn, out, len);
}
