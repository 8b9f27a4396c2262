#!/bin/sh
# grade-labs.sh - grade several labs in turn; what `make grade` runs.
# usage: common/tools/grade-labs.sh BUILD WORK LAB SEED LABNAME...
# Exit 0 when every stage of every lab passes, 1 when any fails, 2 for a usage error.
# One lab's trouble (even its grader stopping) never keeps the others from being graded.
set -u
. "$(dirname "$0")/lib.sh"
build=$1 work=$2 lab=$3 seed=$4
shift 4
known=$(ls -d grading/[0-9][0-9]-*/ 2>/dev/null | sed 's|grading/||; s|/$||' | tr '\n' ' ')
if [ $# = 0 ]; then
    if [ -n "$lab" ]; then echo "unknown lab '$lab'. The labs are: $known(use LAB=NN or the full name)"
    else echo "no labs found under grading/"; fi
    exit 2
fi
if [ -n "${STAGE:-}" ] && [ $# != 1 ]; then
    echo "STAGE=$STAGE needs one lab: LAB=NN STAGE=name (make list shows the stages)"
    exit 2
fi
if [ ! -d "$work" ]; then
    echo "WORK=$work is not a folder; it should be shaped like labs/ (one folder per lab)"
    exit 2
fi
results=${RESULTS_DIR:-$(results_dir "$build" "$work")} # RESULTS_DIR: the kit's make check
[ "${SANITIZE:-0}" = 0 ] || results="$results/sanitize" # never over a graded result

status=0 summary=""
for l in "$@"; do
    if [ -z "$lab" ] && [ ! -d "$work/$l" ]; then
        summary="$summary
  $l: not present in $work/ (skipped)"
        continue
    fi
    run_grader "$build" "$l" "$work" "$results" ${seed:+--seed "$seed"} ${STAGE:+--stage "$STAGE"}
    rc=$?
    case $rc in
        0) word=pass
           grep -q '"reason": "skipped"' "$results/$l.json" 2>/dev/null && word="skipped (see its table)" ;;
        1) word="fail"; [ $status = 0 ] && status=1 ;;
        *) word="grader stopped (status $rc)"; status=2 ;;
    esac
    # its roofline chart beside the JSON; never a reason for grading to fail
    [ "${SANITIZE:-0}" = 0 ] && [ -f "$results/$l.json" ] && sh "$(dirname "$0")/roofline.sh" "$build" "$work" "$l" "$l"
    summary="$summary
  $l: $word"
done
if [ $# -gt 1 ]; then
    echo
    echo "summary ($work):$summary"
    echo "results: $results/*.json (roofline charts: *.svg)"
fi
exit $status
