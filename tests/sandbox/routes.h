/* routes.h - the ways out of the runner's sandbox that the sandbox test tries (rows 39 and 40 of
 * ../shared/GRADER_THREATS.md), one table: runner.c does each, check.c starts a runner per route
 * and watches what reaches the scorer and a sibling process of the runner's user.
 *
 * X(name, group, what): group "signal" is a route to another process (a signal, a trace, its
 * memory), "wx" a route to new machine code. Every route is closed when the runner is killed for
 * a forbidden system call or one of its calls fails, and nothing reached the scorer or the sibling. */
#ifndef SANDBOX_ROUTES_H
#define SANDBOX_ROUTES_H

#include <stdint.h>

#define SANDBOX_ROUTES(X)                                                                                              \
    X(setown, "signal", "fcntl F_SETOWN the scorer, F_SETSIG SIGUSR1, O_ASYNC, then a write")                         \
    X(setown_group, "signal", "fcntl F_SETOWN the scorer's process group (with the sibling), F_SETSIG, O_ASYNC")     \
    X(setown_ex, "signal", "fcntl F_SETOWN_EX the sibling, F_SETSIG SIGUSR1, O_ASYNC, then a write")                  \
    X(setsig_kill, "signal", "fcntl F_SETSIG SIGKILL first, then F_SETOWN the sibling, O_ASYNC, a write")             \
    X(async_first, "signal", "fcntl F_SETFL O_ASYNC first, then F_SETOWN the scorer, a write (SIGIO)")               \
    X(fioasync, "signal", "ioctl FIOASYNC first, then F_SETOWN the scorer, a write (SIGIO)")                          \
    X(fiosetown, "signal", "ioctl FIOSETOWN the scorer, then O_ASYNC and a write")                                    \
    X(siocspgrp, "signal", "ioctl SIOCSPGRP the scorer, then O_ASYNC and a write")                                    \
    X(tty, "signal", "ioctl TIOCSTI and TIOCSPGRP on standard input")                                                 \
    X(lease_notify, "signal", "fcntl F_NOTIFY and F_SETLEASE (signals on a file's events)")                          \
    X(kill_parent, "signal", "kill(getppid(), SIGUSR1)")                                                              \
    X(kill_scorer, "signal", "kill the scorer by its pid")                                                            \
    X(kill_all, "signal", "kill(-1, SIGUSR1): every process the user may signal")                                     \
    X(kill_group, "signal", "kill the scorer's process group")                                                        \
    X(tkill, "signal", "tkill the scorer")                                                                            \
    X(tgkill, "signal", "tgkill the scorer (another process's thread group)")                                         \
    X(sigqueue, "signal", "rt_sigqueueinfo to the scorer")                                                            \
    X(tgsigqueue, "signal", "rt_tgsigqueueinfo to the scorer")                                                        \
    X(pidfd, "signal", "pidfd_open the scorer, pidfd_send_signal")                                                    \
    X(ptrace, "signal", "ptrace PTRACE_SEIZE the sibling")                                                            \
    X(process_vm, "signal", "process_vm_readv from the scorer's memory")                                              \
    X(mprotect_exec, "wx", "mmap a page read-write, write code there, mprotect it executable, call it")              \
    X(mmap_exec, "wx", "mmap a page read-write-execute, write code there, call it")                                   \
    X(own_code, "wx", "mprotect the runner's own code writable and executable")                                       \
    X(pkey_mprotect, "wx", "pkey_mprotect a written page executable")                                         \
    X(exec_stack, "wx", "write code on the stack, linked executable (an execstack note), and call it")

#define SANDBOX_ROUTE_ID(name, group, what) ROUTE_##name,
enum { SANDBOX_ROUTES(SANDBOX_ROUTE_ID) ROUTE_COUNT, ROUTE_HELLO = ROUTE_COUNT /* only say who it is */ };
#undef SANDBOX_ROUTE_ID

/* Messages on the runner's channel (proto.h's framing; kinds of their own). */
enum { MSG_ASK = 0x5b0, MSG_HELLO, MSG_SAID };

/* What the scorer asks: a route, and the processes it aims at as the scorer sees them. */
typedef struct ask {
    int32_t route;
    int32_t scorer, sibling, group; /* pids and process group, outside any namespace of the runner's */
    uint64_t secret_at;              /* an address in the scorer's memory (process_vm) */
} ask;

/* The runner's first answer, after entering its sandbox: its pid and parent's pid as it sees them,
 * and the pid its /proc says it has (/proc/self): the same where /proc is its namespace's, as the
 * CUDA driver needs. */
typedef struct hello {
    int32_t pid, ppid, proc_self;
} hello;

/* Its last, if it lives: the first step of the route that failed (-1: every step succeeded) and why. */
typedef struct said {
    int32_t step, err;
} said;

#endif
