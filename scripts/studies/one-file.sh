#!/bin/sh
# one-file.sh - several submissions of a lab made one, each stage's function taken from the file
# named for it, so that one grading (one compile, one probe) studies them all: a GPU's minutes
# are scarce, and a lab's compile is a third of its grading.
# usage: scripts/studies/one-file.sh LAB OUT STAGE=FILE...
#   e.g. scripts/studies/one-file.sh 09 build/tmp/tb.cu three_pass=grading/09-softmax/textbook/block_per_row.cu ...
# Each file goes into a namespace of its own (its kernels keep their names there), its own
# includes of the lab's folder inlined, system headers and the lab's header put first; its entry
# points become static functions, and the stage's entry point calls the one of its file. A stage
# not named launches nothing. The kernels are the files' own, compiled with the same flags, so
# each stage times what its file alone would (graded alone, a file's other stages launch nothing).
set -u
[ $# -ge 3 ] || { echo "usage: scripts/studies/one-file.sh LAB OUT STAGE=FILE..." >&2; exit 2; }
lab=$(ls -d grading/$1-*/ 2>/dev/null | head -n 1 | sed 's|grading/||; s|/$||')
[ -n "$lab" ] || { echo "one-file.sh: no lab $1" >&2; exit 2; }
out=$2; shift 2
header=$(ls grading/$lab/*.h | head -n 1)
mkdir -p "$(dirname "$out")"
# every file with its local includes (other than the lab's header) inlined, once each
expand() {
    awk -v dir="grading/$lab" -v hdr="$(basename "$header")" '
        function emit(f,   line, inc) {
            if (f in done) return; done[f] = 1
            while ((getline line < f) > 0) {
                if (line ~ /^#include "/) {
                    inc = line; sub(/^#include "/, "", inc); sub(/".*/, "", inc)
                    if (inc != hdr) { emit(dir "/" inc); continue }
                    continue
                }
                if (line ~ /^#include </ || line ~ /^#pragma once/) continue
                print line
            }
            close(f)
        }
        { emit($0) }' <<END
$1
END
}
{
    echo "/* made by scripts/studies/one-file.sh: $* */"
    echo "#pragma nv_diag_suppress 177 // the files' other entry points, unused"
    echo "#include \"$(basename "$header")\""
    for a in "$@"; do grep -h '^#include <' "${a#*=}" $(sed -n 's|^#include "\([^"]*/[^"]*\)".*|grading/'"$lab"'/\1|p' "${a#*=}"); done | sort -u
    i=0
    for a in "$@"; do
        i=$((i + 1)) f=${a#*=}
        [ -f "$f" ] || { echo "one-file.sh: no file $f" >&2; exit 2; }
        echo "namespace f$i { // $f"
        expand "$f" | sed 's/^extern "C" \(void [a-z_0-9]*(\)/static \1/'
        echo "}"
    done
    # each stage's entry point (its prototype in the lab's header) calls its file's
    i=0
    for a in "$@"; do
        i=$((i + 1)) st=${a%%=*}
        fn=$(build/grading/$lab/grade --list --lab-dir grading/$lab --build build | awk -v s="$st" 'NR > 1 && $2 == s { print $3 }')
        [ -n "$fn" ] || { echo "one-file.sh: $lab has no stage $st" >&2; exit 2; }
        proto=$(grep -h "^[a-z].* $fn(" "$header" | head -n 1 | sed 's/;.*//')
        args=$(echo "$proto" | sed 's/^[^(]*(//; s/)$//' | tr ',' '\n' | sed 's/.*[ *]\([a-zA-Z_0-9]*\)$/\1/' | paste -sd, - | sed 's/,/, /g')
        echo "extern \"C\" $proto { f$i::$fn($args); }"
        echo "$fn" >> "$out.fns"
    done
    # the stages not named: nothing
    build/grading/$lab/grade --list --lab-dir grading/$lab --build build | awk 'NR > 1 { print $3 }' | while read -r fn; do
        grep -qx "$fn" "$out.fns" || { proto=$(grep -h "^[a-z].* $fn(" "$header" | head -n 1 | sed 's/;.*//'); echo "extern \"C\" $proto {}"; }
    done
    rm -f "$out.fns"
} > "$out"
