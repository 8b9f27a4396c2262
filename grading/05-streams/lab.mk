# Lab 05 is a CUDA lab: built with nvcc, skipped where there is no GPU.
GPU_LABS += 05-streams
# The scorer's reference (7e10 multiply-adds at the timed size) is vectorised and uses every core.
LAB_CFLAGS_05-streams := -O3 -march=native -fopenmp
# The GPU probe times the ideal's kernel at this lab's degree, fully unrolled like the lab's own
# (common/probes/gpu_probe.cu); the degree is read from the lab's header, its one home.
PROBE_FLAGS += -DUNROLLED_DEGREE=$(shell sed -n 's/^\#define POLY_DEGREE \([0-9]*\).*/\1/p' grading/05-streams/streams.h)
