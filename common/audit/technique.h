/* technique.h - whether a stage's code uses the technique the stage teaches, read from what the
 * scorer's own build made of the student's file: the kernels the stage's function reaches in the
 * host object (its relocations, followed from function to function), and their instructions in
 * the PTX nvcc generated (the kernels' own and those of the device functions they call).
 *
 * For stages whose technique speed cannot separate on the judged hardware from an earlier stage's
 * code (vector loads whose gain is inside the noise, a warp shuffle in a kernel bound by memory).
 * thresholds.conf names them, one key a stage:
 *
 *   technique_<stage> = <what>: <pattern> <pattern> ...; <what>: <pattern> ...
 *
 * Every requirement (between ';') must be met: by at least one instruction matching one of its
 * fnmatch patterns on the PTX opcode ("ld.global*.v4.*", "shfl.sync.*"), or by a figure the PTX
 * reader computes: "@conflicts<=K" (shared-memory bank conflicts), "@fchains>=K" (independent fma
 * chains in a loop), "@outer>=K" (outer-product fmas), "@divergent<=K" (warps a branch around
 * shared reads splits), "@passes<=K" (passes over global memory), "@stride>=K" (words between
 * neighbouring lanes' shared accesses); "!pattern ..." is met by a kernel with none of them. A CPU lab's (gcc) one requirement is
 * "@chains>=K", read in the object's x86-64 machine code. A static check: it sees
 * what the code contains, not what runs (a dead branch would satisfy it; docs/THREATS.md). */
#ifndef TECHNIQUE_H
#define TECHNIQUE_H

#include <stddef.h>

#include "build.h"

/* Does the PTX text (as nvcc wrote it) give the kernel `kernel` (its PTX name), or a device
 * function it calls, an instruction matching one of the space-separated fnmatch `patterns`?
 * 1 yes, 0 no, -1 no such kernel in the text. A pure function, for the unit tests. */
int ptx_kernel_uses(const char *ptx, const char *kernel, const char *patterns);

/* How a warp's shared-memory accesses in the kernel `kernel` conflict, read in its PTX: the
 * highest degree (distinct 4-byte words one bank serves in one phase) among the accesses whose
 * addresses follow from the thread index, under the layout of blockDim.x (8, 16 or 32 threads
 * across; 32 only where the kernel never reads %tid.y) that conflicts least; 1 for none. 0 where
 * no access could be followed (*accesses 0; *shared_ops counts the ld.shared and st.shared seen),
 * -1 no such kernel. `where` gets the worst access ("ld.shared.f32 [%r9+128]"). Pure, for the
 * unit tests; a GPU lab's requirement "@conflicts<=K" is judged by it. */
int ptx_kernel_conflicts(const char *ptx, const char *kernel, int *accesses, int *shared_ops, char *where, size_t len);

/* The loops of `kernel` in PTX text: the most independent chains of fma any one has (fmas linked
 * where one's addend is another's result), and the most outer-product fmas (both multiplicands
 * feeding two or more fmas of the loop). 0, or -1 no such kernel. Pure, for the unit tests; a
 * GPU lab's requirements "@fchains>=K" and "@outer>=K" are judged by it. */
int ptx_kernel_fma(const char *ptx, const char *kernel, int *chains, int *outer);

/* The most warps, of the 8 of a 256-thread block, in which one branch of `kernel` around a
 * shared-memory read diverges (its predicate known in every lane and not the same in all 32),
 * read in its PTX with the arithmetic run for each warp's lanes (a loop's first trip). 0 for
 * none; -1 no such kernel. *branches counts the guarded shared reads seen, `where` gets the worst
 * branch. Pure, for the unit tests; a GPU lab's "@divergent<=K" is judged by it. */
int ptx_kernel_divergence(const char *ptx, const char *kernel, int *branches, char *where, size_t len);

/* The most 4-byte words between lanes 0 and 1 of one of `kernel`'s scalar shared-memory accesses
 * (blockDim.x 32 across, addresses followed as for the conflicts): 1 for s[tid], 2 or more for a
 * work-efficient tree's s[offset * (2 * tid + 1) - 1]; 0 where none could be followed, -1 no such
 * kernel. Pure, for the unit tests; a GPU lab's "@stride>=K" is judged by it (the most of any
 * reached kernel). */
int ptx_kernel_stride(const char *ptx, const char *kernel);

/* The passes `kernel` makes over global memory: the pieces of its PTX, cut at each warp or block
 * synchronisation (shfl.sync, bar.sync), that read global memory. -1 no such kernel. Pure, for the
 * unit tests; a GPU lab's "@passes<=K" is judged by it (the fewest any reached kernel makes). */
int ptx_kernel_passes(const char *ptx, const char *kernel);

/* The most lanes of independent chains of floating-point adds that any loop of `function`, or of
 * a function it calls or jumps to, carries, in `objdump -d -r --no-show-raw-insn` text of an x86-64
 * object: a loop is a backward jump's range, a chain a vector register an add, subtract or fused
 * multiply-add both reads and writes there and no other instruction of the loop writes, counted by
 * its lanes (1 for sd/ss, 2-16 for packed). -1 where the function is not in the text. A pure
 * function, for the unit tests; a CPU lab's requirement "@chains>=K" is judged by it. */
int x86_most_chains(const char *disassembly, const char *function);

/* Is `patterns` (a requirement's text after its ':') one the check can judge: fnmatch patterns,
 * "!" patterns, or one of the figures above with its bound ("@passes<=2")? 1 yes, 0 no. */
int technique_known(const char *patterns);

/* The stage function `function` of the build b (b->scratch holds student.o, and the PTX in keep/) against
 * the requirement `spec` (the text after "technique_<stage> ="). 1: every requirement met; 0: one
 * is not, and msg says what was looked for, in which kernels, and that it was not found; -1: could
 * not tell (no kernel reached, a tool failed), msg says why. */
int technique_check(const build_spec *b, const char *function, const char *spec, char *msg, size_t len);

#endif
