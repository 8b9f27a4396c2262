#!/bin/sh
# run.sh - the kernel studies behind labs 06, 08, 10 and 11's references, lab 09's long rows, and the
# timer's hold (clocks), the cost of a whole fetch (fetch), and Hopper's wgmma toward lab 12 (wgmma, sm_90a) (docs/BENCHMARKS.md, "Labs 08-11 on a GPU", "The thirty-second session"):
# each times variants of one kernel with the grader's own timer (common/runner/gpu_kernels.cu; the
# median of 15 calls, the L2 flushed between calls) beside the device's copy bandwidth, and, for the
# scan, CUB; for lab 06, cuBLAS. A study, not a grader: no fresh inputs, full tiles only. Needs a GPU
# and nvcc.
#   sh scripts/studies/run.sh [scan|lookback|transpose|conv|softmax|sgemm|clocks|fetch|wgmma]...   (default: all but
#   fetch, which times the host's side of moving an output: the device-to-host copy, a pipe, memcpy, and
#   wgmma, which needs a Hopper GPU)
#   ARCH=sm_80 sh scripts/studies/run.sh                  (default: the first GPU's, else sm_90)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=$top/build/studies
mkdir -p "$out"
if [ -z "${ARCH:-}" ]; then
    cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' .')
    ARCH=sm_${cc:-90}
fi
for s in ${*:-scan lookback transpose conv softmax sgemm clocks}; do
    # conv.cu, clocks.cu, sgemm.cu and wgmma.cu include labs 11's, 06's and 12's references whole (and their headers)
    libs=; arch=-arch=$ARCH
    [ "$s" = sgemm ] && libs=-lcublas
    [ "$s" = wgmma ] && libs="-lcublas -lcuda" arch=-gencode=arch=compute_90a,code=sm_90a # wgmma: sm_90a only (HOPPER.md)
    nvcc -O3 -std=c++17 $arch -I"$here" -I"$top/common/both" -I"$top/common/runner" -I"$top/solutions" -I"$top/grading/11-convolution" -I"$top/grading/09-softmax" -I"$top/grading/10-scan" -I"$top/grading/06-tiling" -I"$top/grading/12-hopper-gemm" \
        -o "$out/$s" "$here/$s.cu" "$top/common/runner/gpu_kernels.cu" $libs
    echo "== $s (${arch#*=}, $(date -u +%T) UTC)"
    "$out/$s"
done
