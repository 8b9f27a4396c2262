#!/bin/sh
# audit-gpu.sh - the build audit of the CUDA labs alone, on a machine with or without a GPU: every
# reference (solutions/) and honest variant (grading/*/honest/) must build and pass the audit, and
# every planted file that expects "audit" must be refused by it. Without a GPU the grader still
# builds (and audits) the code and reports the stages skipped; that is all this reads.
# usage: tests/audit-gpu.sh [BUILD [LAB...]]   (after `make tools`; default: build, labs 04-07)
set -u
. "$(dirname "$0")/../common/tools/lib.sh"
build=${1:-build}
[ $# -gt 0 ] && shift
labs=${*:-$(cd grading && ls -d 0[4-7]-*)}
passed=0 failed=0
# check FILE LAB WANT: grade FILE as LAB's submission; WANT is "pass" (no stage refused by the
# build) or "audit" (every stage refused by the audit).
check() {
    f=$1 lab=$2 want=$3
    name=$(basename "$f"); name=${name%.*}
    tag=audit-$lab-$(basename "$(dirname "$f")")-$name work=$build/tmp/audit-$lab-$name
    src=$(lab_source "$build" "$lab")
    rm -rf "$work" && mkdir -p "$work/$lab" && cp "$f" "$work/$lab/$src" || exit 2
    run_grader "$build" "$lab" "$work" "$build/tmp/results/$tag" --timeout 60 > "$build/tmp/$tag.log" 2>&1
    reasons=$(grep -o '"reason": "[a-z-]*"' "$build/tmp/results/$tag/$lab.json" 2>/dev/null | sort -u | tr '\n' ' ')
    # no toolkit (or no probe built): nothing was compiled, so nothing was audited either
    if grep -q 'no CUDA toolkit' "$build/tmp/$tag.log"; then
        reasons="skipped: no CUDA toolkit (nothing built; run make tools with nvcc on PATH)"
        want=none
    fi
    case $want in
        none) ok= ;;
        pass) ok=$(printf '%s' "$reasons" | grep -Eq '"(audit|build)"' || echo yes) ;;
        audit) ok=$(printf '%s' "$reasons" | grep -q '"audit"' && ! printf '%s' "$reasons" | grep -Eq '"(ok|skipped|build)"' && echo yes) ;;
    esac
    if [ "$ok" = yes ]; then
        passed=$((passed + 1)); echo "  ok   $lab $f ($want)"
    else
        failed=$((failed + 1)); echo "  FAIL $lab $f: wanted $want, got $reasons (see $build/tmp/$tag.log)"
        grep -m 2 -E '^ *(audit|build|does not)' "$build/tmp/$tag.log" | sed 's/^ */      /'
    fi
}
for lab in $labs; do
    for f in solutions/$lab/*.cu grading/$lab/honest/*.cu; do [ -f "$f" ] && check "$f" "$lab" pass; done
    for f in grading/$lab/planted/*.cu; do
        head -n 1 "$f" | grep -q '^/\* expect: audit' && check "$f" "$lab" audit
    done
done
echo "$passed passed, $failed failed"
[ $failed = 0 ]
