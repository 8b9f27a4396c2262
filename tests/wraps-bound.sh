#!/bin/sh
# wraps-bound.sh RUNNER CONFIG - every call in RUNNER to a function CONFIG's ldlibs wrap
# (--wrap=NAME) is made from inside __wrap_NAME (or inside the CUDA runtime itself, whose own
# calls are none of the student's), so no path (the student's code included) gets
# past the counting and tracing of grading/05-streams/lab.c; and the student's code does reach
# the wrappers. Prints what is wrong; exit 0 when nothing is.
set -u
runner=$1 conf=$2
names=$(grep '^ldlibs' "$conf" | grep -o -- '--wrap=[A-Za-z_0-9]*' | sed 's/--wrap=//')
[ -n "$names" ] || { echo "no --wrap in $conf"; exit 1; }
objdump -d --no-show-raw-insn "$runner" > /tmp/wraps-$$.txt || exit 1
bad=0
for n in $names; do
    out=$(awk -v n="$n" '/^[0-9a-f]+ <.*>:$/ { fn = $2 } $0 ~ "call +[0-9a-f]+ <" n ">$" && fn != "<__wrap_" n ">:" && fn !~ /^<libcudart_static/ { print fn }' /tmp/wraps-$$.txt | sort -u)
    [ -z "$out" ] || { echo "$n called directly from: $out"; bad=1; }
done
for n in cudaMalloc cudaMemcpyAsync cudaStreamCreateWithFlags __cudaLaunchKernel; do
    grep -q "call .*<__wrap_$n>" /tmp/wraps-$$.txt || { echo "nothing calls __wrap_$n"; bad=1; }
done
rm -f /tmp/wraps-$$.txt
exit $bad
