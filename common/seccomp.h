/* seccomp.h - the runner's system-call filter, installed before any student code runs. */
#ifndef SECCOMP_H
#define SECCOMP_H

/* Forbid process creation, exec, file and network access, tracing and limit changes for the
 * rest of this process's life. Threads (and mprotect, for their stacks) are allowed only when
 * threads != 1 (OpenMP labs; 0 means all cores) or gpu (the CUDA driver runs helper threads).
 * A forbidden call kills the process with SIGSYS. Returns 0, or -1 if the kernel refused. */
int sandbox_enter(int threads, int gpu, int sanitized);

#endif
