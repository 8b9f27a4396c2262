#!/bin/sh
# walkthrough.sh - the next step for a learner: the first stage of a lab that does not pass yet
# (by the last `make grade` of WORK), its task and hint as the starter's TODO comment gives them, why it
# failed last time, and the command to grade it. What `make walkthrough LAB=NN` runs.
# usage: common/tools/walkthrough.sh BUILD WORK LAB-NAME [RESULTS.json]
set -u
. "$(dirname "$0")/lib.sh"
build=$1 work=$2 lab=$3
doc=${4:-$(results_dir "$build" "$work")/$lab.json}
short=$(printf '%s' "$lab" | cut -c1-2)
src=$(lab_source "$build" "$lab")
file=$work/$lab/$src
list=$("$build/grading/$lab/grade" --list --lab-dir "grading/$lab" --build "$build") || exit 2
echo "$list" | head -n 1
[ -f "$doc" ] || echo "(not graded yet: the first stage is next)"
# "N name function ...": the first stage whose correctness or speed check did not pass (a stage
# skipped for want of a GPU has not passed either).
next=$(echo "$list" | awk 'NR > 1 { print $1, $2, $3 }' | while read -r n stage fn; do
    ok=$(grep -c "\"name\": \"$stage: [a-z]*\",\"score\": [0-9.e+-]*,\"max_score\": [0-9.e+-]*,\"status\": \"passed\"" "$doc" 2>/dev/null)
    if [ "${ok:-0}" -lt 2 ]; then echo "$n $stage $fn"; break; fi
done)
if [ -z "$next" ]; then
    echo "Every stage passes. Next: the handout's Predictions and Questions (handouts/$lab.md), and"
    echo "  make bench LAB=$short     to see each stage across sizes."
    exit 0
fi
set -- $next
echo
echo "Next: $2, stage $1 of $(($(echo "$list" | wc -l) - 1)) (your function $3 in $file)"
if [ -f "$file" ]; then
    # The TODO comment inside the function, or else the last one above it.
    awk -v fn="$3" '
        index($0, fn "(") && $0 !~ /^[ \t]*(\/\*|\*)/ { found = NR }
        /TODO/ { start = NR; todo = "" }
        start { todo = todo $0 "\n"; if (/\*\//) { start = 0; if (found) { printf "%s", todo; exit } last = todo } }
        found && /^}/ { printf "%s", last; exit }
    ' "$file" | sed 's/^[ \t]*/  /'
fi
if [ -f "$doc" ]; then
    why=$(grep -o "\"name\": \"$2: [a-z]*\",\"score\": [^,]*,\"max_score\": [^,]*,\"status\": \"failed\",\"output\": \"[^\"]*" "$doc" |
          head -n 1 | sed 's/.*"output": "//; s/\\n/\n  /g')
    [ -n "$why" ] && printf 'Last time:\n  %s\n' "$why"
fi
echo "Then:  make grade LAB=$short    (the handout's section on this stage: handouts/$lab.md)"
