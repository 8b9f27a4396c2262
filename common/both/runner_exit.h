/* runner_exit.h - every exit status of a runner that stops on its own, in one table: what the
 * runner (runner.c, gpu.c, gpu_register.c, cuda_check.h, a lab's runner-side code) exits with, and
 * what the scorer (checks.c) explains to the student. Apart from the statuses the shell and the
 * sandbox use (126, 127, 128 + signal) and from 0, 1 and 2 (exit(), a student's own). */
#ifndef RUNNER_EXIT_H
#define RUNNER_EXIT_H

enum runner_exit {
    RUNNER_NO_MEMORY = 3,           /* the runner could not allocate the case's buffers */
    RUNNER_WRITE_FAILED = 4,        /* the channel to the scorer closed while the runner wrote */
    RUNNER_READ_FAILED = 5,         /* ... or while it read; or the scorer sent a malformed message */
    RUNNER_NO_SANDBOX = 6,          /* seccomp could not be set up on this machine */
    RUNNER_BAD_JOB = 7,             /* a job or fetch out of range: never from the real scorer */
    RUNNER_NO_GPU = 8,              /* a GPU lab's runner could not initialise the device */
    RUNNER_CUDA_ERROR = 9,          /* a CUDA call failed (cuda_check.h's CUDA_FAILED_STATUS) */
    RUNNER_LEAK = 10,               /* lab 05: what a stage's create made, its destroy did not free */
    RUNNER_FOREIGN_DEVICE_CODE = 20, /* device code registered after start-up (gpu_register.c) */
    RUNNER_SANITIZER_FOUND = 86      /* SANITIZE=1: AddressSanitizer, UBSan or compute-sanitizer reported */
};

/* SANITIZE=1 and `make profile` on a CUDA lab: set by the scorer, in the runner's fixed environment,
 * to the tool the runner runs under ("compute-sanitizer" or "ncu"), whose in-process part the
 * runner's seccomp filter must let report to it. */
#define CUDA_TOOL_ENV "WB_UNDER_CUDA_TOOL"

#endif
