/* profiler.c - the runner's sandbox as `make profile` sets it for Nsight Compute (SANITIZED_PROFILER):
 * files may be opened, made and locked beneath PROFILER_LOCK_DIR, where ncu's in-process part locks,
 * and nowhere else. Run by tests/test_sandbox.c; prints one line a try, "ok" or the errno's name,
 * and exits 0, or 3 where the kernel has no Landlock (the sandbox then refuses to start). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "seccomp.h"

static void said(const char *what, int rc) { printf("%-28s %s\n", what, rc >= 0 ? "ok" : strerrorname_np(errno)); }

int main(void)
{
    if (sandbox_enter(1, 0, SANITIZED_PROFILER)) return 3;
    char lock[128];
    snprintf(lock, sizeof lock, "%s/wb-test-%d", PROFILER_LOCK_DIR, (int)getpid());
    int fd = open(lock, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
    said("make the lock file", fd);
    said("lock it", fd >= 0 ? flock(fd, LOCK_EX) : -1);
    said("chmod it 0777", chmod(lock, 0777));
    struct stat st;
    said(stat(lock, &st) == 0 && (st.st_mode & 0777) == 0600 ? "its mode unchanged" : "its mode changed", 0);
    said("chmod /etc/passwd 0777", chmod("/etc/passwd", 0777));
    said("remove it", unlink(lock));
    said("read /etc/passwd", open("/etc/passwd", O_RDONLY | O_CLOEXEC));
    said("make /tmp/wb-profiler-escape", open("/tmp/wb-profiler-escape", O_CREAT | O_RDWR | O_CLOEXEC, 0600));
    said("make a folder in /tmp", mkdir("/tmp/wb-profiler-escape-dir", 0700));
    said("escape by ..", open(PROFILER_LOCK_DIR "/../../wb-profiler-escape", O_CREAT | O_RDWR | O_CLOEXEC, 0600));
    return 0;
}
