# Lab 12 is a CUDA lab for Hopper only: built with nvcc for sm_90a, skipped where there is no GPU
# of compute capability 9.0.
GPU_LABS += 12-hopper-gemm
# `make emulate` has nothing to run it on: say why.
NO_EMULATOR_12-hopper-gemm := the CPU emulator has no model of wgmma, the tensor memory accelerator, mbarriers or clusters; this lab runs on a Hopper GPU (H100, H200) alone
