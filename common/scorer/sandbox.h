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
    int sanitize;        /* an instrumented runner: the sanitizers' options in its environment (CPU), or
                            a CUDA runner under compute-sanitizer (the wrapper) */
    char *const *wrapper; /* NULL, or a program and its arguments that run the runner (perf stat ... --) */
    const char *cuda_tool; /* GPU labs: the CUDA tool the wrapper is ("compute-sanitizer", "ncu"), or NULL */
    int wrapper_keeps_rights; /* the wrapper runs as the grader, outside the PID namespace (perf: to count);
                                 0: it and the runner are sandboxed as the runner alone is (compute-sanitizer) */
    int passive_wait;    /* OpenMP's idle threads sleep at once instead of spinning (OMP_WAIT_POLICY=PASSIVE):
                            the runner of a probe of shared work (session.c, run_starved) */
    size_t window_bytes; /* > 0: an output window of this size for the runner (PROTO_WINDOW_FD) */
} sandbox_limits;

typedef struct runner_proc {
    pid_t pid;
    int to, from;    /* our ends of the runner's fd 3 and fd 4 */
    double deadline; /* now_s() value after which the case has timed out */
    int timed_out;
    int bad_message; /* a message arrived out of turn or malformed (someone else wrote on the channel) */
    char cwd[64];    /* the runner's private empty folder (under /tmp), removed by runner_finish; "" if none */
    double exit_grace_s; /* how long runner_finish waits for it to exit on its own (a sanitizer's report) */
    char trace[1200]; /* WB_SECCOMP_TRACE=1: the capture file, whose seccomp lines runner_finish repeats; else "" */
    const unsigned char *window; /* our read-only view of the runner's output window, or NULL */
    size_t window_bytes;
} runner_proc;

/* Exit statuses of a runner that never got as far as running (the child between fork and exec). */
enum {
    SANDBOX_NOT_ISOLATED = 125, /* the grader is root and the drop to the runner's uid did not hold */
    SANDBOX_NOT_SET_UP = 126,   /* descriptors, capture file or private folder */
    SANDBOX_NOT_EXECUTED = 127, /* exec failed */
};

/* The runner's user and group when the grader runs as root: 65534 (nobody/nogroup), or the
 * numbers in these variables of the grader's environment (never 0). */
#define SANDBOX_UID_ENV "WB_RUNNER_UID"
#define SANDBOX_GID_ENV "WB_RUNNER_GID"

/* How a runner ended. */
typedef struct runner_end {
    int exited, code;   /* normal exit and its status */
    int signaled, sig;  /* killed by a signal */
    int timed_out;      /* we killed it at the deadline */
    int bad_message;    /* it was ended after a message out of turn */
} runner_end;

/* Start `exe`, stdout and stderr to `out_path` (created or truncated; never through a link),
 * limits applied. The runner runs in a fresh private empty folder, not in `dir` (kept for
 * compatibility: the build folder, which the runner must not reach); as the grader's user, or
 * when the grader is root as an unprivileged one, without capabilities, with no new privileges, in
 * its own IPC namespace and, where the kernel allows, its own PID namespace (as its pid 2, beside a
 * `sleep` that holds the namespace as pid 1) with that namespace's /proc, and a private mount (and,
 * not as root, user) namespace: it can signal, trace or see no process of the grader's. Where the
 * kernel refuses, it runs without, and the grader says so once. p->pid is its pid as the grader
 * sees it; its process group holds all of it. WB_SECCOMP_TRACE=1 in the grader's
 * environment is passed on (see seccomp.h). Returns 0, or -1 (errno set) if it could not be started. */
int runner_start(runner_proc *p, const char *exe, const char *dir, const char *out_path, const sandbox_limits *lim);
/* Send or receive one message before the deadline. 0 on success, -1 on a timeout, the runner
 * ending, or a message of the wrong kind or size (a corrupted channel). */
int runner_send(runner_proc *p, uint32_t kind, const void *payload, size_t bytes);
int runner_recv(runner_proc *p, uint32_t kind, void *payload, size_t bytes);
/* A whole output of `bytes`: through the channel (MSG_OUTPUT), or, where the runner has a window of
 * that size, a MSG_OUTPUT_WINDOW that says it is there, copied out of it once into `payload` (the
 * runner can still write the window: what is checked is this copy). 0 when it came. */
int runner_recv_output(runner_proc *p, void *payload, size_t bytes);
/* A message whose payload should be the n parts given, one after another: received a mebibyte at
 * a time and compared as it comes (no copy of a gigabyte is kept); *differs is the first part that
 * differs, or -1. 0 when the whole message came. */
int runner_recv_same(runner_proc *p, uint32_t kind, const void *const *part, const size_t *len, int n, int *differs);
/* The CPU time (user and system, every thread, in seconds) the runner has used so far: the
 * kernel's accounting, from /proc, which the runner cannot write. -1 if unreadable. */
double runner_cpu_seconds(const runner_proc *p);
/* ... and with it, in one reading, the time they have stood ready to run and waited for a CPU that
 * something else held (every thread, the run queue's delay: schedstat's second field), in seconds:
 * -1 where unreadable. Returns -1 where even the CPU time is unreadable. */
int runner_sched_seconds(const runner_proc *p, double *cpu, double *waited);
/* The CPU time the host of this virtual machine has taken from its CPUs so far (steal time, every
 * CPU, /proc/stat, in seconds): time the runner's threads wanted a CPU and the hypervisor ran something
 * else, which the kernel does not count as theirs. No process here can raise it. -1 if unreadable. */
double machine_steal_seconds(void);
/* The CUDA_VISIBLE_DEVICES the runner gets from the grader's: `asked` where it names one device, else "0". */
const char *runner_gpu(const char *asked);
/* Kill the runner's whole process group, reap it, and say how it ended. */
runner_end runner_finish(runner_proc *p);

/* A one-line account of an abnormal end: "killed by SIGSEGV (segmentation fault)". */
const char *runner_end_text(const runner_end *e, char *buf, size_t len);

#endif
