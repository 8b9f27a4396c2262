/* check.c - the scorer's side of the sandbox test (build/tests/sandbox-check).
 *
 * usage: sandbox-check [--refuse-namespaces] [--wrapper] RUNNER WHAT...   WHAT: a route of routes.h, a group
 * ("signal", "wx"), "pidns" (does the runner have a PID namespace of its own?), or "window" (RUNNER
 * is build/tests/sandbox-window: does the output window carry a whole output and hold against it?). One line a
 * route, then exit 0 when every route tried is closed, 1 when one is open, 2 when the test itself
 * could not run. --refuse-namespaces plays a kernel that refuses every namespace, so the runner's
 * system-call filter is seen to hold alone (the sandbox's fallback). --wrapper starts the runner
 * through a program that forks it (as compute-sanitizer does), which must be sandboxed alike.
 *
 * For each route it starts a fresh sibling process of the runner's user (the grader's own user, or
 * the runner's when the grader is root), starts the stand-in runner with runner_start exactly as
 * the grader starts a GPU lab's, names the route, and watches: a route is open when the scorer
 * (this process) or the sibling got any signal, or the runner says every call succeeded. */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "routes.h"
#include "sandbox.h"

#define SANDBOX_ROUTE_NAME(name, group, what) {#name, group, what},
static const struct {
    const char *name, *group, *what;
} route[] = {SANDBOX_ROUTES(SANDBOX_ROUTE_NAME)};

static volatile sig_atomic_t got[NSIG]; /* signals this process received since the last reset */
static volatile uint64_t secret = 0x5ec7e75ec7e7;

static void note(int sig) { got[sig]++; }

/* Count every signal another process could send that does not stop us from counting: not the
 * faults (a real one would loop), not SIGCHLD (our children end), never SIGKILL or SIGSTOP. */
static void count_signals(void)
{
    struct sigaction sa = {.sa_handler = note};
    for (int s = 1; s < NSIG; s++)
        if (s != SIGKILL && s != SIGSTOP && s != SIGCHLD && s != SIGSEGV && s != SIGBUS && s != SIGFPE &&
            s != SIGILL && s != SIGTRAP && s != SIGSYS)
            sigaction(s, &sa, NULL);
}

static int first_signal(void)
{
    for (int s = 1; s < NSIG; s++)
        if (got[s]) return s;
    return 0;
}

/* The runner's user: ours, or where we are root, the one runner_start drops to. */
static void runner_ids(uid_t *uid, gid_t *gid)
{
    const char *u = getenv(SANDBOX_UID_ENV), *g = getenv(SANDBOX_GID_ENV);
    *uid = geteuid() ? geteuid() : u && *u ? (uid_t)atol(u) : 65534;
    *gid = geteuid() ? getegid() : g && *g ? (gid_t)atol(g) : 65534;
}

/* A process of the runner's user in our process group, counting signals until `hold` closes; it
 * exits with the first signal it got (0: none). Returned once it has taken that user. */
static pid_t start_sibling(int *hold)
{
    int p[2], ready[2];
    if (pipe(p)) return -1;
    if (pipe(ready)) return close(p[0]), close(p[1]), -1;
    uid_t uid;
    gid_t gid;
    runner_ids(&uid, &gid);
    pid_t pid = fork();
    if (pid == 0) {
        memset((void *)got, 0, sizeof got);
        close(p[1]), close(ready[0]);
        if (geteuid() == 0 && (setgroups(0, NULL) || setresgid(gid, gid, gid) || setresuid(uid, uid, uid))) _exit(100);
        close(ready[1]);
        char c;
        while (read(p[0], &c, 1) != 0) { /* EINTR as signals come; EOF ends it */ }
        _exit(first_signal());
    }
    close(p[0]), close(ready[1]);
    char c;
    while (read(ready[0], &c, 1) < 0 && errno == EINTR) { /* end of file: it is the runner's user now */ }
    close(ready[0]);
    *hold = p[1];
    return pid;
}

/* How the sibling fared: "" (nothing reached it), or what did, in `why`. */
static int sibling_reached(pid_t pid, int hold, char *why, size_t len)
{
    close(hold);
    int st;
    if (waitpid(pid, &st, 0) != pid) return snprintf(why, len, "the sibling was lost"), 1;
    if (WIFSIGNALED(st)) return snprintf(why, len, "the sibling was killed by SIG%s", sigabbrev_np(WTERMSIG(st))), 1;
    if (WEXITSTATUS(st) == 100) return snprintf(why, len, "the sibling could not take the runner's user"), 1;
    if (WEXITSTATUS(st)) return snprintf(why, len, "the sibling got SIG%s", sigabbrev_np(WEXITSTATUS(st))), 1;
    return 0;
}

typedef struct outcome {
    int started, hello_ok, said_ok;
    hello h;
    said s;
    runner_end e;
    pid_t pid; /* the runner, as we see it */
} outcome;

/* --wrapper: the runner started by a program that forks it, as compute-sanitizer does (SANITIZE=1 on
 * a GPU lab), sandboxed as the runner alone is; the wrapper gets the runner as /proc/self/fd/5. */
static char *const forking_wrapper[] = {"/bin/sh", "-c", "\"$0\"; exit $?", NULL};
static char *const *wrapper;

/* Start the runner, name route `r`, hear what it says, and end it. */
static outcome run_route(const char *runner, const char *scratch, int r, pid_t sibling)
{
    outcome o = {0};
    char out[512];
    snprintf(out, sizeof out, "%s/runner-output", scratch);
    sandbox_limits lim = {.timeout_s = 10, .memory_bytes = (size_t)1 << 30, .output_bytes = 1 << 20, .threads = 1,
                          .gpu = 1, .wrapper = wrapper};
    runner_proc p;
    if (runner_start(&p, runner, NULL, out, &lim)) return o;
    o.started = 1, o.pid = p.pid;
    ask a = {r, getpid(), sibling, getpgrp(), (uint64_t)(uintptr_t)&secret};
    if (runner_send(&p, MSG_ASK, &a, sizeof a) == 0) {
        o.hello_ok = runner_recv(&p, MSG_HELLO, &o.h, sizeof o.h) == 0;
        o.said_ok = o.hello_ok && runner_recv(&p, MSG_SAID, &o.s, sizeof o.s) == 0;
    }
    o.e = runner_finish(&p);
    return o;
}

/* One route: a line saying whether it is closed, and how; 1 when open, 2 when not tried. */
static int try_route(const char *runner, const char *scratch, int r)
{
    memset((void *)got, 0, sizeof got);
    int hold;
    pid_t sibling = start_sibling(&hold);
    if (sibling < 0) return printf("%-14s not tried: no sibling process\n", route[r].name), 2;
    outcome o = run_route(runner, scratch, r, sibling);
    usleep(20000); /* a signal on its way is delivered by now */
    char why[160] = "", ended[160];
    int reached = sibling_reached(sibling, hold, why, sizeof why);
    if (first_signal()) reached = 1, snprintf(why, sizeof why, "the scorer got SIG%s", sigabbrev_np(first_signal()));
    if (!o.started || !o.hello_ok)
        return printf("%-14s not tried: the runner did not start (%s)\n", route[r].name,
                      runner_end_text(&o.e, ended, sizeof ended)), 2;
    int completed = o.said_ok && o.s.step < 0;
    if (reached || completed) {
        printf("%-14s OPEN: %s (%s)\n", route[r].name, reached ? why : "every call succeeded", route[r].what);
        return 1;
    }
    if (o.said_ok)
        printf("%-14s closed: call %d failed: %s\n", route[r].name, o.s.step, strerror(o.s.err));
    else printf("%-14s closed: the runner was %s\n", route[r].name, runner_end_text(&o.e, ended, sizeof ended));
    return 0;
}

/* Did the process `pid` exit 0? */
static int succeeded(pid_t pid)
{
    int st;
    return pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* Could this user have a PID namespace with its own /proc here? Tried in a child as the sandbox
 * tries it (as root, else in a user namespace), its pid 1 mounting the /proc. */
static int pid_namespace_allowed(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (unshare(CLONE_NEWNS | CLONE_NEWPID) && unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID)) _exit(1);
        if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) _exit(1);
        pid_t init = fork();
        if (init == 0) _exit(mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0);
        _exit(!succeeded(init));
    }
    return succeeded(pid);
}

/* The runner's pid as it sees it, against the one we know. */
static int check_pid_namespace(const char *runner, const char *scratch)
{
    outcome o = run_route(runner, scratch, ROUTE_HELLO, 0);
    if (!o.hello_ok) return printf("pidns          not tried: the runner did not start\n"), 2;
    if (o.h.pid != o.pid && o.h.proc_self != o.h.pid) {
        printf("pidns          BROKEN: pid %d inside, but its /proc says %d (the CUDA driver would fail)\n", o.h.pid,
               o.h.proc_self);
        return 1;
    }
    if (o.h.pid != o.pid) {
        printf("pidns          own: pid %d inside (its /proc agrees), %d outside; its parent is %d inside\n", o.h.pid,
               (int)o.pid, o.h.ppid);
        return 0;
    }
    if (!pid_namespace_allowed()) {
        printf("pidns          shared (the fallback): this kernel refuses this user a PID namespace with its own "
               "/proc; the filter alone holds\n");
        return 0;
    }
    printf("pidns          SHARED: pid %d inside and out, though this kernel allows a PID namespace here\n", o.h.pid);
    return 1;
}

/* The output window (tests/sandbox/window.c, its runner): started with a window, the runner cannot
 * shrink, grow or seal it, and the pattern it writes there is what runner_recv_output gives; started
 * without one, its claim that the output is in a window is refused. 0 when both hold. */
#define WINDOW_TEST_BYTES (1u << 20)
static int check_window(const char *runner, const char *scratch)
{
    char out[512], ended[160];
    snprintf(out, sizeof out, "%s/runner-output", scratch);
    static uint32_t got[WINDOW_TEST_BYTES / 4];
    int status = 0;
    for (int given = 1; given >= 0; given--) {
        /* (an output file limit above twice the window: else growing it is refused by SIGXFSZ, not the seal) */
        sandbox_limits lim = {.timeout_s = 10, .memory_bytes = (size_t)1 << 30, .output_bytes = 8 << 20, .threads = 1,
                              .window_bytes = given ? WINDOW_TEST_BYTES : 0};
        runner_proc p;
        if (runner_start(&p, runner, NULL, out, &lim)) return printf("window         not tried: no runner\n"), 2;
        if (given && !p.window) return printf("window         not tried: this system gives no window\n"), 2;
        memset(got, 0, sizeof got);
        int io = runner_recv_output(&p, got, WINDOW_TEST_BYTES), bad = p.bad_message;
        runner_end e = runner_finish(&p);
        uint32_t wrong = 0;
        for (uint32_t i = 0; i < WINDOW_TEST_BYTES / 4; i++) wrong += got[i] != i * 2654435761u;
        if (given && (io || wrong || !e.exited || e.code)) {
            printf("window         BROKEN: given a window, the runner %s; the output came %s, %u words wrong\n",
                   runner_end_text(&e, ended, sizeof ended), io ? "not" : "through", (unsigned)wrong);
            status = 1;
        } else if (given) printf("window         holds: not shrunk, grown or sealed, and the output came through it\n");
        else if (io == 0 || !bad) {
            printf("window         BROKEN: a runner with no window said its output was in one, and was believed\n");
            status = 1;
        } else printf("window         refused: a runner with no window that says its output is in one\n");
    }
    return status;
}

/* unshare fails with EPERM from here on, in this process and every one it starts, as on a kernel
 * without user namespaces in a container without CAP_SYS_ADMIN. 0, or -1 if refused. */
static int refuse_namespaces(void)
{
    struct sock_filter f[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_unshare, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {sizeof f / sizeof f[0], f};
    return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) ? -1 : 0;
}

static int worst(int a, int b) { return a > b ? a : b; }

int main(int argc, char **argv)
{
    int refuse = argc > 1 && !strcmp(argv[1], "--refuse-namespaces");
    argv += refuse, argc -= refuse;
    if (argc > 1 && !strcmp(argv[1], "--wrapper")) wrapper = forking_wrapper, argv++, argc--;
    if (argc < 3) return fprintf(stderr, "usage: sandbox-check [--refuse-namespaces] [--wrapper] RUNNER WHAT...\n"), 2;
    if (refuse && refuse_namespaces()) return perror("seccomp"), 2;
    setvbuf(stdout, NULL, _IOLBF, 0);
    setpgid(0, 0); /* our own group (the sibling's too): what a route aimed at the scorer's group reaches */
    count_signals();
    char scratch[] = "/tmp/wb-sandbox-check-XXXXXX";
    if (!mkdtemp(scratch)) return perror("mkdtemp"), 2;
    uid_t uid;
    gid_t gid;
    runner_ids(&uid, &gid);
    printf("as uid %d: the runner and the sibling as uid %d\n", (int)geteuid(), (int)uid);
    int status = 0, tried = 0;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "pidns")) status = worst(status, check_pid_namespace(argv[1], scratch)), tried++;
        if (!strcmp(argv[i], "window")) status = worst(status, check_window(argv[1], scratch)), tried++;
        for (int r = 0; r < ROUTE_COUNT; r++)
            if (!strcmp(argv[i], route[r].name) || !strcmp(argv[i], route[r].group))
                status = worst(status, try_route(argv[1], scratch, r)), tried++;
    }
    char out[600];
    snprintf(out, sizeof out, "%s/runner-output", scratch);
    unlink(out);
    rmdir(scratch);
    return tried ? status : (fprintf(stderr, "sandbox-check: nothing to try\n"), 2);
}
