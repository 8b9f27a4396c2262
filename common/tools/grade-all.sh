#!/bin/sh
# grade-all.sh - grade a folder of submissions, one at a time; what `make grade-all` runs.
# usage: common/tools/grade-all.sh BUILD SUBMISSIONS FORCE LABNAME...
#
# Each entry of SUBMISSIONS is a student's handin tarball (.tar.gz, .tgz or .tar) or a folder
# shaped like labs/ (or holding labs/). Each is unpacked and checked in its own scratch folder,
# BUILD/grade-all/students/<name>/, graded lab by lab, and marked done; a second run skips what
# is done (FORCE=1 regrades). A broken entry gets a status line and the others go on. At the end
# BUILD/gradebook.csv has one row per student. Submissions are graded one after another, so two
# GPU timing jobs never share a GPU. STAGE=name (one lab) grades that stage alone: an assignment
# that covers the first stages, one at a time; a student graded for another stage before is
# graded again.
set -u
. "$(dirname "$0")/lib.sh"
build=$1 subs=$2 force=$3
shift 3
out=$build/grade-all
if [ ! -d "$subs" ]; then
    echo "SUBMISSIONS=$subs is not a folder (it should hold one tarball or folder per student)" >&2
    exit 2
fi
mkdir -p "$out/students" || exit 2
if [ -n "${STAGE:-}" ]; then
    [ $# = 1 ] || { echo "STAGE=$STAGE needs one lab: LAB=NN STAGE=name (make list shows the stages)" >&2; exit 2; }
    known_stage "$build" "$1" "$STAGE" || exit 2
fi
MAX_BYTES=$((50 * 1024 * 1024)) MAX_FILE=$((1024 * 1024)) MAX_ENTRIES=2000


# A tarball: only plain files and folders, no absolute paths, no "..", not too big or too many.
unpack_tar() { # file dest -> 0, or prints why not
    size=$(wc -c < "$1")
    [ "$size" -le $MAX_BYTES ] || { echo "the tarball is larger than $MAX_BYTES bytes"; return 1; }
    list=$(tar -tvf "$1" 2>/dev/null) || { echo "not a readable tarball (.tar.gz, .tgz or .tar)"; return 1; }
    [ "$(printf '%s\n' "$list" | wc -l)" -le $MAX_ENTRIES ] || { echo "the tarball has too many entries"; return 1; }
    bad=$(printf '%s\n' "$list" | grep -v '^[-d]' | head -n 1)
    [ -z "$bad" ] || { echo "the tarball holds something that is not a plain file or folder (a link or a device)"; return 1; }
    names=$(tar -tf "$1") || return 1
    if printf '%s\n' "$names" | grep -q -e '^/' -e '\(^\|/\)\.\.\(/\|$\)'; then
        echo "the tarball has an absolute path or '..' in it"
        return 1
    fi
    tar -xf "$1" -C "$2" --no-same-owner --no-same-permissions 2>/dev/null || { echo "the tarball could not be unpacked"; return 1; }
}

# A folder: copied without links, devices or anything else but plain files and folders.
copy_dir() { # src dest
    if [ -n "$(find "$1" ! -type f ! -type d | head -n 1)" ]; then
        echo "the folder holds something that is not a plain file or folder (a link or a device)"
        return 1
    fi
    (cd "$1" && tar -cf - .) | tar -xf - -C "$2" --no-same-owner --no-same-permissions
}

# ONLY_INDEX=i grades only the i-th entry (a SLURM array task, common/tools/grade-slurm.sh);
# GRADEBOOK_ONLY=1 grades nothing and only writes the gradebook.
n=0 done_here=0
for entry in "$subs"/* "$subs"/.[!.]*; do
    [ -e "$entry" ] || continue
    n=$((n + 1))
    [ -z "${GRADEBOOK_ONLY:-}" ] || continue
    [ -z "${ONLY_INDEX:-}" ] || [ "$ONLY_INDEX" = $n ] || continue
    base=$(basename "$entry")
    base=${base%.tar.gz}; base=${base%.tgz}; base=${base%.tar}
    base=${base#handin-}
    name=$(printf '%s' "$base" | tr -c 'A-Za-z0-9._-' '_' | cut -c1-64)
    case $name in ''|.*) name="submission-$n$name" ;; esac
    dir=$out/students/$name
    if [ -f "$dir/done" ] && [ -z "$force" ] && [ "$(cat "$dir/done")" = "${STAGE:-}" ]; then continue; fi
    rm -rf "$dir"
    mkdir -p "$dir/unpacked" "$dir/work" "$dir/results"
    printf '%s\n' "$entry" > "$dir/source.txt"
    status=graded
    if [ -d "$entry" ]; then why=$(copy_dir "$entry" "$dir/unpacked") || status="rejected: $why"
    elif [ -f "$entry" ]; then why=$(unpack_tar "$entry" "$dir/unpacked") || status="rejected: $why"
    else status="rejected: not a file or folder"; fi
    # The labs folder: unpacked/labs, unpacked itself, or one folder down.
    root=$dir/unpacked
    [ -d "$root/labs" ] && root=$root/labs
    if ! ls -d "$root"/[0-9][0-9]-*/ >/dev/null 2>&1; then
        for d in "$dir"/unpacked/*/; do
            [ -d "$d/labs" ] && root=${d}labs && break
            ls -d "$d"[0-9][0-9]-*/ >/dev/null 2>&1 && root=${d%/} && break
        done
    fi
    found=0
    if [ "$status" = graded ]; then
        for l in "$@"; do
            src=$(lab_source "$build" "$l")
            f=$root/$l/$src
            [ -f "$f" ] || continue
            if [ "$(wc -c < "$f")" -gt $MAX_FILE ]; then status="rejected: $l/$src is larger than $MAX_FILE bytes"; break; fi
            mkdir -p "$dir/work/$l" && cp "$f" "$dir/work/$l/$src" && found=$((found + 1))
        done
        [ $found -gt 0 ] || [ "$status" != graded ] ||
            status="rejected: no lab files found (expected labs/NN-name/<file>, e.g. labs/01-cpu-matvec/matvec.c)"
    fi
    if [ "$status" = graded ]; then
        for l in "$@"; do
            [ -d "$dir/work/$l" ] || continue
            run_grader "$build" "$l" "$dir/work" "$dir/results" ${STAGE:+--stage "$STAGE"} > "$dir/$l.log" 2>&1
            rc=$?
            [ $rc -le 1 ] || status="grader stopped on $l (status $rc; see $dir/$l.log)"
        done
    fi
    printf '%s\n' "$status" > "$dir/results/status.txt"
    printf '%s\n' "${STAGE:-}" > "$dir/done" # the stage graded (empty: all); another STAGE regrades
    done_here=$((done_here + 1))
    echo "$name: $status"
done
[ -z "${ONLY_INDEX:-}" ] || exit 0 # an array task: the gradebook is written once all are done
# One row per student folder (names were made safe above), read from its results/.
"$build/common/gradebook" csv "$build/gradebook.csv" $(ls -d "$out"/students/*/ 2>/dev/null | sort) || exit 2
echo "graded $done_here of $n submissions now (the rest were done before; FORCE=1 regrades)"
echo "gradebook: $build/gradebook.csv; each student's results: $out/students/<name>/results/"
