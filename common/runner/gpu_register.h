/* gpu_register.h - a GPU runner that catches device code registered after start-up
 * (gpu_register.c) exits with RUNNER_FOREIGN_DEVICE_CODE (runner_exit.h). */
#ifndef GPU_REGISTER_H
#define GPU_REGISTER_H

#include "runner_exit.h"

/* The options build.c adds to the link of every CUDA runner: the wrapper above, main wrapped so
 * that the wrapper knows when start-up is over, and cudaDeviceSynchronize wrapped so that a call
 * that waits for the device lets the timer's hold go first (gpu_kernels.cu). */
#define GPU_REGISTER_LDFLAGS "-Xlinker --wrap=__cudaRegisterFatBinary,--wrap=main,--wrap=cudaDeviceSynchronize"

#endif
