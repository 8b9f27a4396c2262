/* seccomp.c - see seccomp.h. A classic BPF program over the system-call number (x86-64). */
#define _GNU_SOURCE
#include "seccomp.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define LOAD_NR BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr))
#define KILL_IF(nr) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS)

/* Under the sanitizers (SANITIZE=1, no score given) a report reads /proc/self/maps: opening files
 * fails quietly instead of killing the process, and mprotect is allowed. */
#define OPEN_RULE(nr) \
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), \
    BPF_STMT(BPF_RET | BPF_K, sanitized ? SECCOMP_RET_ERRNO | EACCES : SECCOMP_RET_KILL_PROCESS)

int sandbox_enter(int threads, int gpu, int sanitized)
{
    int many = threads != 1 || gpu; /* 0: as many threads as the machine has cores */
#if defined(__x86_64__)
    struct sock_filter filter[] = {
        /* Only the native x86-64 ABI: 32-bit system calls would dodge the numbers below. */
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        LOAD_NR,
        BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1), /* x32 ABI */
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        /* clone3 hides its flags in memory BPF can't read: say ENOSYS, and libc falls back to clone. */
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone3, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
        /* clone: a thread (CLONE_THREAD) only in labs that run threads; never a process. */
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone, 0, 4),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, many ? SECCOMP_RET_ALLOW : SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        KILL_IF(__NR_fork), KILL_IF(__NR_vfork), KILL_IF(__NR_execve), KILL_IF(__NR_execveat),
        OPEN_RULE(__NR_open), OPEN_RULE(__NR_openat), KILL_IF(__NR_openat2), KILL_IF(__NR_creat),
        KILL_IF(__NR_open_by_handle_at), KILL_IF(__NR_unlink), KILL_IF(__NR_unlinkat),
        KILL_IF(__NR_rename), KILL_IF(__NR_renameat), KILL_IF(__NR_renameat2), KILL_IF(__NR_truncate),
        KILL_IF(__NR_ftruncate), KILL_IF(__NR_chdir), KILL_IF(__NR_socket), KILL_IF(__NR_socketpair),
        KILL_IF(__NR_connect), KILL_IF(__NR_ptrace), KILL_IF(__NR_process_vm_readv),
        KILL_IF(__NR_process_vm_writev), KILL_IF(__NR_setrlimit), KILL_IF(__NR_prlimit64),
        KILL_IF(__NR_setpgid), KILL_IF(__NR_setsid), KILL_IF(__NR_kill), KILL_IF(__NR_unshare),
        KILL_IF(__NR_setns), KILL_IF(__NR_mount), KILL_IF(__NR_perf_event_open), KILL_IF(__NR_bpf),
        KILL_IF(__NR_userfaultfd), KILL_IF(__NR_io_uring_setup), KILL_IF(__NR_memfd_create),
        KILL_IF(__NR_personality), KILL_IF(__NR_seccomp), KILL_IF(__NR_dup2), KILL_IF(__NR_dup3),
        KILL_IF(__NR_pkey_mprotect), KILL_IF(__NR_tkill),
        /* Thread stacks need mprotect for their guard pages; a single-threaded lab never does. */
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mprotect, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, many || sanitized ? SECCOMP_RET_ALLOW : SECCOMP_RET_KILL_PROCESS),
        /* Signals only to this process (abort() raises SIGABRT through tgkill). */
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_tgkill, 0, 4),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)getpid(), 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {.len = sizeof filter / sizeof filter[0], .filter = filter};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) return -1;
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) ? -1 : 0;
#else
    (void)threads, (void)gpu, (void)sanitized;
    return 0; /* no filter on this architecture: the symbol audit and resource limits remain */
#endif
}
