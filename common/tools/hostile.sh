#!/bin/sh
# hostile.sh - grade planted broken and hostile submissions and check each is rejected for the
# reason it names; what `make hostile` runs (and `make check`, one file at a time).
# usage: common/tools/hostile.sh BUILD PLANTED_FILE...
#
# A planted file grading/NN-name/planted/<name>.c (or .cu) says on its first line
#   /* expect: <reason>                      every stage must fail with <reason>, or
#   /* expect: <reason> in <stage>[,<stage>] those stages must; <reason> may be two or more joined
#                                            by '|' (too-slow|no-speedup): any one of them;
# and lists on its second line, " * threats: 2, 4", the rows of ../shared/GRADER_THREATS.md it
# exercises ("-": none, a plain bug); the report ends with the rows each lab's plants cover.
# A third line " * diagnosis: <words>" names what the grader's report must say about the cause
# (its failure diagnosis: "a race", "NaN or Inf", "every element is zero" ...).
# "speed" reasons (too-slow, no-speedup, not-judged) are read from the speed check, others from
# correctness; a plant that must be not judged must be UNJUDGED (its own figures), never BUSY (a busy
# machine: no plant's verdict).
# "technique" (a stage without the technique it teaches, technique.h) is read from the speed check.
# GPU plants on a machine without a GPU are reported skipped unless caught by the audit or the
# technique check (both read the build), and
# no-speedup plants where the grader has only one core.
# Exit 0 when every case tried was rejected as expected.
set -u
. "$(dirname "$0")/lib.sh"
build=$1
shift
tried=0 rejected=0 skipped=0 wrong=0 rows=""
# said_busy LOG: the report's table has a stage judged BUSY (the machine's verdict, never a plant's).
said_busy() { grep -q '^  [a-z0-9_]*  *[0-9][0-9]*/[0-9].* BUSY$' "$1"; }
# No NVIDIA device files: no GPU plant can run here, so one that must fail when run is not built
# either (its build would prove nothing); one the audit or the technique check must catch still is.
[ -e /dev/nvidiactl ] && gpu_here=1 || gpu_here=0
for f in "$@"; do
    lab=$(printf '%s' "$f" | sed -n 's|^grading/\([^/]*\)/planted/.*|\1|p')
    name=$(basename "$f"); name=${name%.*}
    line=$(head -n 1 "$f")
    expect=$(plant_expect "$f")
    only=$(printf '%s' "$line" | sed -n 's@^/\* expect: [a-z|-]* in \([a-z0-9_,]*\).*@\1@p')
    if [ -z "$lab" ] || [ -z "$expect" ]; then
        echo "$f: not a planted submission (grading/NN-name/planted/<name> with an 'expect:' first line)"
        wrong=$((wrong + 1)); continue
    fi
    for r in $(sed -n '2s/^ \* threats: \([-0-9, ]*\).*/\1/p' "$f" | tr ',' ' '); do
        [ "$r" = - ] || rows="$rows$lab $r
"
    done
    case $f:$gpu_here:$expect in
        *.cu:0:audit|*.cu:0:build|*.cu:0:technique) ;;
        *.cu:0:*) skipped=$((skipped + 1)); echo "  $lab/$name: skipped: no CUDA device"; continue ;;
    esac
    grader=$build/grading/$lab/grade
    src=$(lab_source "$build" "$lab")
    stages=$(lab_stages "$build" "$lab")
    tag=planted-$lab-$name work=$build/tmp/$tag
    rm -rf "$work" && mkdir -p "$work/$lab" && cp "$f" "$work/$lab/$src" || exit 2
    # A hang is told in 3 s. A plant judged on speed gets 40 s a call: a stage-skip's call runs the
    # earlier stage's code at the judged shape, which grows with the cache the machine's calibration
    # found usable (lab 02's i-k-j at 256 x 8192 x 8192, where one thread read 128 MiB fast on the
    # 260 MiB VM: 13 s a call; at 10 s it timed out, not too slow, 2026-11-28).
    case $f:$expect in *.cu:*) timeout=60 ;; *:*too-slow*|*:*no-speedup*|*:*not-judged*) timeout=40 ;; *) timeout=3 ;; esac
    # A plant aimed at one stage is graded on that stage alone (the others would only cost time).
    case $only in ''|*,*) one= ;; *) one=$only ;; esac
    # A plant judged on speed can't be told from honest work while a neighbour holds a core: the
    # grader says BUSY (a plant that must be UNJUDGED, threads kept busy and no faster, shows no
    # speedup then; one that must be too slow loses CPU time it would be given back). BUSY is the
    # machine's verdict, never a plant's: it is graded again, twice at most, and skipped (said, never
    # counted as caught) if the machine stays busy.
    case "|$expect|" in *"|not-judged|"*|*"|too-slow|"*|*"|no-speedup|"*) on_speed=1 ;; *) on_speed=0 ;; esac
    for attempt in 1 2 3; do
        run_grader "$build" "$lab" "$work" "$build/tmp/results/$tag" --timeout $timeout ${one:+--stage "$one"} \
            > "$build/tmp/$tag.log" 2>&1
        rc=$?
        [ $on_speed = 1 ] && said_busy "$build/tmp/$tag.log" || break
        sleep 2
    done
    doc=$build/tmp/results/$tag/$lab.json
    case $expect in *too-slow*|*no-speedup*|*not-judged*|technique) check=speed ;; *) check=correctness ;; esac
    verdict=rejected why="" skip="no CUDA device"
    # With one core, threads take turns: no speedup to measure, and races rarely show.
    if grep -q '"cores": 1[,}]' "$doc" 2>/dev/null && plant_needs_cores "$f"; then
        verdict=skipped skip="needs 2 or more cores (the grader has 1 here)"
    elif [ $on_speed = 1 ] && said_busy "$build/tmp/$tag.log"; then
        verdict=skipped skip="the machine was busy in 3 gradings (BUSY): judging it on speed needs a quieter machine"
    fi
    for st in $stages; do
        [ $verdict = skipped ] && break
        [ -z "$only" ] || printf ',%s,' "$only" | grep -q ",$st," || continue
        got=$(grep -o "{\"name\": \"$st: $check\".*" "$doc" 2>/dev/null | sed -n 's/.*"reason": "\([a-z-]*\)".*/\1/p' | head -n 1)
        if [ "$got" = skipped ] && [ "$expect" != audit ]; then verdict=skipped; break; fi
        case "|$expect|" in *"|${got:-none}|"*) ;; *) verdict=missed; why="$why $st:${got:-none}"; continue ;; esac
        # Not judged is two verdicts: UNJUDGED (the code's own figures) or BUSY (the machine's), and a
        # busy machine is never the verdict a plant is caught by.
        if [ "$got" = not-judged ]; then
            word=$(sed -n "s/^  $st  *[0-9][0-9]*\/[0-9].* \([A-Z][A-Z]*\)\$/\1/p" "$build/tmp/$tag.log" | head -n 1)
            [ "$word" = UNJUDGED ] || { verdict=missed; why="$why $st:${word:-none} (not UNJUDGED)"; }
        fi
    done
    [ $rc = 1 ] || [ $verdict = skipped ] || { verdict=missed; why="$why (grader exit $rc)"; }
    said=$(sed -n '3s/^ \* diagnosis: \(.*\)/\1/p' "$f")
    if [ $verdict = rejected ] && [ -n "$said" ] && ! grep -qF -- "$said" "$build/tmp/$tag.log"; then
        verdict=missed why="$why (the report does not say \"$said\")"
    fi
    case $verdict in
        rejected) tried=$((tried + 1)); rejected=$((rejected + 1)); echo "  $lab/$name: rejected ($expect)" ;;
        skipped) skipped=$((skipped + 1)); echo "  $lab/$name: skipped: $skip" ;;
        *) tried=$((tried + 1)); echo "  $lab/$name: NOT rejected as expected ($expect):$why; see $build/tmp/$tag.log"
           # the grader's own words, so a log left on another machine is not needed to see why
           grep -m 3 -E '^ *(audit|build|CUDA error|the assembler)' "$build/tmp/$tag.log" | sed 's/^ */      /' ;;
    esac
done
if [ $# -gt 1 ]; then
    echo "rows of GRADER_THREATS.md the plants exercise:"
    printf '%s' "$rows" | sort -k1,1 -k2,2n -u |
        awk '$1 != lab { if (lab) print line; lab = $1; line = "  " $1 ":" } { line = line " " $2 } END { if (lab) print line }'
fi
[ $skipped = 0 ] && note="" || note=", $skipped skipped (no GPU, or one core, here)"
echo "$tried cases tried, $rejected rejected as expected$note"
[ $rejected = $tried ] && [ $wrong = 0 ]
