/* tool.c - see tool.h. */
#define _GNU_SOURCE
#include "tool.h"
#include "util.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int run_tool(char *const argv[], const char *out_path, double timeout_s)
{
    return run_tool_files(argv, out_path, timeout_s, (size_t)64 << 20); /* no object beyond 64 MiB */
}

int run_tool_files(char *const argv[], const char *out_path, double timeout_s, size_t max_file_bytes)
{
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int in = open("/dev/null", O_RDONLY);
        if (out < 0 || in < 0) _exit(126);
        dup2(in, 0);
        dup2(out, 1);
        dup2(out, 2);
        struct rlimit fs = {max_file_bytes, max_file_bytes};
        setrlimit(RLIMIT_FSIZE, &fs);
        setenv("LC_ALL", "C", 1); /* plain ASCII quotes in compiler messages */
        execvp(argv[0], argv);
        _exit(127);
    }
    /* The tool's time: a jump of a second or more between two looks (a few ms apart) is time this
     * process spent stopped (a suspended job; `make check` holds its background builds still while a
     * test times on every core), which was not the tool's either. */
    double left = timeout_s, last = now_s();
    int status;
    while (waitpid(pid, &status, WNOHANG) == 0) {
        double t = now_s();
        left -= t - last < 1.0 ? t - last : 0.0;
        last = t;
        if (left < 0) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            return -1;
        }
        usleep(2000);
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The first `max` bytes of a tool's output, for a message. */
void tool_message(const char *path, char *msg, size_t len, const char *prefix)
{
    char *text = read_text(path, 3000);
    snprintf(msg, len, "%s%s", prefix, text ? text : "(no output)");
    free(text);
}
