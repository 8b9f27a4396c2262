/* runner.c - a stand-in for a GPU lab's runner in the sandbox test (build/tests/sandbox-runner).
 * Started by runner_start like the real one, it enters the sandbox as common/runner/runner.c does for a
 * GPU lab (sandbox_enter(1, 1, 0): the filter with the CUDA driver's calls), says who it is, then
 * tries the one way out the scorer names (routes.h) with the calls student code could make
 * directly, and reports how far it got, if it is still alive. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/sockios.h> /* FIOSETOWN, SIOCSPGRP */
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "proto.h"
#include "routes.h"
#include "seccomp.h"

static int step; /* the steps of the route tried so far */

/* Count a step; true (stop here) where its call failed. */
static int failed(long r)
{
    step++;
    return r < 0;
}

/* ---------------------------------------------------------------- a pipe that signals its owner */

/* A pipe's write makes the kernel signal the owner of its read end, once that end has O_ASYNC. */
static int fds[2];

static int owner(pid_t pid) { return failed(fcntl(fds[0], F_SETOWN, pid)); }
static int signal_with(int sig) { return failed(fcntl(fds[0], F_SETSIG, sig)); }
static int async_on(void) { return failed(fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_ASYNC)); }
static int provoke(void) { return failed(write(fds[1], "x", 1)); }

/* The route: an owner, a signal of our choosing, O_ASYNC, then a write. */
static int chain(pid_t pid, int sig) { return owner(pid) || signal_with(sig) || async_on() || provoke(); }

static int route_setown(const ask *a) { return chain(a->scorer, SIGUSR1); }
static int route_setown_group(const ask *a) { return chain(-a->group, SIGUSR1); }
static int route_setsig_kill(const ask *a) { return signal_with(SIGKILL) || chain(a->sibling, SIGKILL); }
static int route_async_first(const ask *a) { return async_on() || owner(a->scorer) || provoke(); }

static int route_setown_ex(const ask *a)
{
    struct f_owner_ex o = {F_OWNER_PID, a->sibling};
    return failed(fcntl(fds[0], F_SETOWN_EX, &o)) || signal_with(SIGUSR1) || async_on() || provoke();
}

static int route_fioasync(const ask *a)
{
    int on = 1;
    return failed(ioctl(fds[0], FIOASYNC, &on)) || owner(a->scorer) || provoke();
}

static int route_fiosetown(const ask *a)
{
    int pid = a->scorer;
    return failed(ioctl(fds[0], FIOSETOWN, &pid)) || async_on() || provoke();
}

static int route_siocspgrp(const ask *a)
{
    int pid = a->scorer;
    return failed(ioctl(fds[0], SIOCSPGRP, &pid)) || async_on() || provoke();
}

/* Standard input is /dev/null: no terminal, but the calls must be refused before that is found. */
static int route_tty(const ask *a)
{
    int group = a->group;
    return failed(ioctl(0, TIOCSTI, "x")) || failed(ioctl(0, TIOCSPGRP, &group));
}

/* The capture file (fd 1): a lease, then directory notification (each signals its owner). */
static int route_lease_notify(const ask *a)
{
    (void)a;
    return failed(fcntl(1, F_SETLEASE, F_WRLCK)) || failed(fcntl(1, F_NOTIFY, DN_MODIFY));
}

/* ---------------------------------------------------------------- signals and traces by pid */

static int route_kill_parent(const ask *a) { return (void)a, failed(kill(getppid(), SIGUSR1)); }
static int route_kill_scorer(const ask *a) { return failed(kill(a->scorer, SIGUSR1)); }
static int route_kill_all(const ask *a) { return (void)a, failed(kill(-1, SIGUSR1)); }
static int route_kill_group(const ask *a) { return failed(kill(-a->group, SIGUSR1)); }
static int route_tkill(const ask *a) { return failed(syscall(SYS_tkill, a->scorer, SIGUSR1)); }
static int route_tgkill(const ask *a) { return failed(syscall(SYS_tgkill, a->scorer, a->scorer, SIGUSR1)); }
static int route_ptrace(const ask *a) { return failed(ptrace(PTRACE_SEIZE, a->sibling, 0, 0)); }

static siginfo_t queued(void)
{
    siginfo_t si;
    memset(&si, 0, sizeof si);
    si.si_signo = SIGUSR1, si.si_code = SI_QUEUE;
    return si;
}

static int route_sigqueue(const ask *a)
{
    siginfo_t si = queued();
    return failed(syscall(SYS_rt_sigqueueinfo, a->scorer, SIGUSR1, &si));
}

static int route_tgsigqueue(const ask *a)
{
    siginfo_t si = queued();
    return failed(syscall(SYS_rt_tgsigqueueinfo, a->scorer, a->scorer, SIGUSR1, &si));
}

static int route_pidfd(const ask *a)
{
    long fd = syscall(SYS_pidfd_open, a->scorer, 0);
    return failed(fd) || failed(syscall(SYS_pidfd_send_signal, (int)fd, SIGUSR1, NULL, 0));
}

static int route_process_vm(const ask *a)
{
    char buf[8];
    struct iovec here = {buf, sizeof buf}, there = {(void *)(uintptr_t)a->secret_at, sizeof buf};
    return failed(syscall(SYS_process_vm_readv, a->scorer, &here, 1, &there, 1, 0));
}

/* ---------------------------------------------------------------- new machine code */

/* A page holding one `ret`, read-write; MAP_FAILED on failure. */
static unsigned char *written_page(int prot)
{
    unsigned char *p = mmap(NULL, 4096, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (failed(p == MAP_FAILED ? -1 : 0)) return MAP_FAILED;
    p[0] = 0xc3;
    return p;
}

static int call(unsigned char *p)
{
    ((void (*)(void))(void *)p)();
    return 0;
}

static int route_mprotect_exec(const ask *a)
{
    (void)a;
    unsigned char *p = written_page(PROT_READ | PROT_WRITE);
    return p == MAP_FAILED || failed(mprotect(p, 4096, PROT_READ | PROT_EXEC)) || call(p);
}

static int route_mmap_exec(const ask *a)
{
    (void)a;
    unsigned char *p = written_page(PROT_READ | PROT_WRITE | PROT_EXEC);
    return p == MAP_FAILED || call(p);
}

static int route_own_code(const ask *a)
{
    (void)a;
    void *page = (void *)((uintptr_t)&route_own_code & ~(uintptr_t)4095);
    return failed(mprotect(page, 4096, PROT_READ | PROT_WRITE | PROT_EXEC));
}

static int route_pkey_mprotect(const ask *a)
{
    (void)a;
    unsigned char *p = written_page(PROT_READ | PROT_WRITE);
    return p == MAP_FAILED || failed(syscall(SYS_pkey_mprotect, p, 4096, PROT_READ | PROT_EXEC, -1)) || call(p);
}

/* This program is linked with an executable stack (the Makefile's -z execstack), as a student's
 * file can ask with a .note.GNU-stack section of its own. */
static int route_exec_stack(const ask *a)
{
    (void)a;
    volatile unsigned char code[16] = {0xc3};
    step++;
    return call((unsigned char *)code);
}

/* ---------------------------------------------------------------- main */

#define SANDBOX_ROUTE_FN(name, group, what) route_##name,
static int (*const routes[])(const ask *) = {SANDBOX_ROUTES(SANDBOX_ROUTE_FN)};

static int send_msg(uint32_t kind, const void *p, size_t bytes)
{
    msg_head h = {PROTO_MAGIC, kind, bytes};
    return write(PROTO_OUT_FD, &h, sizeof h) != (ssize_t)sizeof h || write(PROTO_OUT_FD, p, bytes) != (ssize_t)bytes;
}

static int recv_msg(uint32_t kind, void *p, size_t bytes)
{
    msg_head h;
    return read(PROTO_IN_FD, &h, sizeof h) != (ssize_t)sizeof h || h.magic != PROTO_MAGIC || h.kind != kind ||
           h.bytes != bytes || read(PROTO_IN_FD, p, bytes) != (ssize_t)bytes;
}

/* The pid /proc/self names, as the driver reads it before the filter (0 if unreadable). */
static int32_t proc_self(void)
{
    char link[32] = "";
    return readlink("/proc/self", link, sizeof link - 1) > 0 ? (int32_t)atoi(link) : 0;
}

int main(void)
{
    int32_t self = proc_self();
    if (pipe2(fds, 0)) return 2; /* before the filter, like the driver's descriptors */
    if (sandbox_enter(1, 1, 0)) return 3;
    ask a;
    if (recv_msg(MSG_ASK, &a, sizeof a) || a.route < 0 || a.route > ROUTE_COUNT) return 4;
    hello h = {getpid(), getppid(), self};
    if (send_msg(MSG_HELLO, &h, sizeof h)) return 5;
    said s = {-1, 0};
    errno = 0;
    if (a.route < ROUTE_COUNT && routes[a.route](&a)) s.step = step, s.err = errno;
    return send_msg(MSG_SAID, &s, sizeof s) ? 6 : 0;
}
