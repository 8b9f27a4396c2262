#!/bin/sh
# run.sh - run a CUDA lab's kernels on the CPU, to check their indexing and logic where there is
# no GPU (never their speed): the .cu file is turned into C++ (cu2cpp.py rewrites each launch
# `k<<<grid, block>>>(args)` as a call of emu.h's emu_launch), and a lab's checker (checkNN.cpp)
# calls every stage on small shapes and compares with a reference on the CPU, with guard zones.
# One OS thread per CUDA thread: __syncthreads is a barrier of the block, a shuffle an exchange
# within the warp; blocks run one after another. A race may or may not show. Needs python3, g++.
#   sh scripts/emu/run.sh 08 solutions/08-transpose/transpose.cu
# What `make emulate LAB=NN [STAGE=name]` runs (EMU_STAGE: one stage). Prints each wrong stage and
# size with its first wrong element, then "<file>: N failures"; exit 0 when none, 1 when any, 2
# when it cannot run (a tool missing, no such stage).
set -eu
lab=$1 src=$2
for tool in python3 g++; do
    command -v $tool >/dev/null 2>&1 || { echo "make emulate needs $tool (Debian package: $tool)" >&2; exit 2; }
done
dir=$(ls -d grading/"$lab"-* | head -n 1)
out=build/tmp/emu
mkdir -p "$out"
name=$(basename "$src" .cu)
python3 scripts/emu/cu2cpp.py "$src" "$dir" > "$out/$name.cpp"
g++ -std=c++17 -O1 -pthread -Iscripts/emu -Iscripts/emu/include -I"$dir" -I"$out" -DSRC="\"$name.cpp\"" -o "$out/check-$lab-$name" \
    "scripts/emu/check$lab.cpp"
"$out/check-$lab-$name"
