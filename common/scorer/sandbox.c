/* sandbox.c - see sandbox.h. The scorer's side of rows 12, 29, 32, 33, 34 and 39 of
 * ../shared/GRADER_THREATS.md: what the runner can reach is decided here, before it execs.
 *
 * The processes of one session: the scorer forks a set-up process, which makes the runner's
 * namespaces and, where it got a PID namespace, starts two processes as the scorer's children
 * (CLONE_PARENT) and exits: pid 1 of the namespace, which mounts the namespace's own /proc and
 * becomes a `sleep` that only holds it, then the runner, pid 2. All three share one process
 * group, which runner_finish kills. Where the kernel refuses, the set-up process is the runner. */
#define _GNU_SOURCE
#include "sandbox.h"
#include "proto.h"
#include "runner_exit.h"
#include "util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void limit(int resource, rlim_t v)
{
    struct rlimit r = {v, v};
    setrlimit(resource, &r);
}

/* What the child needs between fork and exec, all prepared before the fork (no allocation after). */
typedef struct launch {
    int in_fd, out_fd;    /* the runner's ends of the two pipes */
    const char *exe, *out_path, *cwd;
    const sandbox_limits *lim;
    char *const *env;
    int root;             /* the grader runs as root */
    int drop;             /* ... and the runner runs as uid/gid, with no capabilities */
    uid_t uid;
    gid_t gid;
    pid_t parent;
    int report_fd; /* where the set-up process says which process is the runner (a report) */
    int window_fd; /* the output window (PROTO_WINDOW_FD), or -1 */
} launch;

/* What the set-up process tells the scorer: the runner's pid as the scorer sees it, and whether
 * the runner has a PID namespace of its own. Nothing (end of file) if it failed before. */
typedef struct report {
    pid_t runner;
    int own_pid_namespace;
} report;

enum { NS_IPC = 1, NS_PID = 2, NS_MNT = 4 }; /* the namespaces the set-up process made */

/* A PID namespace is of use only with mounts of our own, where its /proc can go: the CUDA driver
 * reads /proc/<its pid>/..., and the grader's /proc knows pid 2 as another process (measured on
 * an H100: cudaSetDevice fails, "OS call failed", in a PID namespace under the old /proc). */
static int own_pids(int ns) { return (ns & (NS_PID | NS_MNT)) == (NS_PID | NS_MNT); }

/* A private copy of the mounts: none of ours (the namespace's /proc) reaches the grader's. */
static int private_mounts(void) { return mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0 ? NS_MNT : 0; }

/* Private IPC (row 34: no SysV shared memory, semaphores or queues outlive the runner or reach
 * another), private PIDs for the processes started next (row 39: the runner sees no process but
 * its own, so it can signal or trace none) and mounts. Best effort: a container may refuse. No
 * PID namespace under perf (`pid` 0), which counts as the grader. */
static int private_ns_as_root(int pid)
{
    int ns = unshare(CLONE_NEWNS) == 0 ? private_mounts() : 0;
    ns |= unshare(CLONE_NEWIPC) == 0 ? NS_IPC : 0;
    return ns | (pid && unshare(CLONE_NEWPID) == 0 ? NS_PID : 0);
}

/* Without privileges a new user namespace is what lets us make the others (those `ns` lacks).
 * The kernel may refuse (unprivileged user namespaces turned off, or allowed without the rights
 * to make others), PID first: the system-call allowlist remains the defence. */
static int private_ns_unprivileged(int ns)
{
    int ipc = ns & NS_IPC ? 0 : CLONE_NEWIPC;
    if (unshare(CLONE_NEWUSER | CLONE_NEWNS | ipc | CLONE_NEWPID) == 0) return NS_IPC | NS_PID | private_mounts();
    return ipc && unshare(CLONE_NEWUSER | ipc) == 0 ? ns | NS_IPC : ns;
}

/* Are all capabilities gone (effective, permitted, inheritable)? */
static int no_capabilities(void)
{
    struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3] = {{0}};
    if (syscall(SYS_capget, &h, d)) return 0;
    for (int i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
        if (d[i].effective || d[i].permitted || d[i].inheritable) return 0;
    return 1;
}

/* Root: become the runner's uid and gid, no supplementary groups. A nonzero uid drops every
 * capability (row 33: privileged calls fail). Raw system calls: async-signal-safe, and nothing of
 * glibc's set-id machinery for threads the child does not have. Checked, not assumed. */
static void drop_privileges(uid_t uid, gid_t gid)
{
    if (syscall(SYS_setgroups, 0, NULL) || syscall(SYS_setresgid, gid, gid, gid) ||
        syscall(SYS_setresuid, uid, uid, uid))
        _exit(SANDBOX_NOT_ISOLATED);
    uid_t r, e, s;
    gid_t rg, eg, sg;
    if (getresuid(&r, &e, &s) || getresgid(&rg, &eg, &sg) || r != uid || e != uid || s != uid || rg != gid ||
        eg != gid || sg != gid || getgroups(0, NULL) != 0 || !no_capabilities() || syscall(SYS_setresuid, 0, 0, 0) == 0)
        _exit(SANDBOX_NOT_ISOLATED);
}

enum { REPORT_FD = PROTO_OUT_FD + 2 };

/* The runner's descriptors: 0 /dev/null, 1 and 2 the capture file, 3 and 4 the channel, and the
 * executable and the report (fds 5 and 6, closed by the exec itself); nothing else inherited
 * (row 29). */
static int arrange_fds(const launch *l, int *exe_fd)
{
    int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    /* Opened here, before the uid drop, never through a link (row 32): the scorer reads it later. */
    int out = open(l->out_path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    /* Opened before the drop, so a build under a 0700 home still runs as the unprivileged user. A
     * sandboxed wrapper (compute-sanitizer) execs it as /proc/self/fd/N, so N stays open across exec;
     * perf, keeping the grader's rights, takes the path. */
    int keeps = l->lim->wrapper && l->lim->wrapper_keeps_rights;
    int exe = keeps ? -1 : open(l->exe, O_PATH | O_CLOEXEC);
    if (devnull < 0 || out < 0 || (!keeps && exe < 0)) return -1;
    /* Move the pipe ends, the executable and the report above the target numbers first, so dup2
     * never clobbers one with another. */
    int hi_in = fcntl(l->in_fd, F_DUPFD, 10), hi_out = fcntl(l->out_fd, F_DUPFD, 10);
    int hi_exe = exe < 0 ? -1 : fcntl(exe, F_DUPFD_CLOEXEC, 10);
    int hi_report = fcntl(l->report_fd, F_DUPFD_CLOEXEC, 10);
    int hi_window = l->window_fd < 0 ? -1 : fcntl(l->window_fd, F_DUPFD, 10);
    if (hi_in < 0 || hi_out < 0 || hi_report < 0 || (l->window_fd >= 0 && hi_window < 0) || dup2(devnull, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0 ||
        dup2(hi_in, PROTO_IN_FD) < 0 || dup2(hi_out, PROTO_OUT_FD) < 0 || dup3(hi_report, REPORT_FD, O_CLOEXEC) < 0)
        return -1;
    *exe_fd = -1;
    if (hi_exe >= 0) {
        *exe_fd = PROTO_OUT_FD + 1;
        if (dup3(hi_exe, *exe_fd, l->lim->wrapper ? 0 : O_CLOEXEC) < 0) return -1;
    } else close(PROTO_OUT_FD + 1); /* under perf: whatever landed there */
    _Static_assert(PROTO_WINDOW_FD == REPORT_FD + 1, "the window follows the report");
    if (hi_window >= 0 && dup2(hi_window, PROTO_WINDOW_FD) < 0) return -1;
    syscall(SYS_close_range, hi_window >= 0 ? PROTO_WINDOW_FD + 1 : REPORT_FD + 1, ~0u, 0);
    return 0;
}

static void apply_limits(const sandbox_limits *lim)
{
    limit(RLIMIT_CPU, (rlim_t)lim->timeout_s * (rlim_t)(lim->threads > 0 ? lim->threads : 1) + 1);
    limit(RLIMIT_AS, lim->memory_bytes);
    limit(RLIMIT_FSIZE, lim->output_bytes);
    limit(RLIMIT_CORE, 0);
    limit(RLIMIT_NOFILE, lim->gpu || lim->wrapper ? 1024 : 16); /* the CUDA driver opens a few dozen device files */
}

static void run(const launch *l, int exe_fd)
{
    char *argv[32] = {(char *)l->exe, NULL};
    _Static_assert(PROTO_OUT_FD + 1 == 5, "the runner's descriptor, named below");
    if (l->lim->wrapper) { /* e.g. perf stat ... -- runner: the wrapper execs the runner in turn */
        int n = 0;
        while (l->lim->wrapper[n] && n < 30) argv[n] = l->lim->wrapper[n], n++;
        argv[n] = exe_fd >= 0 ? "/proc/self/fd/5" : (char *)l->exe, argv[n + 1] = NULL;
        execve(argv[0], argv, l->env);
    } else syscall(SYS_execveat, exe_fd, "", argv, l->env, AT_EMPTY_PATH);
    _exit(SANDBOX_NOT_EXECUTED);
}

static void say(int fd, pid_t runner, int own_pid_namespace)
{
    report r = {runner, own_pid_namespace};
    if (write(fd, &r, sizeof r) != (ssize_t)sizeof r) _exit(SANDBOX_NOT_SET_UP);
}

/* The one byte a process started in the namespace says on `fd` once ready, or -1 if it ended first. */
static int hear(int fd)
{
    unsigned char c;
    ssize_t k;
    while ((k = read(fd, &c, 1)) < 0 && errno == EINTR) {}
    close(fd);
    return k == 1 ? c : -1;
}

/* A copy of this process that is the scorer's child, not ours (so the scorer reaps it and sees how
 * it ended), in our process group; 0 in the copy, -1 if refused. Raw: glibc's fork has no flags. */
static pid_t clone_for_parent(void) { return (pid_t)syscall(SYS_clone, CLONE_PARENT | SIGCHLD, NULL, NULL, NULL, 0); }

/* Pid 1 of the runner's namespace. The first process of a PID namespace ignores every signal it
 * has no handler for, even the kernel's own (SIGXFSZ at the output cap, SIGABRT from abort()),
 * so the runner is not it: this is. It mounts the namespace's /proc, takes the runner's user,
 * says "1" on `ready` (or "0", the mount refused: the set-up process then goes without), and
 * becomes a `sleep` holding the namespace, with no descriptor, no capability and not a page of
 * the scorer's memory (which a copy would keep copying on write). It ends when runner_finish
 * kills the group, or with the scorer (the parent-death signal, set after the drop clears it). */
static void namespace_init(const launch *l, int ready)
{
    static char *const argv[] = {"sleep", "2147483647", NULL}, *const env[] = {NULL};
    int mounted = mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) == 0;
    if (mounted && l->drop) drop_privileges(l->uid, l->gid);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (write(ready, mounted ? "1" : "0", 1) != 1 || !mounted) _exit(SANDBOX_NOT_SET_UP);
    syscall(SYS_close_range, 0, ~0u, 0); /* the runner's channel above all: its ends must see it go */
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    execve("/bin/sleep", argv, env);
    execve("/usr/bin/sleep", argv, env);
    for (;;) pause(); /* no sleep here: hold the namespace as we are */
}

/* The runner itself, from the uid drop on: the drop clears the parent-death signal, so that is set
 * after it, then checked (by the set-up process where it says it on `ready`, as the scorer's pid
 * means nothing in the namespace), then no new privileges, then exec. */
static void become_runner(const launch *l, int exe_fd, int ready)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* a grader stopped with ^C takes its runner with it */
    if (ready >= 0 && write(ready, "1", 1) != 1) _exit(SANDBOX_NOT_SET_UP);
    if (ready < 0 && getppid() != l->parent) _exit(SANDBOX_NOT_SET_UP); /* it died before we asked */
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) _exit(SANDBOX_NOT_SET_UP); /* no set-uid exec regains root */
    run(l, exe_fd);
}

/* Start one of the namespace's two processes, pid 1 (`init`) or the runner; the read end of the
 * pipe it says it is ready on in *heard. -1 if refused. */
static pid_t start(const launch *l, int init, int exe_fd, int *heard)
{
    int r[2];
    if (pipe2(r, O_CLOEXEC)) return -1;
    pid_t pid = clone_for_parent();
    if (pid == 0 && init) namespace_init(l, r[1]);
    if (pid == 0) become_runner(l, exe_fd, r[1]);
    close(r[1]);
    *heard = r[0];
    if (pid < 0) close(r[0]);
    return pid;
}

/* With PID and mount namespaces made: pid 1, then (the uid dropped) the runner, pid 2. Once both
 * are ready and the scorer is still there, report the runner and go: our pid lives on as the
 * group's. Returns where pid 1 could not be had, its namespace gone with it: this process then
 * runs the runner itself, outside (only its children would have entered the namespace). */
static void start_in_namespace(const launch *l, int exe_fd)
{
    int heard;
    pid_t init = start(l, 1, exe_fd, &heard);
    if (init < 0 || hear(heard) != '1') return; /* pid 1 ended, or is reaped with the group */
    if (l->drop) drop_privileges(l->uid, l->gid);
    pid_t runner = start(l, 0, exe_fd, &heard);
    if (runner < 0) _exit(SANDBOX_NOT_SET_UP);
    hear(heard);
    if (getppid() != l->parent) kill(0, SIGKILL); /* the scorer died before they could know: all of us */
    say(REPORT_FD, runner, 1);
    _exit(0);
}

/* In the child between fork and exec: only async-signal-safe calls. Order matters: files are
 * opened and namespaces made while privileged, then the uid drop, then (become_runner) the
 * parent-death signal, no new privileges and exec. */
static void child(const launch *l)
{
    setpgid(0, 0);
    int exe_fd;
    if (arrange_fds(l, &exe_fd)) _exit(SANDBOX_NOT_SET_UP);
    int keeps = l->lim->wrapper && l->lim->wrapper_keeps_rights;
    int ns = l->root ? private_ns_as_root(!keeps) : 0;
    if (chdir(l->cwd)) _exit(SANDBOX_NOT_SET_UP); /* the private folder, not the build folder (row 12) */
    apply_limits(l->lim);
    if (own_pids(ns)) start_in_namespace(l, exe_fd); /* as root: pid 1 mounts its /proc before the drop */
    if (l->drop) drop_privileges(l->uid, l->gid);
    if (!own_pids(ns) && !keeps) { /* perf stays in the grader's user namespace */
        ns = private_ns_unprivileged(ns);
        if (own_pids(ns)) start_in_namespace(l, exe_fd);
    }
    say(REPORT_FD, getpid(), 0);
    become_runner(l, exe_fd, -1);
}

/* A number from the grader's environment, or `fallback`; never 0 (root). */
static unsigned id_from_env(const char *name, unsigned fallback)
{
    const char *v = getenv(name);
    char *end;
    unsigned long n = v && *v ? strtoul(v, &end, 10) : 0;
    return v && *v && !*end && n > 0 && n < 0xffffffffu ? (unsigned)n : fallback;
}

/* A fresh empty folder for the runner to run in: nothing of the grader's within reach by a
 * relative path, nothing left for the next runner. Owned by the runner's user when root drops to
 * it (0700 either way). Nothing reads it afterwards; runner_finish removes it. */
static int make_private_dir(runner_proc *p, const launch *l)
{
    snprintf(p->cwd, sizeof p->cwd, "/tmp/wb-runner-XXXXXX");
    if (!mkdtemp(p->cwd)) {
        p->cwd[0] = 0;
        return -1;
    }
    int fd = open(p->cwd, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int ok = fd >= 0 && (!l->drop || fchown(fd, l->uid, l->gid) == 0);
    if (fd >= 0) close(fd);
    if (!ok) {
        rmdir(p->cwd);
        p->cwd[0] = 0;
        return -1;
    }
    return 0;
}

/* Developers only (see seccomp.h): the grader's environment asks for the runner's trace mode. */
static int tracing(void)
{
    const char *v = getenv("WB_SECCOMP_TRACE");
    return v && !strcmp(v, "1");
}

/* The GPU the runner sees: the grader's own CUDA_VISIBLE_DEVICES where it names one device (an
 * index, or a UUID such as GPU-8c1f..., MIG-... or the older MIG-GPU-.../1/0), so that an instructor can grade on every GPU
 * of a node at once, one grader a GPU; otherwise device 0. Never a list: the student's code gets one
 * GPU, the one whose ceilings were measured. */
const char *runner_gpu(const char *asked)
{
    if (!asked || !*asked || strlen(asked) > 64) return "0";
    for (const char *c = asked; *c; c++)
        if (!isalnum((unsigned char)*c) && *c != '-' && *c != '/') return "0";
    return asked;
}

/* The runner's environment: fixed, so the student can't bring anything in through it. */
static void runner_env(const sandbox_limits *lim, char *threads, size_t len, char *gpu, size_t glen, char *tool,
                       size_t tlen, char **env)
{
    int n = 0;
    snprintf(threads, len, "OMP_NUM_THREADS=%d", lim->threads > 0 ? lim->threads : 1);
    env[n++] = "PATH=/usr/bin:/bin", env[n++] = "LC_ALL=C", env[n++] = threads;
    if (lim->gpu) {
        snprintf(gpu, glen, "CUDA_VISIBLE_DEVICES=%s", runner_gpu(getenv("CUDA_VISIBLE_DEVICES")));
        env[n++] = gpu;
        env[n++] = "CUDA_MODULE_LOADING=EAGER"; /* no lazy loading after the sandbox closes */
        /* under compute-sanitizer or ncu (the wrapper): the runner's filter lets its in-process part report */
        if (lim->cuda_tool) {
            snprintf(tool, tlen, "%s=%s", CUDA_TOOL_ENV, lim->cuda_tool);
            env[n++] = tool;
        }
    } else if (lim->sanitize) { /* report, then exit with SANITIZER_FOUND (86); no leak check (it needs ptrace) */
        env[n++] = "ASAN_OPTIONS=detect_leaks=0:symbolize=0:exitcode=86:halt_on_error=1:abort_on_error=0";
        env[n++] = "UBSAN_OPTIONS=print_stacktrace=1:symbolize=0:halt_on_error=1:exitcode=86";
    }
    if (lim->passive_wait) env[n++] = "OMP_WAIT_POLICY=PASSIVE";
    if (tracing()) env[n++] = "WB_SECCOMP_TRACE=1";
    /* developers only, under ncu only (no score is given there): the runner without its filter
     * and Landlock, to tell a refusal of the sandbox's from ncu's own trouble */
    const char *bare = getenv("WB_PROFILE_UNCONFINED");
    if (lim->cuda_tool && !strcmp(lim->cuda_tool, "ncu") && bare && !strcmp(bare, "1")) env[n++] = "WB_PROFILE_UNCONFINED=1";
    env[n] = NULL;
}

/* The channel's pipes hold a MiB each where the system allows (fs.pipe-max-size, 1 MiB by default),
 * not 64 KiB: a GPU lab's output of 1 GiB comes through in a sixteenth of the system calls, 1.5
 * times as fast (0.63 to 0.97 GB/s on a 2-core Xeon VM, 2026-11-28). A refusal leaves the default. */
#define CHANNEL_PIPE_BYTES (1 << 20)

/* The channel's two pipes and the set-up process's report: all made (0), or none (-1, errno set). */
static int make_pipes(int to[2], int from[2], int rep[2])
{
    if (pipe2(to, O_CLOEXEC)) return -1;
    if (pipe2(from, O_CLOEXEC) == 0) {
        fcntl(to[1], F_SETPIPE_SZ, CHANNEL_PIPE_BYTES), fcntl(from[1], F_SETPIPE_SZ, CHANNEL_PIPE_BYTES);
        if (pipe2(rep, O_CLOEXEC) == 0) return 0;
        close(from[0]), close(from[1]);
    }
    int saved = errno;
    close(to[0]), close(to[1]);
    errno = saved;
    return -1;
}

/* Said once a grading, where the kernel refused: without a PID namespace only the runner's
 * system-call filter keeps it from the processes of its user (yours, when you are not root). */
static void say_no_pid_namespace(void)
{
    static int said;
    if (said++) return;
    fprintf(stderr, "grade: note: this kernel refuses the runner a PID namespace of its own, with its own /proc (%s); "
                    "its system-call filter alone keeps it from the other processes of its user\n",
            geteuid() == 0 ? "a container?" : "user namespaces turned off?");
}

/* Which process is the runner: the one the set-up process `setup` reports, after which it has
 * exited (reaped here; its pid stays the group's), or `setup` itself where it failed first. */
static pid_t which_runner(pid_t setup, int rep, const sandbox_limits *lim)
{
    report r;
    ssize_t k;
    while ((k = read(rep, &r, sizeof r)) < 0 && errno == EINTR) {}
    close(rep);
    if (k != (ssize_t)sizeof r) return setup; /* it failed before: runner_finish tells how */
    if (r.runner != setup) waitpid(setup, NULL, 0);
    if (!r.own_pid_namespace && !lim->wrapper) say_no_pid_namespace();
    return r.runner;
}

/* The output window of a timed case (PROTO_WINDOW_FD): a shared memory file of `bytes`, sealed at
 * that size, so that the runner can neither shrink it under our view (a read past its end would
 * kill the scorer with SIGBUS) nor grow it; our view is read-only. It holds nothing but the
 * outputs the runner puts there, which runner_recv_output copies out before anything reads them.
 * The descriptor (close-on-exec here; the child dups it to PROTO_WINDOW_FD) in *fd, or -1 where
 * the system refuses any of it: then the runner has no window and uses the channel. */
static const unsigned char *make_window(size_t bytes, int *fd)
{
    *fd = memfd_create("wb-output-window", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (*fd < 0) return NULL;
    void *view = MAP_FAILED;
    if (ftruncate(*fd, (off_t)bytes) == 0 && fcntl(*fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) == 0)
        view = mmap(NULL, bytes, PROT_READ, MAP_SHARED, *fd, 0);
    if (view != MAP_FAILED) return view;
    close(*fd);
    *fd = -1;
    return NULL;
}

/* `dir` is no longer used: the runner must not run in (or near) the build folder. */
int runner_start(runner_proc *p, const char *exe, const char *dir, const char *out_path, const sandbox_limits *lim)
{
    (void)dir;
    /* compute-sanitizer and ncu write their reports and exit after the runner: seconds, not
     * milliseconds (ncu's CSV is written only then: killed at 0.1 s, it had profiled nothing) */
    *p = (runner_proc){.pid = -1, .exit_grace_s = lim->wrapper && (!lim->wrapper_keeps_rights || lim->cuda_tool) ? 60 : 0.1};
    /* perf (the wrapper of make profile, a diagnosis that gives no score) writes its report into
     * the build folder and needs the grader's rights to count: it keeps them. */
    int root = geteuid() == 0;
    launch l = {.exe = exe, .out_path = out_path, .lim = lim, .root = root,
                .drop = root && !(lim->wrapper && lim->wrapper_keeps_rights),
                .uid = id_from_env(SANDBOX_UID_ENV, 65534), .gid = id_from_env(SANDBOX_GID_ENV, 65534),
                .parent = getpid()};
    char threads[32], gpu[96], tool[64], *env[12];
    runner_env(lim, threads, sizeof threads, gpu, sizeof gpu, tool, sizeof tool, env);
    l.env = env;
    if (make_private_dir(p, &l)) return -1;
    l.cwd = p->cwd;
    int to[2], from[2], rep[2];
    if (make_pipes(to, from, rep)) goto fail;
    /* Pipes of 1 MiB (Linux's default ceiling for a user) move a whole output of hundreds of MiB in
     * a sixteenth of the wake-ups of the 64 KiB default: twice the rate. Where refused, the default. */
    fcntl(from[0], F_SETPIPE_SZ, 1 << 20);
    fcntl(to[1], F_SETPIPE_SZ, 1 << 20);
    l.in_fd = to[0], l.out_fd = from[1], l.report_fd = rep[1], l.window_fd = -1;
    if (lim->window_bytes) {
        p->window = make_window(lim->window_bytes, &l.window_fd);
        p->window_bytes = p->window ? lim->window_bytes : 0;
    }
    signal(SIGPIPE, SIG_IGN); /* a dead runner shows up as a failed write, not a dead scorer */
    pid_t pid = fork();
    if (pid == 0) child(&l);
    close(to[0]);
    close(from[1]);
    close(rep[1]);
    if (l.window_fd >= 0) close(l.window_fd); /* the view stays */
    if (pid < 0) {
        close(to[1]);
        close(from[0]);
        close(rep[0]);
        goto fail;
    }
    setpgid(pid, pid); /* also here, so the group exists before we might kill it */
    p->pid = which_runner(pid, rep[0], lim);
    p->to = to[1], p->from = from[0], p->deadline = now_s() + lim->timeout_s;
    if (tracing()) snprintf(p->trace, sizeof p->trace, "%s", out_path);
    return 0;
fail:;
    int saved = errno;
    if (p->window) munmap((void *)p->window, p->window_bytes), p->window = NULL;
    rmdir(p->cwd);
    errno = saved;
    return -1;
}

/* Wait until fd is ready for `events` or the deadline passes. */
static int wait_fd(runner_proc *p, int fd, short events)
{
    for (;;) {
        double left = p->deadline - now_s();
        if (left <= 0) {
            p->timed_out = 1;
            return -1;
        }
        struct pollfd pfd = {fd, events, 0};
        int r = poll(&pfd, 1, (int)(left * 1000) + 1);
        if (r > 0) return 0;
        if (r < 0 && errno != EINTR) return -1;
    }
}

static int io_all(runner_proc *p, int fd, void *buf, size_t bytes, int writing)
{
    char *c = buf;
    while (bytes > 0) {
        if (wait_fd(p, fd, writing ? POLLOUT : POLLIN)) return -1;
        size_t chunk = bytes < (1u << 20) ? bytes : (1u << 20);
        ssize_t k = writing ? write(fd, c, chunk) : read(fd, c, chunk);
        if (k < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (k <= 0) return -1;
        c += k;
        bytes -= (size_t)k;
    }
    return 0;
}

int runner_send(runner_proc *p, uint32_t kind, const void *payload, size_t bytes)
{
    msg_head h = {PROTO_MAGIC, kind, bytes};
    if (io_all(p, p->to, &h, sizeof h, 1)) return -1;
    return bytes ? io_all(p, p->to, (void *)payload, bytes, 1) : 0;
}

int runner_recv(runner_proc *p, uint32_t kind, void *payload, size_t bytes)
{
    msg_head h;
    if (io_all(p, p->from, &h, sizeof h, 0)) return -1;
    if (h.magic != PROTO_MAGIC || h.kind != kind || h.bytes != bytes) {
        p->bad_message = 1;
        return -1;
    }
    return bytes ? io_all(p, p->from, payload, bytes, 0) : 0;
}

int runner_recv_output(runner_proc *p, void *payload, size_t bytes)
{
    msg_head h;
    if (io_all(p, p->from, &h, sizeof h, 0)) return -1;
    if (h.magic == PROTO_MAGIC && h.kind == MSG_OUTPUT && h.bytes == bytes) return bytes ? io_all(p, p->from, payload, bytes, 0) : 0;
    if (h.magic == PROTO_MAGIC && h.kind == MSG_OUTPUT_WINDOW && h.bytes == 0 && p->window && p->window_bytes == bytes) {
        enum { PIECE = 4 << 20 }; /* in pieces, on every core: one thread copied 8-9 GB/s on an H200's host */
        long pieces = (long)((bytes + PIECE - 1) / PIECE);
#pragma omp parallel for schedule(static) if (pieces > 4)
        for (long k = 0; k < pieces; k++) {
            size_t at = (size_t)k * PIECE, n = bytes - at < PIECE ? bytes - at : PIECE;
            memcpy((unsigned char *)payload + at, p->window + at, n);
        }
        return 0;
    }
    p->bad_message = 1;
    return -1;
}

int runner_recv_same(runner_proc *p, uint32_t kind, const void *const *part, const size_t *len, int n, int *differs)
{
    msg_head h;
    size_t total = 0;
    for (int k = 0; k < n; k++) total += len[k];
    *differs = -1;
    if (io_all(p, p->from, &h, sizeof h, 0)) return -1;
    if (h.magic != PROTO_MAGIC || h.kind != kind || h.bytes != total) {
        p->bad_message = 1;
        return -1;
    }
    enum { PIECE = 1 << 20 };
    unsigned char *piece = xmalloc(PIECE);
    int io = 0;
    for (int k = 0; k < n && io == 0; k++)
        for (size_t at = 0; at < len[k] && io == 0; at += PIECE) {
            size_t bytes = len[k] - at < PIECE ? len[k] - at : PIECE;
            io = io_all(p, p->from, piece, bytes, 0);
            if (io == 0 && *differs < 0 && memcmp(piece, (const unsigned char *)part[k] + at, bytes)) *differs = k;
        }
    free(piece);
    return io;
}

/* Empty the folder open as `fd`, and close it, following no link: the runner (another user,
 * maybe) may have left anything there, and we may be root. Entries are unlinked by name relative
 * to the open folder; a subfolder is entered only through O_NOFOLLOW. */
static void empty_dir(int fd, int depth)
{
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return;
    }
    for (int removed = 1, pass = 0; removed && pass < 8; pass++) { /* readdir may miss entries as they go */
        removed = 0;
        rewinddir(d);
        for (struct dirent *e; (e = readdir(d));) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
            if (unlinkat(dirfd(d), e->d_name, 0) == 0) {
                removed = 1;
                continue;
            }
            int sub = depth < 32 ? openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
            if (sub < 0) continue;
            empty_dir(sub, depth + 1);
            removed |= unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR) == 0;
        }
    }
    closedir(d);
}

/* The runner's private folder goes with it, so nothing it left reaches the next runner. */
static void remove_private_dir(runner_proc *p)
{
    if (!p->cwd[0]) return;
    int fd = open(p->cwd, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0) empty_dir(fd, 0);
    rmdir(p->cwd);
    p->cwd[0] = 0;
}

/* WB_SECCOMP_TRACE=1: the runner's reports of unlisted calls (and of memory it found writable and
 * executable), repeated on our stderr (its own stderr is the capture file, which the scorer shows
 * only when a case fails). */
static void repeat_trace(const runner_proc *p)
{
    if (!p->trace[0]) return;
    int fd = open(p->trace, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    FILE *f = fd < 0 ? NULL : fdopen(fd, "r");
    char line[256];
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "seccomp: ", 9)) fprintf(stderr, "runner %s", line);
    if (f) fclose(f);
    else if (fd >= 0) close(fd);
}

/* Kill the runner's group (with its namespace's pid 1, if it has one) and reap every member; the
 * runner's status into *status unless it was reaped before. */
static void end_group(pid_t group, pid_t runner, int reaped, int *status)
{
    kill(-group, SIGKILL);
    for (;;) {
        int st;
        pid_t w = waitpid(-group, &st, 0);
        if (w < 0 && errno == EINTR) continue;
        if (w < 0) return; /* none left */
        if (w == runner && !reaped) *status = st;
    }
}

/* After the kill and the reap, the private folder is removed (nothing of the runner's still runs). */
runner_end runner_finish(runner_proc *p)
{
    runner_end e = {.timed_out = p->timed_out, .bad_message = p->bad_message};
    close(p->to);
    close(p->from);
    pid_t group = getpgid(p->pid); /* read while the runner is not yet reaped */
    /* Give a runner that is finishing normally a moment, then kill whatever is left. */
    int status = 0;
    pid_t r = 0;
    int tries = p->exit_grace_s > 0.1 ? (int)(p->exit_grace_s / 0.002) : 50;
    for (int i = 0; i < tries && !p->timed_out && (r = waitpid(p->pid, &status, WNOHANG)) == 0; i++) usleep(2000);
    end_group(group > 0 ? group : p->pid, p->pid, r == p->pid, &status);
    e.exited = WIFEXITED(status);
    e.code = e.exited ? WEXITSTATUS(status) : 0;
    e.signaled = WIFSIGNALED(status);
    e.sig = e.signaled ? WTERMSIG(status) : 0;
    remove_private_dir(p);
    repeat_trace(p);
    if (p->window) munmap((void *)p->window, p->window_bytes), p->window = NULL;
    return e;
}

const char *runner_end_text(const runner_end *e, char *buf, size_t len)
{
    if (e->timed_out) snprintf(buf, len, "timed out (infinite loop or far too slow?)");
    else if (e->signaled && e->sig == SIGSYS)
        snprintf(buf, len, "killed for a forbidden system call (process, file, network or memory-protection use)");
    else if (e->signaled && e->sig == SIGXFSZ) snprintf(buf, len, "killed for printing too much output");
    else if (e->signaled && e->sig == SIGXCPU) snprintf(buf, len, "killed for using too much CPU time");
    else if (e->signaled) snprintf(buf, len, "killed by SIG%s (%s)", sigabbrev_np(e->sig), strsignal(e->sig));
    else if (e->exited && e->code == SANDBOX_NOT_ISOLATED)
        snprintf(buf, len, "could not be started as an unprivileged user (the grader is root: check %s/%s)",
                 SANDBOX_UID_ENV, SANDBOX_GID_ENV);
    else if (e->exited && e->code == SANDBOX_NOT_SET_UP)
        snprintf(buf, len, "could not be started (its descriptors, output file or private folder)");
    else if (e->exited && e->code == SANDBOX_NOT_EXECUTED)
        snprintf(buf, len, "could not be executed (when the grader is root: is it executable by others?)");
    else if (e->exited) snprintf(buf, len, "exited with status %d before sending its results", e->code);
    else snprintf(buf, len, "ended abnormally");
    return buf;
}

/* Each thread's time on a CPU and time ready and waiting for one, in nanoseconds: the first two fields
 * of /proc/<pid>/task/<tid>/schedstat, exact, where /proc/<pid>/stat counts clock ticks of the first
 * only (used where schedstat is missing; *waited is -1 then). */
int runner_sched_seconds(const runner_proc *p, double *cpu, double *waited)
{
    char path[96];
    snprintf(path, sizeof path, "/proc/%d/task", (int)p->pid);
    DIR *d = opendir(path);
    double run_ns = 0, wait_ns = 0;
    int tasks = 0, missing = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        char file[160];
        snprintf(file, sizeof file, "/proc/%d/task/%.20s/schedstat", (int)p->pid, e->d_name);
        char *text = read_text(file, 256);
        unsigned long long run = 0, wait = 0;
        if (text && sscanf(text, "%llu %llu", &run, &wait) == 2) run_ns += (double)run, wait_ns += (double)wait, tasks++;
        else missing++;
        free(text);
    }
    if (d) closedir(d);
    if (tasks > 0 && !missing) {
        *cpu = run_ns * 1e-9, *waited = wait_ns * 1e-9;
        return 0;
    }
    *waited = -1;
    snprintf(path, sizeof path, "/proc/%d/stat", (int)p->pid);
    char *text = read_text(path, 4096), *close = text ? strrchr(text, ')') : NULL; /* the name may hold ')' */
    unsigned long long utime = 0, stime = 0;
    /* after the name: state (field 3) ... utime (14), stime (15) */
    int ok = close && sscanf(close + 1, "%*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %llu %llu", &utime, &stime) == 2;
    free(text);
    *cpu = ok ? (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK) : -1;
    return ok ? 0 : -1;
}

double runner_cpu_seconds(const runner_proc *p)
{
    double cpu, waited;
    runner_sched_seconds(p, &cpu, &waited);
    return cpu;
}

double machine_steal_seconds(void)
{
    char *text = read_text("/proc/stat", 512);
    unsigned long long steal = 0;
    /* "cpu  user nice system idle iowait irq softirq steal ..." in clock ticks, every CPU together */
    int ok = text && sscanf(text, "cpu %*u %*u %*u %*u %*u %*u %*u %llu", &steal) == 1;
    free(text);
    return ok ? (double)steal / (double)sysconf(_SC_CLK_TCK) : -1;
}
