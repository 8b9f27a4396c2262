#!/bin/sh
# roofline.sh - each lab's roofline chart, drawn by gnuplot from its results file: what
# `make roofline` runs, and `make grade` after grading each lab.
# usage: common/tools/roofline.sh BUILD WORK LAB LABNAME...   (LAB as given to make: empty for every lab)
# For each lab, BUILD/results[/<tree>]/<lab>.json (where grading WORK wrote it) becomes <lab>.svg
# beside it, with the reference's points in grey when solutions/<lab> is present and was graded
# (`make grade WORK=solutions` writes BUILD/results/solutions/<lab>.json). The script itself comes
# from BUILD/common/roofline (common/tools/roofline.c).
# Without gnuplot it says which Debian package draws the charts and exits 0: a chart is never a
# reason for grading to fail. Exit 0, or 1 when a lab asked for has no results file (with no LAB,
# when none has) or no chart was drawn, 2 for an unknown lab.
set -u
. "$(dirname "$0")/lib.sh"
build=$1 work=$2 lab=$3
shift 3
if [ $# = 0 ]; then
    echo "roofline: unknown lab '$lab' (use LAB=NN or the full name; make list shows them)"
    exit 2
fi
if ! command -v gnuplot >/dev/null 2>&1; then
    echo "roofline: no chart drawn: gnuplot is not installed (Debian package gnuplot-nox: apt-get install -y gnuplot-nox)"
    exit 0
fi
results=${RESULTS_DIR:-$(results_dir "$build" "$work")} # RESULTS_DIR: as grade-labs.sh was given
status=0 drawn=0
for l in "$@"; do
    json=$results/$l.json svg=$results/$l.svg ref=$build/results/solutions/$l.json
    [ -z "$lab" ] && [ ! -f "$json" ] && continue # every lab: those graded
    if [ ! -f "$json" ]; then
        echo "roofline: no results for $l in $results/: grade it first (make grade LAB=$l WORK=$work)"
        status=1
        continue
    fi
    { [ -d "solutions/$l" ] && [ -f "$ref" ] && [ "$ref" != "$json" ]; } || ref=""
    rm -f "$svg" # a chart of an earlier run would mislead
    "$build/common/roofline" "$svg" "$json" $ref > "$svg.gp" 2> "$svg.log"
    rc=$?
    if [ $rc = 0 ] && gnuplot "$svg.gp" 2>> "$svg.log" && [ -s "$svg" ]; then
        echo "roofline: $svg"
        drawn=$((drawn + 1))
        rm -f "$svg.gp" "$svg.log"
    elif [ $rc = 3 ]; then # nothing to draw: the generator said why
        sed 's/^/roofline: /' "$svg.log"
        rm -f "$svg.gp" "$svg.log"
        status=1
    else
        echo "roofline: no chart for $l (see $svg.log and $svg.gp)"
        status=1
    fi
done
if [ -z "$lab" ] && [ $drawn = 0 ] && [ $status = 0 ]; then
    echo "roofline: no results in $results/: grade first (make grade WORK=$work)"
    status=1
fi
exit $status
