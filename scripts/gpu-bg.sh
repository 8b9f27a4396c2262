#!/bin/sh
# gpu-bg.sh - a batch on the GPU machine that outlives one device call (10 minutes at most): started
# in the background, then waited for by later calls, each bringing back what it has so far.
# usage: sh scripts/gpu-bg.sh start 'COMMANDS'   (run by sh in the background, output in /tmp/gpu-bg)
#        sh scripts/gpu-bg.sh wait SECONDS       (until the batch ends or SECONDS pass; then its
#                                                 folder, tarred, goes to $OUT/bg.tgz)
# The machine stays warm only while calls follow each other within its idle time: call `wait` again
# at once. COMMANDS may leave files under /tmp/gpu-bg (OUT=/tmp/gpu-bg/x for gpu-verify.sh).
set -u
bg=/tmp/gpu-bg
case ${1:-} in
start)
    rm -rf "$bg" && mkdir -p "$bg"
    setsid nohup sh -c "$2; echo \$? > $bg/exit" > "$bg/log.txt" 2>&1 < /dev/null &
    echo "started: $2" ;;
wait)
    t=0
    while [ ! -f "$bg/exit" ] && [ "$t" -lt "${2:-500}" ]; do sleep 5; t=$((t + 5)); done
    if [ -f "$bg/exit" ]; then echo "batch ended: exit $(cat "$bg/exit")"; else echo "batch still running after ${t} s"; fi
    tail -n 15 "$bg/log.txt"
    tar czf "${OUT:-/tmp}/bg.tgz" -C "$bg" . ;;
*) echo "usage: sh scripts/gpu-bg.sh start 'COMMANDS' | wait SECONDS" >&2; exit 2 ;;
esac
