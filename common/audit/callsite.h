/* callsite.h - where a refused call is made, for the audit's message: the function from the
 * audited object, the line of the student's file from a -g rebuild made only when the audit
 * refuses. */
#ifndef CALLSITE_H
#define CALLSITE_H

#include "elf.h"

/* The object's refused calls `names` (the first `kept` of `total`) as the audit's message: the
 * first that the student's own code calls, with where it is made, three more by name, and how
 * many more there are. */
void refused_message(const build_spec *b, const elf_info *e, const char *object, char names[][512], int kept,
                     int total, char *msg, size_t len);
/* Where the object `e` calls `name`: " at <src>:<line>, in the code of fn", " in the code of fn",
 * or "" (no code refers to it by name). */
void call_site(const build_spec *b, const elf_info *e, const char *object, const char *name, char *out, size_t len);
/* Is it a name of the C++ standard library (namespace std or __gnu_cxx)? */
int std_name(const char *name);

#endif
