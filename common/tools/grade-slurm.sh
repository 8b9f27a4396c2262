#!/bin/sh
# grade-slurm.sh - `make grade-all SLURM=1`: the same grading as common/tools/grade-all.sh, as a SLURM job
# array with one task per submission, each on a node of its own (--exclusive: nothing else runs
# beside a timing job) and, for GPU labs, one GPU (--gres=gpu:1). It waits for the array, then
# writes the same gradebook. The build folder must be on a file system every node sees.
# usage: common/tools/grade-slurm.sh BUILD SUBMISSIONS FORCE GPU(0/1) LABNAME...
# SLURM_ARGS adds sbatch options (a partition, an account, a time limit).
set -u
build=$1 subs=$2 force=$3 gpu=$4
shift 4
command -v sbatch >/dev/null 2>&1 || { echo "SLURM=1: sbatch not found (is this a SLURM login node?)" >&2; exit 2; }
[ -d "$subs" ] || { echo "SUBMISSIONS=$subs is not a folder" >&2; exit 2; }
n=0
for entry in "$subs"/* "$subs"/.[!.]*; do [ -e "$entry" ] && n=$((n + 1)); done
[ $n -gt 0 ] || { echo "SUBMISSIONS=$subs is empty" >&2; exit 2; }
out=$build/grade-all
mkdir -p "$out/slurm"
here=$(pwd)
job=$out/slurm/task.sh
# Each task grades entry number SLURM_ARRAY_TASK_ID (grade-all.sh's ONLY_INDEX).
cat > "$job" <<TASK
#!/bin/sh
cd "$here" || exit 1
export NVCC_FOUND="${NVCC_FOUND:-}" CUDA_ARCH="${CUDA_ARCH:-}" CUDA_HOME="${CUDA_HOME:-}" STAGE="${STAGE:-}"
ONLY_INDEX=\$SLURM_ARRAY_TASK_ID exec sh common/tools/grade-all.sh "$build" "$subs" "$force" $*
TASK
gres=""
[ "$gpu" = 1 ] && gres="--gres=gpu:1"
echo "submitting $n grading tasks to SLURM (one node each${gres:+, one GPU each}) and waiting ..."
failed() { echo "the SLURM job failed or was refused (see $out/slurm/)" >&2; exit 2; }
sbatch --parsable --array=1-$n --exclusive $gres --job-name=workbook-grade \
    --output="$out/slurm/task-%a.out" ${SLURM_ARGS:-} "$job" > "$out/slurm/job.txt" || failed
id=$(cut -d';' -f1 "$out/slurm/job.txt")
# Waited for here rather than by `sbatch --wait`, which looks less and less often (up to every 32 s)
# and so kept a finished array waiting half a minute: while squeue lists a task of it, every 2 s.
errors=0
while :; do
    if tasks=$(squeue -h -j "$id" -o %T 2>/dev/null); then
        [ -n "$tasks" ] || break
        errors=0
    else # the controller busy: ask again, for five minutes at most
        errors=$((errors + 1))
        [ $errors -lt 150 ] || failed
    fi
    sleep 2
done
# Every task's end, from the controller (it keeps a finished job's record for MinJobAge, 300 s by default).
states=$(scontrol -o show job "$id" 2>/dev/null | sed -n 's/.* JobState=\([A-Z_]*\) .*/\1/p' | sort -u | tr '\n' ' ')
[ "$states" = "COMPLETED " ] || failed
echo "SLURM job $(cat "$out/slurm/job.txt") done"
cat "$out"/slurm/task-*.out 2>/dev/null | grep -v '^graded \|^gradebook:' | sed 's/^/  /'
GRADEBOOK_ONLY=1 sh common/tools/grade-all.sh "$build" "$subs" "$force" "$@" | tail -n 1
