#!/bin/sh
# handout-paths.sh - every file or folder a handout names is in the student kit (`make dist`).
# usage: common/tools/handout-paths.sh HANDOUT.md...      (run from the repository root)
# Exit 0 when every path named is in the kit, 1 naming each one that is not as file:line, 2 for a
# usage error or when the kit's file list can't be made.
#
# A path is a word (backticked or not, in prose, in code blocks, in quote blocks' include="...")
# that starts with one of the source tree's folders, labs/ solutions/ grading/ common/ docs/
# handouts/ scripts/ tests/, or with planted/ or honest/ (a lab's instructor-only submissions,
# named relative to grading/NN-name/). Paths under build/ and other generated files are not
# looked at. A name ending in / is a folder: in the kit when some file of the kit is under it; a *
# stands for any part of one name (grading/*/thresholds.conf).
#
# The kit's files are those of the tarball `make dist` builds (common/tools/kit.sh, kit_files: the files
# git tracks, without solutions/, grading/*/planted/ and grading/*/honest/), listed afresh here, so
# the two can't disagree.
[ $# -gt 0 ] || { echo "usage: $0 HANDOUT.md..." >&2; exit 2; }
for f; do [ -r "$f" ] || { echo "$f: no such handout" >&2; exit 2; }; done
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
sh "$(dirname "$0")/kit.sh" dist "$tmp" > "$tmp/dist.log" 2>&1 &&
    tar -tzf "$tmp/workbook-kit.tar.gz" | sed -n 's|^workbook/||p' > "$tmp/kit.txt" ||
    { echo "$0: could not list the student kit (common/tools/kit.sh dist):" >&2; cat "$tmp/dist.log" >&2; exit 2; }
awk '
    FNR == NR { kit[$0] = 1; next }
    # Is the path (a file, a folder, or a pattern with *) in the kit?
    function in_kit(p,    re, f) {
        if (p in kit) return 1
        re = p
        gsub(/[.]/, "[.]", re)
        gsub(/[*]/, "[^/]*", re)
        re = "^" re "(/|$)"
        for (f in kit) if (f ~ re) return 1
        return 0
    }
    {
        line = $0
        # A path starts a word: at the start of the line, or after a character that cannot be part of
        # one (so build/common/x and -Igrading/x are not taken for common/x and grading/x).
        while (match(line, /(^|[^A-Za-z0-9_.\/*-])(labs|solutions|grading|common|docs|handouts|scripts|tests|planted|honest)\/[A-Za-z0-9_.\/*-]*/)) {
            path = substr(line, RSTART, RLENGTH)
            line = substr(line, RSTART + RLENGTH)
            sub(/^[^A-Za-z]/, "", path)
            sub(/[.,]+$/, "", path)             # the end of a sentence, not of the name
            sub(/\/+$/, "", path)
            if (path ~ /^(planted|honest)(\/|$)/ || !in_kit(path)) {
                printf "%s:%d: names %s, which is not in the student kit (make dist: the files git tracks, without solutions/, grading/*/planted/ or grading/*/honest/)\n", FILENAME, FNR, path
                bad = 1
            }
        }
    }
    END { exit bad }' "$tmp/kit.txt" "$@"
