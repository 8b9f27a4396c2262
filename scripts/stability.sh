#!/bin/sh
# stability.sh - grade the same work N times with fresh seeds and report, per stage, how often it
# passed and the spread of its measured fraction of the ceiling (mean, coefficient of variation).
# usage: scripts/stability.sh LAB N [WORK]     e.g. scripts/stability.sh 01 20 solutions
#        scripts/stability.sh --table FILE...   the same table over results files graded elsewhere
#                                               (a study split over several GPUs: their LIVE_DIRs)
# STAGE=name grades that stage alone. Logs and results: build/stability/<lab>/run-<i>/ (and with
# LIVE_DIR=dir each grading's results file copied there as it ends).
set -u
# The table from results files: a line a stage, how many of its gradings passed, the mean fraction
# of the ceiling and its coefficient of variation.
table() {
    cat "$@" | sed -n 's/.*"stage": "\([^"]*\)","check": "speed","reason": "\([a-z-]*\)".*"fraction": \([0-9.e+-]*\).*/\1 \2 \3/p' |
        awk -v only="${STAGE:-}" '
            only != "" && $1 != only { next }
            { if (!($1 in seen)) { order[++k] = $1; seen[$1] = 1 }
              runs[$1]++; pass[$1] += ($2 == "ok"); sum[$1] += $3; sq[$1] += $3 * $3 }
            END {
                printf "%-12s %6s %10s %8s\n", "stage", "passed", "mean", "CV"
                for (i = 1; i <= k; i++) {
                    s = order[i]; m = sum[s] / runs[s]; v = sq[s] / runs[s] - m * m; if (v < 0) v = 0
                    printf "%-12s %3d/%-3d %9.1f%% %7.1f%%\n", s, pass[s], runs[s], 100 * m, (m > 0 ? 100 * sqrt(v) / m : 0)
                }
            }'
}
if [ "${1:-}" = --table ]; then
    shift
    table "$@"
    exit
fi
. common/tools/lib.sh
lab=$1 n=$2 work=${3:-solutions}
full=$(ls -d grading/$lab*/ 2>/dev/null | head -n 1 | sed 's|grading/||; s|/$||')
[ -n "$full" ] || { echo "unknown lab $lab" >&2; exit 2; }
out=build/stability/$full
rm -rf "$out" && mkdir -p "$out"
make --no-print-directory -s tools >/dev/null || exit 2
for i in $(seq 1 "$n"); do
    mkdir -p "$out/run-$i"
    run_grader build "$full" "$work" "$out/run-$i" ${STAGE:+--stage "$STAGE"} > "$out/run-$i/log.txt" 2>&1
    # LIVE_DIR: each grading's results copied out as it ends (a GPU machine taken back mid-study keeps them)
    if [ -n "${LIVE_DIR:-}" ]; then mkdir -p "$LIVE_DIR" && cp "$out/run-$i/$full.json" "$LIVE_DIR/$full-$(date -u +%H%M%S)-$i.json" 2>/dev/null; fi
done
table "$out"/run-*/"$full".json
