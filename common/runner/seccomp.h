/* seccomp.h - the runner's system-call filter, installed before any student code runs. */
#ifndef SECCOMP_H
#define SECCOMP_H

/* Allow, for the rest of this process's life, only the system calls listed in seccomp.c: what the
 * runner, glibc and libgomp (and for `gpu` the CUDA driver) need once set up; any other call kills
 * the process with SIGSYS. Threads (clone with CLONE_THREAD, and mprotect for their stacks) only
 * when threads != 1 (OpenMP labs; 0 means all cores) or gpu (the driver runs helper threads).
 * `sanitized` SANITIZED_ASAN: opening a file fails with EACCES instead, for the sanitizers' reports;
 * SANITIZED_CUDA (a GPU lab under compute-sanitizer or ncu): opening a file or making a directory
 * fails with EACCES too, and the tool's in-process part may talk to the tool over the sockets it
 * opened before the filter (never a new one).
 * WB_SECCOMP_TRACE=1 in the environment (developers only): an unlisted call is reported on stderr
 * ("seccomp: unlisted system call N (0xA, 0xB, 0xC)", with its first three arguments, and the file
 * it names, if any) and fails with ENOSYS instead of killing the process.
 * Returns 0, or -1 if the kernel refused the filter. */
/* SANITIZED_PROFILER (a GPU lab under ncu, `make profile`): as SANITIZED_CUDA, but files may be
 * opened, made and locked, and only beneath PROFILER_LOCK_DIR, where ncu's in-process part locks
 * (Landlock confines the process there before the filter; without Landlock, -1). */
enum { SANITIZED_NOT, SANITIZED_ASAN, SANITIZED_CUDA, SANITIZED_PROFILER };
#define PROFILER_LOCK_DIR "/tmp/nvidia/nsight_compute"

int sandbox_enter(int threads, int gpu, int sanitized);

#endif
