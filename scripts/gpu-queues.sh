#!/bin/sh
# gpu-queues.sh - several queues of GPU work at once on a machine of several GPUs: queue q runs on
# GPU q mod the number of GPUs (the queues of one GPU one after another), each in a copy of the tree
# of its own (/tmp/wbQ), its grader given its GPU by CUDA_VISIBLE_DEVICES (the runner takes it on),
# its logs in /tmp/gpu-bg/qQ (OUT for gpu-verify.sh; LIVE_DIR for each grading's results as it ends).
# Run it under scripts/gpu-bg.sh, whose `wait` brings /tmp/gpu-bg back:
#   sh scripts/gpu-bg.sh start 'sh scripts/gpu-queues.sh "THRESHOLD=06:all:20 sh scripts/gpu-verify.sh threshold" \
#       "LABS=04 sh scripts/gpu-verify.sh sanitize profile"'
# nvidia-smi's view of the GPUs every 20 s goes to /tmp/gpu-bg/util.txt.
set -u
src=$(pwd) bg=/tmp/gpu-bg
mkdir -p "$bg"
nvidia-smi -L > "$bg/gpus.txt" 2>&1
n=$(grep -c '^GPU' "$bg/gpus.txt"); [ "$n" -ge 1 ] || n=1
( while :; do date -u +%T; nvidia-smi --query-gpu=index,utilization.gpu,memory.used --format=csv,noheader; sleep 20; done ) \
    > "$bg/util.txt" 2>&1 &
mon=$!
pids= d=0
while [ "$d" -lt "$n" ] && [ "$d" -lt $# ]; do
    ( q=0
      for cmd in "$@"; do
          if [ $((q % n)) = "$d" ]; then
              rm -rf /tmp/wb$q && cp -a "$src" /tmp/wb$q && cd /tmp/wb$q &&
                  { echo "queue $q on GPU $d from $(date -u +%T): $cmd"
                    CUDA_VISIBLE_DEVICES=$d OUT=$bg/q$q LIVE_DIR=$bg/q$q/live sh -c "make -s -j16 tools >/dev/null 2>&1; $cmd"
                    echo "queue $q done $(date -u +%T)"; } > "$bg/q$q.log" 2>&1
          fi
          q=$((q + 1))
      done ) &
    pids="$pids $!" d=$((d + 1))
done
for p in $pids; do wait "$p"; done
kill "$mon"
