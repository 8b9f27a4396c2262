# lib.sh - what the workbook's shell scripts share; they source it: . "$(dirname "$0")/lib.sh"
# Run from the repository root (the Makefile does).

# plant_expect FILE: the reason a planted submission's first line says it must fail with (or
# reasons, "too-slow|no-speedup": any one of them).
plant_expect() { sed -n '1s@^/\* expect: \([a-z|-]*\).*@\1@p' "$1"; }

# plant_needs_cores FILE: true where the plant's verdict holds only while its threads have cores to
# themselves: a speedup it must fail to show, a race (row 22 of the threats, on its second line),
# which seldom shows when threads take turns on a core, or serial work dressed as parallel (row 36),
# which must first earn its speed points for the grader's probe of shared work to catch it.
plant_needs_cores() {
    case $(plant_expect "$1") in *no-speedup*|*not-judged*) return 0 ;; esac
    sed -n 2p "$1" | grep -q 'threats:.*\<\(22\|36\)\>'
}

# plant_alone FILE: true where the plant must be graded with nothing beside it: judged on speed,
# needing its cores (above), or run on a GPU (a .cu plant not caught at its build or audit).
plant_alone() {
    case $(plant_expect "$1") in *too-slow*) return 0 ;; audit|build) return 1 ;; esac
    # a technique plant is built, never run, where there is no GPU (its verdict is the build's)
    case $(plant_expect "$1"):$1 in technique:*.cu) [ -e /dev/nvidiactl ] || return 1 ;; esac
    case $1 in *.cu) return 0 ;; esac
    plant_needs_cores "$1"
}

# lab_stages BUILD LAB: the lab's stage names, one a line, from its grader's --list.
lab_stages() {
    "$1/grading/$2/grade" --list --lab-dir "grading/$2" --build "$1" | awk 'NR > 1 { print $2 }'
}

# known_stage BUILD LAB STAGE: true where LAB has STAGE; otherwise says so, with its stages, on stderr.
known_stage() {
    lab_stages "$1" "$2" | grep -qx -- "$3" && return 0
    echo "lab $2 has no stage '$3'; its stages: $(echo $(lab_stages "$1" "$2"))" >&2
    return 1
}

# lab_source BUILD LAB: the file a lab's student edits, from its grader's --list
# ("01-cpu-matvec: ... (edit matvec.c)").
lab_source() {
    "$1/grading/$2/grade" --list --lab-dir "grading/$2" --build "$1" | sed -n '1s/.*(edit \(.*\))$/\1/p'
}

# run_grader BUILD LAB WORK RESULTS [OPTION...]: grade lab LAB of the tree WORK, the JSON into
# RESULTS, with the CUDA settings the Makefile exports (NVCC_FOUND empty: no toolkit; unset, as
# when a script is run by hand, the nvcc on PATH) and
# SANITIZE (not 0: correctness only, under the sanitizers). Returns
# the grader's status: 0 every stage passes, 1 one fails, 2 it stopped.
run_grader() {
    _b=$1 _l=$2 _w=$3 _r=$4
    shift 4
    "$_b/grading/$_l/grade" --lab-dir "grading/$_l" --work "$_w" --build "$_b" \
        --runner-base "$_b/grading/$_l/runner-base.o" --results "$_r" ${CUDA_ARCH:+--cuda-arch "$CUDA_ARCH"} \
        ${CUDA_HOME:+--cuda-home "$CUDA_HOME"} --nvcc "${NVCC_FOUND-$(command -v nvcc)}" \
        $([ "${SANITIZE:-0}" != 0 ] && echo --sanitize) "$@"
}

# results_dir BUILD WORK: where grading the tree WORK writes its results JSON (and charts):
# BUILD/results for labs/, BUILD/results/<WORK with / and . as _> for any other tree.
results_dir() {
    case "$2" in
        labs|labs/|./labs) echo "$1/results" ;;
        *) echo "$1/results/$(printf '%s' "$2" | tr '/.' '__')" ;;
    esac
}
