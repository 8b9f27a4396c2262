/* elf.h - an object file as readelf shows it (sections, symbols, relocations), the lookups the
 * audit makes in it, and a symbol's name as the source spells it. Shared by audit.c and
 * callsite.c; readelf and c++filt are binutils'. */
#ifndef ELF_H
#define ELF_H

#include <stddef.h>

#include "build.h"

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

/* Sections (readelf -S), symbols with the section they are in (readelf -s) and relocations with
 * the section they patch (readelf -r), its scratch files in b->scratch. 0, or -1 when readelf
 * could not be run. elf_free releases what elf_read allocated. */
int elf_read(const build_spec *b, const char *object, elf_info *e);
void elf_free(elf_info *e);

/* Indexes into e->sec and e->sym by name, or -1. */
int section_index(const elf_info *e, const char *name);
int symbol_index(const elf_info *e, const char *name);
/* The function whose code holds offset `off` of section `sec`, or -1. */
int function_at(const elf_info *e, int sec, unsigned long off);
/* Does relocation r point at symbol t (by name, or by its section's symbol and an addend)? */
int points_at(const elf_info *e, const elf_reloc *r, int t);

/* `name` demangled into out ("_ZdlPvm": "operator delete(void*, unsigned long)"); C names, and
 * any name c++filt cannot read, as they are. */
void demangle(const build_spec *b, const char *name, char *out, size_t len);
/* The function a section holds, for a message: "vector_add", or demangled "sum(int, ...)". */
void section_function(const build_spec *b, const char *section, char *out, size_t len);

#endif
