/* audit.h - the audit of a student's object (audit.c): build.c's part of it. audit_object, the
 * part tests call, is declared in build.h. */
#ifndef AUDIT_H
#define AUDIT_H

#include "build.h"

/* The PTX nvcc kept in `keep` (one file per architecture) may not hold b->forbid_ptx. */
int audit_ptx(const build_spec *b, const char *keep, char *msg, size_t len);
/* PTX as ptxas reads it, in place: comments dropped, no white space before a '.' (inline asm may
 * split "mma" and ".sync" across lines). The PTX audit and the technique check read it so. */
void ptx_normalise(char *text);
/* The SASS of every architecture in `object` may not hold an opcode matching `patterns`. */
int audit_sass(const build_spec *b, const char *object, const char *patterns, char *msg, size_t len);
/* The lab's forbid_sass patterns from its thresholds.conf (NULL if none); caller frees. */
char *forbidden_sass(const build_spec *b);
/* The start of what a tool wrote to `path`, after `prefix`, into msg (build.c). */
void tool_message(const char *path, char *msg, size_t len, const char *prefix);

#endif
