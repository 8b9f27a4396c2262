# Lab 04 is a CUDA lab: built with nvcc, skipped where there is no GPU.
GPU_LABS += 04-warp-reduction
