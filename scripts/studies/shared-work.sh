#!/bin/sh
# shared-work.sh - lab 03's probe of shared work (common/scorer/judge.c, judge_shared), studied:
# each file graded N times, quiet and beside a neighbour that keeps one CPU busy, and for every
# stage the probe's CPU time over a timed call's (results JSON: shared_cpu, the higher of its two
# calls) and the verdict. One line per grading and stage, then the range per file and stage.
#   usage: sh scripts/studies/shared-work.sh N FILE...    (from the repository root; FILE a parallel.c)
# N gradings quiet, and NEIGHBOUR (default N) beside the neighbour; STAGE=name grades that stage
# alone (a textbook file's). Rows are added to
# build/studies/shared-work/rows.txt (FRESH=1 starts it again). Run with nothing else at work on
# the machine but what it starts.
set -u
n=$1; shift
out=build/studies/shared-work; mkdir -p "$out"
rows=$out/rows.txt; [ "${FRESH:-0}" = 1 ] && : > "$rows"
for f in "$@"; do
    name=$(basename "$f" .c)
    for mode in quiet neighbour; do
        work=$out/$name-$mode; mkdir -p "$work/03-openmp"; cp "$f" "$work/03-openmp/parallel.c"
        i=0; count=$n; [ $mode = neighbour ] && count=${NEIGHBOUR:-$n}
        while [ $i -lt "$count" ]; do
            i=$((i + 1))
            hog=
            if [ $mode = neighbour ]; then sh -c 'while :; do :; done' & hog=$!; fi
            make -s grade LAB=03 WORK="$work" STAGE="${STAGE:-}" > "$work/log-$i.txt" 2>&1
            [ -n "$hog" ] && kill "$hog"
            python3 - "$name" "$mode" "$i" >> "$rows" <<'PY' 2>/dev/null || echo "$name $mode $i - - no-results" >> "$rows"
import json, sys, glob
name, mode, i = sys.argv[1:4]
j = json.load(open(glob.glob("build/results/*%s-%s/03-openmp.json" % (name, mode))[0]))
for t in j["tests"]:
    e = t.get("extra_data", {})
    if e.get("check") == "speed":
        print(name, mode, i, e["stage"], e.get("shared_cpu", "-"), e.get("reason", "?"))
PY
        done
    done
done
echo "file mode stage: probe CPU over a timed call's, least-most (gradings probed of all)"
awk '$5 != "-" { k = $1 " " $2 " " $4; if (!(k in lo) || $5 < lo[k]) lo[k] = $5; if ($5 > hi[k]) hi[k] = $5; c[k]++ }
     { t[$1 " " $2 " " $4]++ }
     END { for (k in t) printf "%s: %s-%s (%d of %d)\n", k, (k in lo) ? lo[k] : "-", (k in hi) ? hi[k] : "-", c[k], t[k] }' "$rows" | sort
