/* test_sandbox.c - the runner's sandbox seen from outside (rows 39 and 40 of the threats).
 *
 * build/tests/sandbox-check (tests/sandbox/check.c) plays the scorer: it starts a stand-in runner
 * (tests/sandbox/runner.c) with runner_start, as a GPU lab's runner is started and sandboxed, and
 * has it try each way out of tests/sandbox/routes.h while a sibling process of the runner's user
 * counts the signals it gets. Run as the suite's user (root in CI, so the runner as nobody) and,
 * where that is root, again as a throwaway ordinary user, whose runner shares its uid. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests.h"

#define CHECKER "build/tests/sandbox-check"
#define RUNNER "build/tests/sandbox-runner"
#define LOG "build/tmp/sandbox-check.log"

/* The throwaway user (made while the suite is root) and the copies of the two programs it runs, in
 * a folder it can reach whatever the checkout's permissions. */
static struct {
    char name[32], dir[64];
    uid_t uid;
    gid_t gid;
    int made;
} user;

static void make_user(void)
{
    if (geteuid() != 0) return;
    snprintf(user.name, sizeof user.name, "wbsbx%d", (int)getpid());
    snprintf(user.dir, sizeof user.dir, "/tmp/wb-sandbox-test-XXXXXX");
    struct passwd *pw;
    if (!mkdtemp(user.dir) || sh("chmod 755 %s && cp %s %s %s/", user.dir, CHECKER, RUNNER, user.dir) ||
        sh("useradd -r -M -s /usr/sbin/nologin -U %s > /dev/null 2>&1", user.name) || !(pw = getpwnam(user.name)))
        return;
    user.uid = pw->pw_uid, user.gid = pw->pw_gid, user.made = 1;
}

static void remove_user(void)
{
    if (user.made) sh("userdel %s > /dev/null 2>&1; groupdel %s > /dev/null 2>&1", user.name, user.name);
    if (user.dir[0]) sh("rm -rf %s", user.dir);
}

/* Run the checker on `what` (routes or groups, space separated), as the throwaway user when
 * `as_user`, on a kernel that refuses namespaces when `refuse` is 1, or with the runner started by a
 * wrapper that forks it (compute-sanitizer's way) when it is WRAPPED; its exit status, its report
 * in `log` (caller frees). */
#define WRAPPED 2
static int check(int as_user, int refuse, const char *what, char **log)
{
    char cmd[512];
    const char *opt = refuse == 1 ? "--refuse-namespaces" : refuse == WRAPPED ? "--wrapper" : "";
    sh("mkdir -p build/tmp");
    if (!as_user) {
        snprintf(cmd, sizeof cmd, CHECKER " %s " RUNNER " %s > " LOG " 2>&1", opt, what);
        int st = sh("%s", cmd);
        *log = slurp(LOG);
        return st;
    }
    snprintf(cmd, sizeof cmd, "exec %s/sandbox-check %s %s/sandbox-runner %s", user.dir, opt, user.dir, what);
    pid_t pid = fork();
    if (pid == 0) { /* the report opened as root, in the suite's folder; then the user, for good */
        int fd = open(LOG, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0 || setgroups(0, NULL) ||
            setresgid(user.gid, user.gid, user.gid) || setresuid(user.uid, user.uid, user.uid))
            _exit(99);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(98);
    }
    int st = -1;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    *log = slurp(LOG);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Every route of `what` closed, as the suite's user or the throwaway one: the checker's report
 * (caller frees), or NULL where the throwaway user cannot be had (the suite is not root). */
static char *expect_closed(int as_user, int refuse, const char *what)
{
    if (as_user && geteuid() != 0) {
        printf("sandbox as an ordinary user (%s): skipped: not root (the suite itself ran as one)\n", what);
        return NULL;
    }
    ck_assert_msg(!as_user || user.made, "could not make a throwaway user (useradd -r, as root)");
    char *log = NULL;
    int st = check(as_user, refuse, what, &log);
    ck_assert_msg(st == 0, "sandbox-check %s%s%s exited %d:\n%s", what, as_user ? " as an ordinary user" : "",
                  refuse == 1 ? " without namespaces" : refuse == WRAPPED ? " under a wrapper" : "", st,
                  log ? log : "(no report)");
    ck_assert(log != NULL);
    if (strstr(log, "(the fallback)") && !refuse) /* say where the kernel refused */
        printf("%s", strstr(log, "pidns"));
    return log;
}

/* A kernel that refuses every namespace (played by the checker): the runner still starts, the
 * grader says so once, and the filter alone closes every route. */
static void expect_closed_by_filter_alone(int as_user)
{
    char *log = expect_closed(as_user, 1, "pidns signal wx");
    if (!log) return;
    char *note = strstr(log, "grade: note: this kernel refuses the runner a PID namespace");
    ck_assert_msg(note && !strstr(note + 1, "grade: note:"), "the fallback is not said once:\n%s", log);
    ck_assert_msg(strstr(log, "pidns          shared (the fallback)"), "%s", log);
    free(log);
}

/* The runner reaches no other process: not the scorer, not a sibling of its user, by any signal
 * route (fcntl's owner and signal, O_ASYNC, ioctls, kill and its kin, pidfds) nor by ptrace or
 * process_vm. Each route either kills the runner (SIGSYS) or fails, and nothing arrives. */
START_TEST(test_runner_signals_no_other_process)
{
    free(expect_closed(0, 0, "signal"));
}
END_TEST

START_TEST(test_runner_signals_no_other_process_as_ordinary_user)
{
    free(expect_closed(1, 0, "signal"));
}
END_TEST

/* W^X once the sandbox is on, with the GPU labs' filter: no page made or mapped executable. */
START_TEST(test_runner_makes_no_memory_executable)
{
    free(expect_closed(0, 0, "wx"));
}
END_TEST

START_TEST(test_runner_makes_no_memory_executable_as_ordinary_user)
{
    free(expect_closed(1, 0, "wx"));
}
END_TEST

/* The runner is in a PID namespace of its own (it sees itself by another pid than the scorer
 * does), or the kernel refuses this user one and the checker says so. */
START_TEST(test_runner_has_its_own_pid_namespace)
{
    free(expect_closed(0, 0, "pidns"));
}
END_TEST

START_TEST(test_runner_has_its_own_pid_namespace_as_ordinary_user)
{
    free(expect_closed(1, 0, "pidns"));
}
END_TEST

/* SANITIZE=1 on a GPU lab starts the runner through compute-sanitizer, which forks it: the runner
 * is still its own PID namespace's, as the runner's user, and every route stays closed. The wrapper
 * is handed the runner as /proc/self/fd/5 (opened before the uid drop), so a build in a folder the
 * runner's user cannot enter still runs. */
START_TEST(test_runner_under_a_forking_wrapper_is_sandboxed_alike)
{
    char *log = expect_closed(0, WRAPPED, "pidns signal wx");
    ck_assert_msg(strstr(log, "pidns          own:") || strstr(log, "(the fallback)"), "%s", log);
    free(log);
    if (geteuid() != 0) return; /* no uid drop: a folder's mode cannot stop the runner */
    char dir[] = "/tmp/wb-sandbox-0700-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir)); /* 0700, root's: nobody cannot enter it */
    ck_assert_int_eq(sh("cp " RUNNER " %s/ && " CHECKER " --wrapper %s/sandbox-runner pidns > " LOG " 2>&1", dir, dir), 0);
    log = slurp(LOG);
    sh("rm -rf %s", dir);
    ck_assert_msg(log && (strstr(log, "pidns          own:") || strstr(log, "(the fallback)")), "%s", log ? log : "");
    free(log);
}
END_TEST

/* make profile on a GPU lab: Nsight Compute's in-process part locks a file in its folder after the
 * runner's filter is on, so there files may be made and locked; Landlock keeps every other file
 * out of reach (an H100, 2026-11-28: without the folder ncu profiled nothing). */
START_TEST(test_runner_under_the_profiler_reaches_its_lock_folder_alone)
{
    int st = sh("build/tests/sandbox-profiler > build/tmp/sandbox-profiler.log 2>&1");
    char *log = slurp("build/tmp/sandbox-profiler.log");
    if (st == 3) {
        printf("the profiler's sandbox: skipped: this kernel has no Landlock (make profile refuses to start there)\n");
        free(log);
        return;
    }
    ck_assert_msg(st == 0 && log, "sandbox-profiler exited %d:\n%s", st, log ? log : "");
    static const char *const want[][2] = {{"make the lock file", "ok"}, {"lock it", "ok"}, {"remove it", "ok"},
                                          {"chmod it 0777", "ok"}, {"its mode unchanged", "ok"}, {"chmod /etc/passwd 0777", "ok"},
                                          {"read /etc/passwd", "EACCES"}, {"make /tmp/wb-profiler-escape", "EACCES"},
                                          {"make a folder in /tmp", "EACCES"}, {"escape by ..", "EACCES"}};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        const char *line = strstr(log, want[i][0]), *end = line ? strchr(line, '\n') : NULL;
        const char *got = line ? line + 29 : ""; /* "%-28s %s" */
        ck_assert_msg(line && end && !strncmp(got, want[i][1], strlen(want[i][1])) && got + strlen(want[i][1]) == end,
                      "%s: want %s in:\n%s", want[i][0], want[i][1], log);
    }
    ck_assert_int_ne(access("/tmp/wb-profiler-escape", F_OK), 0);
    free(log);
}
END_TEST

START_TEST(test_runner_signals_no_other_process_without_namespaces)
{
    expect_closed_by_filter_alone(0);
}
END_TEST

START_TEST(test_runner_signals_no_other_process_without_namespaces_as_ordinary_user)
{
    expect_closed_by_filter_alone(1);
}
END_TEST

/* A timed case's output window (PROTO_WINDOW_FD): a runner given one cannot shrink it under the
 * scorer's view (the scorer would die of SIGBUS reading it), grow it or seal it, and what it writes
 * there reaches the scorer whole; a runner given none that claims one is refused. Shown with no
 * system-call filter in the runner's way: the seals hold alone. */
START_TEST(test_output_window_holds_and_carries_the_output)
{
    sh("mkdir -p build/tmp");
    int st = sh(CHECKER " build/tests/sandbox-window window > " LOG " 2>&1");
    char *log = slurp(LOG);
    ck_assert_msg(st == 0, "sandbox-check window exited %d:\n%s", st, log ? log : "(no report)");
    ck_assert_msg(log && strstr(log, "window         holds") && strstr(log, "window         refused"), "%s", log);
    free(log);
}
END_TEST

Suite *sandbox_suite(void)
{
    Suite *s = suite_create("sandbox");
    TCase *t = tcase_create("ways-out");
    tcase_add_unchecked_fixture(t, make_user, remove_user);
    tcase_add_test(t, test_runner_signals_no_other_process);
    tcase_add_test(t, test_runner_signals_no_other_process_as_ordinary_user);
    tcase_add_test(t, test_runner_makes_no_memory_executable);
    tcase_add_test(t, test_runner_makes_no_memory_executable_as_ordinary_user);
    tcase_add_test(t, test_runner_has_its_own_pid_namespace);
    tcase_add_test(t, test_runner_under_a_forking_wrapper_is_sandboxed_alike);
    tcase_add_test(t, test_runner_has_its_own_pid_namespace_as_ordinary_user);
    tcase_add_test(t, test_runner_under_the_profiler_reaches_its_lock_folder_alone);
    tcase_add_test(t, test_runner_signals_no_other_process_without_namespaces);
    tcase_add_test(t, test_runner_signals_no_other_process_without_namespaces_as_ordinary_user);
    tcase_add_test(t, test_output_window_holds_and_carries_the_output);
    tcase_set_timeout(t, 120);
    suite_add_tcase(s, t);
    return s;
}
