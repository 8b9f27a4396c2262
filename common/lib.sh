# lib.sh - what the workbook's shell scripts share; they source it: . "$(dirname "$0")/lib.sh"
# Run from the repository root (the Makefile does).

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
