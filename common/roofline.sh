#!/bin/sh
# roofline.sh - each lab's roofline chart, drawn by gnuplot from its results file: what
# `make roofline` runs, and `make grade` after grading each lab.
# usage: common/roofline.sh BUILD WORK LAB...
# For each lab, BUILD/results[/<tree>]/<lab>.json (where grading WORK wrote it) becomes <lab>.svg
# beside it, with the reference's points in grey when solutions/<lab> is present and was graded
# (`make grade WORK=solutions` writes BUILD/results/solutions/<lab>.json). The script itself comes
# from BUILD/common/roofline (common/roofline.c).
# Without gnuplot it says which Debian package draws the charts and exits 0: a chart is never a
# reason for grading to fail. Exit 0, or 1 when a lab has no results file or no chart was drawn.
set -u
. "$(dirname "$0")/lib.sh"
build=$1 work=$2
shift 2
if ! command -v gnuplot >/dev/null 2>&1; then
    echo "roofline: no chart drawn: gnuplot is not installed (Debian package gnuplot-nox: apt-get install -y gnuplot-nox)"
    exit 0
fi
results=$(results_dir "$build" "$work")
status=0
for l in "$@"; do
    json=$results/$l.json svg=$results/$l.svg ref=$build/results/solutions/$l.json
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
exit $status
