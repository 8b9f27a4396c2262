/* sandbox.c - see sandbox.h. */
#define _GNU_SOURCE
#include "sandbox.h"
#include "proto.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* In the child between fork and exec: only async-signal-safe calls. */
static void child(int in_fd, int out_fd, const char *exe, const char *dir, const char *out_path,
                  const sandbox_limits *lim, char *const env[])
{
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* a grader stopped with ^C takes its runner with it */
    int devnull = open("/dev/null", O_RDONLY);
    int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (devnull < 0 || out < 0 || chdir(dir)) _exit(126);
    /* Move our pipe ends above the target numbers first, so dup2 never clobbers one with the other. */
    int hi_in = fcntl(in_fd, F_DUPFD, 10), hi_out = fcntl(out_fd, F_DUPFD, 10);
    if (dup2(devnull, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0 || dup2(hi_in, PROTO_IN_FD) < 0 ||
        dup2(hi_out, PROTO_OUT_FD) < 0)
        _exit(126);
    syscall(SYS_close_range, PROTO_OUT_FD + 1, ~0u, 0); /* no inherited descriptors */
    limit(RLIMIT_CPU, (rlim_t)lim->timeout_s * (rlim_t)(lim->threads > 0 ? lim->threads : 1) + 1);
    limit(RLIMIT_AS, lim->memory_bytes);
    limit(RLIMIT_FSIZE, lim->output_bytes);
    limit(RLIMIT_CORE, 0);
    limit(RLIMIT_NOFILE, lim->gpu || lim->wrapper ? 1024 : 16); /* the CUDA driver opens a few dozen device files */
    char *argv[32] = {(char *)exe, NULL};
    if (lim->wrapper) { /* e.g. perf stat ... -- runner: the wrapper execs the runner in turn */
        int n = 0;
        while (lim->wrapper[n] && n < 30) argv[n] = lim->wrapper[n], n++;
        argv[n] = (char *)exe, argv[n + 1] = NULL;
        execve(argv[0], argv, env);
    } else execve(exe, argv, env);
    _exit(127);
}

int runner_start(runner_proc *p, const char *exe, const char *dir, const char *out_path, const sandbox_limits *lim)
{
    int to[2], from[2];
    if (pipe2(to, O_CLOEXEC)) return -1;
    if (pipe2(from, O_CLOEXEC)) {
        close(to[0]);
        close(to[1]);
        return -1;
    }
    char threads[32];
    snprintf(threads, sizeof threads, "OMP_NUM_THREADS=%d", lim->threads > 0 ? lim->threads : 1);
    char *env[] = {"PATH=/usr/bin:/bin", "LC_ALL=C", threads, NULL, NULL, NULL};
    if (lim->sanitize) { /* report, then exit with SANITIZER_FOUND (86); no leak check (it needs ptrace) */
        env[3] = "ASAN_OPTIONS=detect_leaks=0:symbolize=0:exitcode=86:halt_on_error=1:abort_on_error=0";
        env[4] = "UBSAN_OPTIONS=print_stacktrace=1:symbolize=0:halt_on_error=1:exitcode=86";
    } else if (lim->gpu) {
        env[3] = "CUDA_VISIBLE_DEVICES=0";
        env[4] = "CUDA_MODULE_LOADING=EAGER"; /* no lazy loading after the sandbox closes */
    }
    signal(SIGPIPE, SIG_IGN); /* a dead runner shows up as a failed write, not a dead scorer */
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) child(to[0], from[1], exe, dir, out_path, lim, env);
    setpgid(pid, pid); /* also here, so the group exists before we might kill it */
    close(to[0]);
    close(from[1]);
    *p = (runner_proc){.pid = pid, .to = to[1], .from = from[0], .deadline = now_s() + lim->timeout_s};
    return 0;
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

runner_end runner_finish(runner_proc *p)
{
    runner_end e = {.timed_out = p->timed_out, .bad_message = p->bad_message};
    close(p->to);
    close(p->from);
    /* Give a runner that is finishing normally a moment, then kill whatever is left. */
    int status = 0;
    pid_t r = 0;
    for (int i = 0; i < 50 && !p->timed_out && (r = waitpid(p->pid, &status, WNOHANG)) == 0; i++) usleep(2000);
    kill(-p->pid, SIGKILL);
    if (r == 0 || p->timed_out) waitpid(p->pid, &status, 0);
    e.exited = WIFEXITED(status);
    e.code = e.exited ? WEXITSTATUS(status) : 0;
    e.signaled = WIFSIGNALED(status);
    e.sig = e.signaled ? WTERMSIG(status) : 0;
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
    else if (e->exited) snprintf(buf, len, "exited with status %d before sending its results", e->code);
    else snprintf(buf, len, "ended abnormally");
    return buf;
}
