# Lab 05 is a CUDA lab: built with nvcc, skipped where there is no GPU.
GPU_LABS += 05-streams
# The scorer's reference (7e10 multiply-adds at the timed size) is vectorised and uses every core.
LAB_CFLAGS_05-streams := -O3 -march=native -fopenmp
