/* audit.h - the audit of a student's object (audit.c): what build.c asks of it, and
 * audit_object, which tests call alone. */
#ifndef AUDIT_H
#define AUDIT_H

#include "build.h"

/* The audit alone, on an object file. A CUDA object must have been compiled with -Xcompiler
 * -ffunction-sections, as build_runner does: the audit tells nvcc's registration code from the
 * student's by the section each function is in. */
int audit_object(const build_spec *b, const char *object, char *msg, size_t len);
/* The PTX nvcc kept in `keep` (one file per architecture) may not hold b->forbid_ptx. */
int audit_ptx(const build_spec *b, const char *keep, char *msg, size_t len);
/* PTX as ptxas reads it, in place: comments dropped, no white space before a '.' (inline asm may
 * split "mma" and ".sync" across lines). The PTX audit and the technique check read it so. */
void ptx_normalise(char *text);
/* The SASS of every architecture in `object` may not hold an opcode matching `patterns`. */
int audit_sass(const build_spec *b, const char *object, const char *patterns, char *msg, size_t len);
/* The lab's forbid_sass patterns from its thresholds.conf (NULL if none); caller frees. */
char *forbidden_sass(const build_spec *b);

#endif
