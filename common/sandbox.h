/* sandbox.h - the scorer's side of a runner process: start it with limits, talk to it under a
 * deadline, and find out how it ended. The runner's side is seccomp.h and runner.c. */
#ifndef SANDBOX_H
#define SANDBOX_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct sandbox_limits {
    double timeout_s;    /* wall clock for the whole case; CPU time is capped the same */
    size_t memory_bytes; /* address space */
    size_t output_bytes; /* stdout + stderr file size */
    int threads;         /* OMP_NUM_THREADS */
    int gpu;             /* a CUDA runner: only device 0 visible, every kernel loaded at start-up */
    int sanitize;        /* an instrumented runner: the sanitizers' options in its environment */
    char *const *wrapper; /* NULL, or a program and its arguments that run the runner (perf stat ... --) */
} sandbox_limits;

typedef struct runner_proc {
    pid_t pid;
    int to, from;    /* our ends of the runner's fd 3 and fd 4 */
    double deadline; /* now_s() value after which the case has timed out */
    int timed_out;
    int bad_message; /* a message arrived out of turn or malformed (someone else wrote on the channel) */
} runner_proc;

/* How a runner ended. */
typedef struct runner_end {
    int exited, code;   /* normal exit and its status */
    int signaled, sig;  /* killed by a signal */
    int timed_out;      /* we killed it at the deadline */
    int bad_message;    /* it was ended after a message out of turn */
} runner_end;

/* Fork and exec `exe` in directory `dir`, stdout and stderr to `out_path`, limits applied.
 * Returns 0, or -1 (errno set) if it could not be started. */
int runner_start(runner_proc *p, const char *exe, const char *dir, const char *out_path, const sandbox_limits *lim);
/* Send or receive one message before the deadline. 0 on success, -1 on a timeout, the runner
 * ending, or a message of the wrong kind or size (a corrupted channel). */
int runner_send(runner_proc *p, uint32_t kind, const void *payload, size_t bytes);
int runner_recv(runner_proc *p, uint32_t kind, void *payload, size_t bytes);
/* Kill the runner's whole process group, reap it, and say how it ended. */
runner_end runner_finish(runner_proc *p);

/* A one-line account of an abnormal end: "killed by SIGSEGV (segmentation fault)". */
const char *runner_end_text(const runner_end *e, char *buf, size_t len);

#endif
