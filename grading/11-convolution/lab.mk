# Lab 11 is a CUDA lab: built with nvcc, skipped where there is no GPU.
GPU_LABS += 11-convolution
