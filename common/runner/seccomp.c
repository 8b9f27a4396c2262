/* seccomp.c - see seccomp.h. A classic BPF allowlist over the system-call number (x86-64).
 *
 * Default deny: a call this file does not name kills the process (SECCOMP_RET_KILL_PROCESS), so a
 * raw `syscall` instruction in student code reaches only what the runner, glibc, libgomp and (for
 * GPU labs) the CUDA driver need once they are set up. A denylist always forgets something
 * (symlinkat, shmget, setuid ...): rows 33 and 34 of ../shared/GRADER_THREATS.md.
 *
 * Developer mode: with WB_SECCOMP_TRACE=1 in the runner's environment (set by whoever runs the
 * scorer, which builds that environment; student code runs after this filter and cannot), a call
 * that would be killed raises SIGSYS instead; the handler below prints
 * "seccomp: unlisted system call N (0xA, 0xB, 0xC)" (its first three arguments) to stderr and the
 * call fails with ENOSYS. It is how the lists
 * are checked on a machine where strace is not available (a GPU node). Never grade with it. */
#define _GNU_SOURCE
#include "seccomp.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#if defined(__x86_64__)

/* Every process: the runner's pipes and stdio, glibc's malloc (brk, mmap, madvise on free),
 * clocks and sleeps, signal set-up for abort(), exit. fstat/newfstatat: stdio sizes its buffer
 * with fstat (newfstatat with AT_EMPTY_PATH in glibc >= 2.33); a stat by path tells a file's size
 * and times, never its contents. mmap is listed separately (never with PROT_EXEC). */
static const int base_calls[] = {
    __NR_read, __NR_write, __NR_readv, __NR_writev, __NR_lseek, __NR_close, __NR_fstat, __NR_newfstatat,
    __NR_munmap, __NR_mremap, __NR_brk, __NR_madvise, __NR_futex, __NR_sched_yield, __NR_sched_getaffinity,
    __NR_getpid, __NR_gettid, __NR_getrandom, __NR_clock_gettime, __NR_clock_getres, __NR_clock_nanosleep,
    __NR_nanosleep, __NR_gettimeofday, __NR_time, __NR_rt_sigaction, __NR_rt_sigprocmask, __NR_rt_sigreturn,
    __NR_restart_syscall, __NR_set_robust_list, __NR_rseq, __NR_set_tid_address, __NR_exit, __NR_exit_group,
};

/* Under the sanitizers (no score given): their error path sets up an alternate signal stack and
 * asks for limits; it reads /proc/self/maps too, which the open rule answers with EACCES. */
static const int sanitizer_calls[] = {__NR_sigaltstack, __NR_getppid};

/* Under compute-sanitizer or ncu (no score given): its in-process part, loaded before the filter, reports
 * to the tool over the connection it made then; no socket or connection is made after the filter.
 * Checked with WB_SECCOMP_TRACE=1 on a GPU (docs/BENCHMARKS.md). */
static const int cuda_sanitizer_calls[] = {
    __NR_sendto, __NR_recvfrom, __NR_sendmsg, __NR_recvmsg, __NR_shutdown, __NR_getsockopt, __NR_setsockopt,
    __NR_getsockname, __NR_getpeername, __NR_sigaltstack, __NR_getppid,
};

/* Under ncu (`make profile`, no score given): what its lock needs, each call confined by Landlock
 * to PROFILER_LOCK_DIR (profiler_confine): elsewhere they fail with EACCES. */
static const int profiler_calls[] = {
    __NR_open, __NR_openat, __NR_mkdir, __NR_mkdirat, __NR_unlink, __NR_unlinkat, __NR_flock, __NR_ftruncate,
    __NR_stat, __NR_lstat, /* the older calls for newfstatat's work: libcuda checks its device files so */
    __NR_symlink, __NR_symlinkat, /* libcuda's /dev/char links; Landlock refuses them (traced on an H200) */
    __NR_access, __NR_faccessat, __NR_faccessat2, /* may this be read? (ncu's counter library asks) */
};

/* The CUDA driver after cuInit: ioctls on the device files it opened (ioctl_rule), its helper
 * threads' polling and wake-ups, descriptor flags (fcntl_rule), pinned memory, NUMA queries; its
 * mmap and mprotect under the same PROT_EXEC rule as everyone's (row 40: with EAGER module loading
 * the driver maps no code once the context exists). Generous on purpose, as no GPU was at hand
 * when it was written; WB_SECCOMP_TRACE=1 on a GPU node shows which of these are ever reached. */
static const int gpu_calls[] = {
    __NR_poll, __NR_ppoll, __NR_select, __NR_pselect6, __NR_epoll_create1, __NR_epoll_ctl,
    __NR_epoll_wait, __NR_epoll_pwait, __NR_epoll_pwait2, __NR_eventfd2, __NR_pipe2, __NR_dup,
    __NR_pread64, __NR_pwrite64, __NR_getrusage, __NR_sysinfo, __NR_uname, __NR_getuid, __NR_geteuid,
    __NR_getgid, __NR_getegid, __NR_getppid, __NR_getcpu, __NR_sched_setaffinity, __NR_sched_getparam,
    __NR_sched_getscheduler, __NR_sched_get_priority_max, __NR_sched_get_priority_min, __NR_getpriority,
    __NR_membarrier, __NR_get_mempolicy, __NR_mbind, __NR_set_mempolicy, __NR_mlock, __NR_munlock,
    __NR_timerfd_create, __NR_timerfd_settime, __NR_timerfd_gettime, __NR_statx, __NR_readlink,
    __NR_readlinkat, __NR_sigaltstack, __NR_prctl, __NR_getdents64,
};

/* fcntl commands that touch only the descriptor or its file's locks. Not F_SETOWN, F_SETOWN_EX,
 * F_SETSIG, F_SETLEASE or F_NOTIFY, and F_SETFL only without O_ASYNC (fcntl_rule): each has the
 * kernel send a signal, of the caller's choosing, to a process the caller names (row 39). */
static const uint32_t fcntl_commands[] = {
    F_DUPFD, F_DUPFD_CLOEXEC, F_GETFD, F_SETFD, F_GETFL, F_GETLK, F_SETLK, F_SETLKW, F_OFD_GETLK, F_OFD_SETLK,
    F_OFD_SETLKW, F_GETPIPE_SZ, F_SETPIPE_SZ,
};

/* nvidia-uvm's ioctl commands are plain numbers (UVM_IOCTL_BASE(i) is i, under 0x400), but for
 * these two; nvidiactl's and the GPUs' are _IOC(.., 'F', ..) (NV_IOCTL_MAGIC, kernel-open/). */
#define UVM_INITIALIZE 0x30000001u
#define UVM_DEINITIALIZE 0x30000002u
#define NV_IOCTL_MAGIC 'F'

/* clone flags that make a namespace: never, even with CLONE_THREAD. */
#define CLONE_NEW_ANY (CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET)

enum { MAX_INSNS = 400 };

typedef struct prog {
    struct sock_filter f[MAX_INSNS];
    unsigned n;
    int overflow;
    uint32_t deny; /* what an unlisted call gets: kill, or (tracing) a SIGSYS to report it */
} prog;

static void emit(prog *p, struct sock_filter s)
{
    if (p->n < MAX_INSNS) p->f[p->n++] = s;
    else p->overflow = 1; /* refuse to install a truncated program */
}

static void ret(prog *p, uint32_t action) { emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, action)); }

static void load(prog *p, uint32_t offset) { emit(p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offset)); }

/* Rules start with the number loaded; each returns on both branches, so none reloads it. */
static void jeq(prog *p, uint32_t k, uint8_t jt, uint8_t jf)
{
    emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, k, jt, jf));
}

static void jset(prog *p, uint32_t k, uint8_t jt, uint8_t jf)
{
    emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, k, jt, jf));
}

static uint32_t arg_lo(int i) { return offsetof(struct seccomp_data, args) + 8 * (uint32_t)i; }

static void rule(prog *p, int nr, uint32_t action)
{
    jeq(p, (uint32_t)nr, 0, 1);
    ret(p, action);
}

static void allow_list(prog *p, const int *nrs, size_t n)
{
    for (size_t i = 0; i < n; i++) rule(p, nrs[i], SECCOMP_RET_ALLOW);
}

/* Jump targets inside a rule, to the two returns end_rule adds, or past the rule: no rule has
 * branches that long, so these offsets mean only this. */
enum { TO_NEXT = 253, TO_DENY = 254, TO_ALLOW = 255 };

/* A rule for call `nr`, built with the targets above; returns where it starts, for end_rule. */
static unsigned begin_rule(prog *p, int nr)
{
    unsigned start = p->n;
    jeq(p, (uint32_t)nr, 0, TO_NEXT);
    return start;
}

static uint8_t target(uint8_t off, unsigned at, unsigned deny)
{
    unsigned to = off == TO_DENY ? deny : off == TO_ALLOW ? deny + 1 : off == TO_NEXT ? deny + 2 : at + 1 + off;
    return (uint8_t)(to - (at + 1));
}

/* Close the rule begun at `start`: its deny and allow returns, and every jump to them (or past the
 * rule) made relative. */
static void end_rule(prog *p, unsigned start)
{
    unsigned deny = p->n;
    ret(p, p->deny);
    ret(p, SECCOMP_RET_ALLOW);
    for (unsigned i = start; i < deny && i < p->n; i++)
        if (BPF_CLASS(p->f[i].code) == BPF_JMP && BPF_OP(p->f[i].code) != BPF_JA)
            p->f[i].jt = target(p->f[i].jt, i, deny), p->f[i].jf = target(p->f[i].jf, i, deny);
}

/* fcntl: the commands listed, and F_SETFL without O_ASYNC (a signal to the descriptor's owner
 * whenever it is ready: row 39). The command and flags are ints: their low 32 bits. */
static void fcntl_rule(prog *p)
{
    unsigned start = begin_rule(p, __NR_fcntl);
    load(p, arg_lo(1));
    for (size_t i = 0; i < sizeof fcntl_commands / sizeof *fcntl_commands; i++) jeq(p, fcntl_commands[i], TO_ALLOW, 0);
    jeq(p, F_SETFL, 0, TO_DENY);
    load(p, arg_lo(2));
    jset(p, O_ASYNC, TO_DENY, TO_ALLOW);
    end_rule(p, start);
}

/* ioctl: the NVIDIA driver's commands only, none of the generic ones that signal a process or act
 * as its terminal (FIOASYNC, FIOSETOWN, SIOCSPGRP, TIOCSPGRP, TIOCSTI ...: row 39). The command
 * is an unsigned int: its low 32 bits. */
static void ioctl_rule(prog *p)
{
    unsigned start = begin_rule(p, __NR_ioctl);
    load(p, arg_lo(1));
    jeq(p, UVM_INITIALIZE, TO_ALLOW, 0);
    jeq(p, UVM_DEINITIALIZE, TO_ALLOW, 0);
    emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x400, 0, TO_ALLOW)); /* nvidia-uvm's */
    emit(p, (struct sock_filter)BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0xff00));          /* _IOC_TYPE */
    jeq(p, NV_IOCTL_MAGIC << 8, TO_ALLOW, TO_DENY);
    end_rule(p, start);
}

/* `nr` is allowed unless its argument `arg` has one of `bits` (mmap/mprotect with PROT_EXEC:
 * new code the audit never saw, or the runner's own code made writable). */
static void allow_without(prog *p, int nr, int arg, uint32_t bits)
{
    jeq(p, (uint32_t)nr, 0, 4);
    load(p, arg_lo(arg));
    jset(p, bits, 1, 0);
    ret(p, SECCOMP_RET_ALLOW);
    ret(p, p->deny);
}

/* clone: a thread (CLONE_THREAD, no namespace) where threads are allowed; never a process. clone3
 * hides its flags in memory BPF can't read: ENOSYS, and glibc falls back to clone. */
static void clone_rules(prog *p, int threads)
{
    rule(p, __NR_clone3, SECCOMP_RET_ERRNO | ENOSYS);
    if (!threads) return; /* clone stays unlisted */
    jeq(p, __NR_clone, 0, 5);
    load(p, arg_lo(0));
    jset(p, CLONE_NEW_ANY, 2, 0);
    jset(p, CLONE_THREAD, 0, 1);
    ret(p, SECCOMP_RET_ALLOW);
    ret(p, p->deny);
}

/* tgkill only to this process's threads (abort() raises SIGABRT with it); kill and tkill unlisted. */
static void tgkill_rule(prog *p)
{
    jeq(p, __NR_tgkill, 0, 4);
    load(p, arg_lo(0));
    jeq(p, (uint32_t)getpid(), 0, 1);
    ret(p, SECCOMP_RET_ALLOW);
    ret(p, p->deny);
}

/* prlimit64 only to read a limit (new_limit NULL): getrlimit. */
static void prlimit_rule(prog *p)
{
    jeq(p, __NR_prlimit64, 0, 6);
    load(p, arg_lo(2));
    jeq(p, 0, 0, 2);
    load(p, arg_lo(2) + 4);
    jeq(p, 0, 1, 0);
    ret(p, p->deny);
    ret(p, SECCOMP_RET_ALLOW);
}

/* Only the native x86-64 ABI: 32-bit (int 0x80) and x32 numbers would mean other calls. Killed
 * even when tracing, as the handler could not answer them. */
static void abi_rules(prog *p)
{
    load(p, offsetof(struct seccomp_data, arch));
    jeq(p, AUDIT_ARCH_X86_64, 1, 0);
    ret(p, SECCOMP_RET_KILL_PROCESS);
    load(p, offsetof(struct seccomp_data, nr));
    emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, __X32_SYSCALL_BIT, 0, 1));
    ret(p, SECCOMP_RET_KILL_PROCESS);
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void build_filter(prog *p, int threads, int gpu, int how_sanitized)
{
    int sanitized = how_sanitized == SANITIZED_ASAN;
    abi_rules(p);
    clone_rules(p, threads);
    tgkill_rule(p);
    /* A threaded CPU lab's code is not told which CPUs it may run on: the grader's probe of shared work
     * puts every thread on one CPU (session.c, run_starved), and code that could see that could behave
     * there as it never does when timed. Refused as a kernel without affinity would refuse it, so
     * omp_get_num_procs() answers the count OpenMP found at start-up, before the filter. */
    if (threads && !gpu && !how_sanitized) rule(p, __NR_sched_getaffinity, SECCOMP_RET_ERRNO | EPERM);
    allow_list(p, base_calls, COUNT(base_calls));
    if (gpu) allow_list(p, gpu_calls, COUNT(gpu_calls)), fcntl_rule(p), ioctl_rule(p);
    if (gpu || sanitized) prlimit_rule(p);
    if (sanitized) allow_list(p, sanitizer_calls, COUNT(sanitizer_calls));
    if (how_sanitized == SANITIZED_CUDA || how_sanitized == SANITIZED_PROFILER)
        allow_list(p, cuda_sanitizer_calls, COUNT(cuda_sanitizer_calls));
    /* Opening a file fails quietly under the sanitizers (their report reads /proc/self/maps; under
     * compute-sanitizer racecheck opens a file at large launches, and copes when it can't: traced
     * on an H100, docs/BENCHMARKS.md), making a directory too (ncu's in-process part tries);
     * otherwise open/openat stay unlisted, GPU labs included (the driver opened its files at init). */
    /* Under ncu: its in-process part locks a file in PROFILER_LOCK_DIR, so opening and making files
     * is allowed, and Landlock (profiler_confine, before the filter) lets them succeed there alone. */
    if (how_sanitized == SANITIZED_PROFILER) allow_list(p, profiler_calls, COUNT(profiler_calls));
    /* ncu 2025.3 (CUDA 13.0) also makes its lock folder open to all, chmod(dir, 0777), which killed
     * every profiled runner on an H200 (2026-11-28, SIGSYS). Landlock does not confine a mode change,
     * so none is made: chmod answers success and changes nothing, the folders made open to all
     * beforehand (profiler_confine) as ncu would leave them. */
    if (how_sanitized == SANITIZED_PROFILER) {
        rule(p, __NR_chmod, SECCOMP_RET_ERRNO | 0), rule(p, __NR_fchmod, SECCOMP_RET_ERRNO | 0);
        rule(p, __NR_fchmodat, SECCOMP_RET_ERRNO | 0);
        /* libcuda under ncu stats a device file and, where that fails, would make it (mknodat, traced on
         * an H200, 2026-11-28): refused as for any user but root */
        rule(p, __NR_mknod, SECCOMP_RET_ERRNO | EPERM), rule(p, __NR_mknodat, SECCOMP_RET_ERRNO | EPERM);
    }
    if (sanitized || how_sanitized == SANITIZED_CUDA) { /* traced: each reported, then refused alike (unlisted) */
        uint32_t no = p->deny == SECCOMP_RET_TRAP ? SECCOMP_RET_TRAP : SECCOMP_RET_ERRNO | EACCES;
        rule(p, __NR_open, no), rule(p, __NR_openat, no), rule(p, __NR_readlink, no), rule(p, __NR_readlinkat, no);
        rule(p, __NR_mkdir, no), rule(p, __NR_mkdirat, no);
    }
    if (sanitized) rule(p, __NR_ioctl, SECCOMP_RET_ERRNO | ENOTTY); /* "is stderr a terminal?": no, as for a file */
    /* W^X from here on (row 40): no page mapped or made executable, so no code but what was loaded
     * before the filter. pkey_mprotect and remap_file_pages stay unlisted; mremap only moves or
     * resizes a mapping, keeping its protection. */
    allow_without(p, __NR_mmap, 2, PROT_EXEC);
    /* Thread stacks need mprotect for their guard pages; a single-threaded lab never does. */
    if (threads || sanitized) allow_without(p, __NR_mprotect, 2, PROT_EXEC);
    ret(p, p->deny);
}

/* `v` in base `base` after msg[*len]. Async-signal-safe. */
static void put_number(char *msg, size_t *len, unsigned long long v, unsigned base)
{
    char digits[24];
    size_t k = 0;
    do digits[k++] = "0123456789abcdef"[v % base];
    while ((v /= base) && k < sizeof digits);
    while (k) msg[(*len)++] = digits[--k];
}

/* SIGSYS in trace mode: say which call, with its first three arguments (for ioctl and fcntl the
 * command, for mmap and mprotect the protection: what a rule above looks at) and the file it
 * names, make it fail (EACCES for a call on a file, as the sanitizers' rule answers; ENOSYS for
 * the rest), carry on. Async-signal-safe. */
static void unlisted(int sig, siginfo_t *si, void *context)
{
    (void)sig;
    int saved = errno;
    greg_t *r = ((ucontext_t *)context)->uc_mcontext.gregs;
    unsigned long long args[3] = {(unsigned long long)r[REG_RDI], (unsigned long long)r[REG_RSI],
                                  (unsigned long long)r[REG_RDX]};
    char msg[512] = "seccomp: unlisted system call ";
    size_t len = strlen(msg);
    put_number(msg, &len, (unsigned)si->si_syscall, 10);
    for (int i = 0; i < 3; i++) {
        memcpy(msg + len, i ? ", 0x" : " (0x", 4), len += 4;
        put_number(msg, &len, args[i], 16);
    }
    memcpy(msg + len, ")", 1), len += 1;
    /* a call that names a file: the name too (the process's own memory, read here as it would be) */
    long nr = si->si_syscall;
    const char *path = nr == __NR_open || nr == __NR_mkdir || nr == __NR_unlink || nr == __NR_access || nr == __NR_stat ||
                               nr == __NR_lstat || nr == __NR_mknod || nr == __NR_chmod
                           ? (const char *)args[0]
                       : nr == __NR_openat || nr == __NR_mkdirat || nr == __NR_unlinkat || nr == __NR_mknodat ||
                               nr == __NR_newfstatat || nr == __NR_fchmodat
                           ? (const char *)args[1]
                           : NULL;
    const char *also = nr == __NR_symlink ? (const char *)args[1] : nr == __NR_symlinkat ? (const char *)args[2] : NULL;
    if (nr == __NR_symlink || nr == __NR_symlinkat) path = (const char *)args[0]; /* the link's target, then its name */
    for (int k2 = 0; k2 < 2; k2++) {
        const char *s = k2 ? also : path;
        if (!s) continue;
        memcpy(msg + len, " \"", 2), len += 2;
        for (size_t k = 0; s[k] && k < 100 && len < sizeof msg - 4; k++) msg[len++] = s[k];
        msg[len++] = '"';
    }
    msg[len++] = '\n';
    if (write(STDERR_FILENO, msg, len) < 0) { /* nothing to be done */ }
    int named = path || nr == __NR_readlink || nr == __NR_readlinkat; /* as the sanitizers' rule answers them */
    r[REG_RAX] = named ? -EACCES : -ENOSYS;
    errno = saved;
}

static int tracing(void)
{
    const char *v = getenv("WB_SECCOMP_TRACE");
    if (!v || strcmp(v, "1")) return 0;
    struct sigaction sa = {.sa_sigaction = unlisted, .sa_flags = SA_SIGINFO | SA_NODEFER};
    return sigaction(SIGSYS, &sa, NULL) == 0;
}

/* W^X for what is mapped already (row 40): memory both writable and executable when the filter
 * goes on (the stack, where the program was linked asking for an executable one) loses its right
 * to execute, as the filter keeps anything from gaining one; said on stderr, which the scorer shows
 * when a case fails. 0, or -1 where some stays executable. */
static int no_writable_code(void)
{
    FILE *f = fopen("/proc/self/maps", "re");
    if (!f) return -1;
    char line[512];
    int left = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        char perms[5];
        int whole = strchr(line, '\n') != NULL;
        if (sscanf(line, "%lx-%lx %4s", &lo, &hi, perms) == 3 && perms[1] == 'w' && perms[2] == 'x') {
            fprintf(stderr, "seccomp: writable and executable memory, made non-executable (W^X): %s%s", line,
                    whole ? "" : "...\n");
            left |= mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE) != 0;
        }
        for (int c = 0; !whole && c != '\n' && c != EOF;) c = getc(f); /* the rest of a long line (its path) */
    }
    fclose(f);
    return left ? -1 : 0;
}

/* Landlock's access rights by ABI (the kernel's numbers; older headers lack the later ones). */
#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13) /* ABI 2 */
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14) /* ABI 3 */
#endif

/* The folder of ncu's injection library (loaded at cuInit), from /proc/self/maps; 0 when found. */
static int injection_dir(char *dir, size_t len)
{
    FILE *f = fopen("/proc/self/maps", "re");
    char line[PATH_MAX + 128];
    int found = -1;
    while (f && found && fgets(line, sizeof line, f)) {
        char *path = strchr(line, '/'), *at = path ? strstr(path, "/libcuda-injection.so") : NULL;
        if (at && (size_t)(at - path) < len) memcpy(dir, path, (size_t)(at - path)), dir[at - path] = '\0', found = 0;
    }
    if (f) fclose(f);
    return found;
}

/* Landlock's rule for `path` in ruleset rs: `access` beneath it (a file's own rights only, where
 * it is not a folder). A path that is not there is no rule and no error, unless `needed`. */
static int landlock_allow(int rs, const char *path, uint64_t access, int needed)
{
    struct stat st;
    struct landlock_path_beneath_attr rule = {.parent_fd = open(path, O_PATH | O_CLOEXEC)};
    if (rule.parent_fd < 0) return needed ? -1 : 0;
    uint64_t file_rights = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE |
                           LANDLOCK_ACCESS_FS_TRUNCATE;
    rule.allowed_access = fstat(rule.parent_fd, &st) == 0 && S_ISDIR(st.st_mode) ? access : access & file_rights;
    int rc = syscall(SYS_landlock_add_rule, rs, LANDLOCK_RULE_PATH_BENEATH, &rule, 0) ? -1 : 0;
    close(rule.parent_fd);
    return rc;
}

/* Under ncu: the file system, for this process and what it starts, shrunk to PROFILER_LOCK_DIR
 * (made first, as ncu would make it), where ncu's in-process part keeps its lock: files there may
 * be read, written, made and removed; nothing may be opened, made or run anywhere else (Landlock,
 * Linux 5.13 and later). 0, or -1 (said on stderr) where the kernel has no Landlock. */
static int profiler_confine(void)
{
    /* libcuda loads the driver's PTX compiler when ncu first prepares a kernel, long after Landlock
     * shuts the library folders (EACCES on ld.so.cache, traced on an H200, 2026-11-28): loaded here,
     * it is found among the loaded objects by its name then, and no file is opened */
    dlopen("libnvidia-ptxjitcompiler.so.1", RTLD_NOW | RTLD_GLOBAL);
    /* ... and ncu's injection its counter library, beside it, by the very path it will ask for
     * ("<its folder>/./libnvperf_host.so": ncu 2025.3, traced): a loaded object is matched by name */
    char inj[PATH_MAX] = "", lib[PATH_MAX + 32];
    if (injection_dir(inj, sizeof inj) == 0 && snprintf(lib, sizeof lib, "%s/./libnvperf_host.so", inj) < (int)sizeof lib)
        dlopen(lib, RTLD_NOW | RTLD_GLOBAL);
    mkdir("/tmp/nvidia", 0777), mkdir(PROFILER_LOCK_DIR, 0777); /* as ncu makes them; EEXIST is fine */
    chmod("/tmp/nvidia", 0777), chmod(PROFILER_LOCK_DIR, 0777); /* and opens them (seccomp: chmod) */
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    if (abi < 1) {
        fprintf(stderr, "make profile confines the profiled program's files with Landlock, which this kernel does not "
                        "offer (Linux 5.13 or later, with landlock among its security modules)\n");
        return -1;
    }
    uint64_t handled = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1; /* ABI 1: execute ... make a symlink */
    if (abi >= 2) handled |= LANDLOCK_ACCESS_FS_REFER;
    if (abi >= 3) handled |= LANDLOCK_ACCESS_FS_TRUNCATE;
    /* not LANDLOCK_ACCESS_FS_IOCTL_DEV (ABI 5): the driver's device files are open already */
    struct landlock_ruleset_attr attr = {.handled_access_fs = handled};
    int rs = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
    if (rs < 0) return -1;
    uint64_t lock = LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_DIR |
                    LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_MAKE_SYM |
                    (abi >= 3 ? LANDLOCK_ACCESS_FS_TRUNCATE : 0);
    int ok = landlock_allow(rs, PROFILER_LOCK_DIR, lock, 1) == 0;
    /* the driver's device files, read and written (no more): under ncu, libcuda opens one it had not
     * opened at init (the profiler's); their ioctls stay under ioctl_rule */
    glob_t dev = {0};
    if (glob("/dev/nvidia*", 0, NULL, &dev) == 0)
        for (size_t i = 0; i < dev.gl_pathc && ok; i++)
            ok = landlock_allow(rs, dev.gl_pathv[i], LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_WRITE_FILE, 0) == 0;
    globfree(&dev);
    /* what libcuda and ncu's counter library read of the machine as a kernel is prepared (the
     * driver's parameters each time libcuda checks a device file; a topology scan): read only,
     * traced on an H200, 2026-11-28 */
    static const char *const facts[] = {"/proc/driver/nvidia", "/proc/meminfo", "/proc/cpuinfo", "/proc/mounts", "/proc/self",
                                        "/sys"};
    for (size_t i = 0; i < sizeof facts / sizeof facts[0] && ok; i++)
        ok = landlock_allow(rs, facts[i], LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR, 0) == 0;
    ok = ok && !prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) && !syscall(SYS_landlock_restrict_self, rs, 0);
    close(rs);
    if (!ok) fprintf(stderr, "make profile: could not confine the profiled program's files to %s\n", PROFILER_LOCK_DIR);
    return ok ? 0 : -1;
}

int sandbox_enter(int threads, int gpu, int sanitized)
{
    static prog p; /* static: a few kilobytes kept off the (possibly small) stack */
    if (no_writable_code()) return -1;
    const char *bare = getenv("WB_PROFILE_UNCONFINED"); /* set by the scorer under ncu only, for developers */
    if (sanitized == SANITIZED_PROFILER && bare && !strcmp(bare, "1")) {
        fprintf(stderr, "make profile: WB_PROFILE_UNCONFINED=1: the profiled runner has no filter and no Landlock\n");
        return 0;
    }
    if (sanitized == SANITIZED_PROFILER && profiler_confine()) return -1;
    p = (prog){.deny = tracing() ? SECCOMP_RET_TRAP : SECCOMP_RET_KILL_PROCESS};
    build_filter(&p, threads != 1 || gpu, gpu, sanitized); /* threads 0: as many as the machine has cores */
    if (p.overflow) return -1;
    struct sock_fprog fprog = {.len = (unsigned short)p.n, .filter = p.f};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) return -1;
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog) ? -1 : 0;
}

#else

int sandbox_enter(int threads, int gpu, int sanitized)
{
    (void)threads, (void)gpu, (void)sanitized;
    return 0; /* no filter on this architecture: the symbol audit, limits and the uid drop remain */
}

#endif
