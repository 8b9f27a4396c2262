/* gpu_register.h - the exit status of a GPU runner that caught device code being registered after
 * start-up (gpu_register.c). Kept apart from enum runner_exit (proto.h: 3 to 10) and from the
 * statuses the shell and the sandbox use (126, 127, 128 + signal). */
#ifndef GPU_REGISTER_H
#define GPU_REGISTER_H

#define RUNNER_FOREIGN_DEVICE_CODE 20

/* The options build.c adds to the link of every CUDA runner: the wrapper above, and main wrapped
 * so that the wrapper knows when start-up is over. */
#define GPU_REGISTER_LDFLAGS "-Xlinker --wrap=__cudaRegisterFatBinary,--wrap=main"

#endif
