/* gpu_register.c - run-time guard against device code registered by student code (row 37 of
 * GRADER_THREATS.md). Linked only into GPU labs' runners, which build.c links with
 * --wrap=__cudaRegisterFatBinary and --wrap=main.
 *
 * nvcc registers a file's kernels from a static constructor of its own (__sti____cudaRegisterAll),
 * which runs before main. A call to __cudaRegisterFatBinary after main has started can only come
 * from code that registers a fatbin it carries (a prebuilt kernel the audit never saw). The build
 * audit refuses such code already; this is the second line: the runner stops at once, with a
 * status of its own, before that device code can run. */
#include "gpu_register.h"

#include <unistd.h>

void **__real___cudaRegisterFatBinary(void *fatbin);
int __real_main(int argc, char **argv, char **envp);

/* Set once the C runtime hands over to main: every static constructor has run by then. */
static volatile int main_started;

int __wrap_main(int argc, char **argv, char **envp)
{
    main_started = 1;
    return __real_main(argc, argv, envp);
}

void **__wrap___cudaRegisterFatBinary(void *fatbin)
{
    if (main_started) {
        /* write(2), not stdio: the student's code may have left stdio in any state, and the
         * sandbox allows writes to the (captured) stderr */
        static const char why[] = "runner: device code registered after start-up (not by nvcc's constructor): "
                                  "stopped\n";
        ssize_t ignored = write(2, why, sizeof why - 1);
        (void)ignored;
        _exit(RUNNER_FOREIGN_DEVICE_CODE);
    }
    return __real___cudaRegisterFatBinary(fatbin);
}
