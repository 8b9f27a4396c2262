#!/bin/sh
# run.sh - the kernel studies behind labs 08, 10 and 11's references (docs/BENCHMARKS.md, "Labs 08-11
# on a GPU"): each times variants of one kernel with CUDA events (the median of 15 calls, the L2
# flushed between calls) beside the device's copy bandwidth, and, for the scan, CUB. A study, not
# a grader: no fresh inputs, full tiles only. Needs a GPU and nvcc.
#   sh scripts/studies/run.sh [scan|transpose|conv]...   (default: all three)
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
# conv.cu takes the reference's coarsened kernel body as it stands: from the line after its opening
# brace's constexprs to the kernel's closing brace.
sed -n '/^__global__ void coarsened_kernel/,/^}/p' "$top/solutions/11-convolution/conv.cu" | sed '1,2d' > "$out/coarsened_body.inc"
for s in ${*:-scan transpose conv}; do
    nvcc -O3 -std=c++17 -arch="$ARCH" -I"$here" -I"$out" -o "$out/$s" "$here/$s.cu"
    echo "== $s ($ARCH, $(date -u +%T) UTC)"
    "$out/$s"
done
