#!/bin/sh
# kit.sh - the tarballs and bundles the workbook hands out; what `make handin`, `make dist` and
# `make gradescope` run.
#   kit.sh handin BUILD LAB...     BUILD/handin-<user>.tar.gz: exactly the file each lab's student
#                                  edits (labs/NN-name/<file>), for the labs present
#   kit.sh dist BUILD              BUILD/workbook-kit.tar.gz: the workbook without solutions/ and
#                                  the planted submissions
#   kit.sh gradescope BUILD [LAB...]  BUILD/gradescope-autograder.zip: the kit plus setup.sh and
#                                  run_autograder for Gradescope's Ubuntu image, grading those labs
#                                  (all where none is named) and, with STAGE= in the environment,
#                                  that stage alone (one assignment a stage)
set -u
. "$(dirname "$0")/lib.sh"
what=$1 build=$2
shift 2
mkdir -p "$build"

# The files of the workbook a kit holds: those git tracks (every file but the build folder outside
# a checkout), never solutions/, the planted, honest, textbook and sanitizer-plant submissions
# (instructor-only tests; all but the planted ones pass stages), the helpers several labs' plants share
# (grading/plants/) or the kernel studies behind the references (scripts/studies/: a reference's
# design in all but name).
kit_files() {
    if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then git ls-files
    else find . -type f ! -path './.git/*' ! -path "./$build/*" | sed 's|^\./||'; fi |
        grep -v -e '^solutions/' -e '^grading/[^/]*/planted/' -e '^grading/[^/]*/honest/' \
            -e '^grading/[^/]*/textbook/' -e '^grading/[^/]*/sanitize/' -e '^grading/plants/' \
            -e '^scripts/studies/'
}

case $what in
handin)
    user=$(id -un 2>/dev/null || echo student)
    user=$(printf '%s' "${HANDIN_USER:-$user}" | tr -c 'A-Za-z0-9._-' '_')
    files=""
    for l in "$@"; do
        src=$(lab_source "$build" "$l")
        [ -f "labs/$l/$src" ] && files="$files labs/$l/$src"
    done
    [ -n "$files" ] || { echo "nothing to hand in: no lab files under labs/" >&2; exit 2; }
    out=$build/handin-$user.tar.gz
    tar -czf "$out" $files || exit 2
    echo "handed in ($out):"
    tar -tzf "$out" | sed 's/^/  /' ;;
dist)
    out=$build/workbook-kit.tar.gz
    kit_files | tar -czf "$out" --transform 's|^|workbook/|' -T - || exit 2
    echo "student kit: $out ($(tar -tzf "$out" | wc -l) files, no solutions/)" ;;
gradescope)
    # one of the lab's stages (the tools were built for this)
    [ -z "${STAGE:-}" ] || known_stage "$build" "$1" "$STAGE" || exit 2
    dir=$build/gradescope
    rm -rf "$dir" && mkdir -p "$dir/workbook" || exit 2
    kit_files | tar -cf - -T - | tar -xf - -C "$dir/workbook" || exit 2
    cat > "$dir/setup.sh" <<'SETUP'
#!/bin/sh
# Gradescope runs this once when it builds the autograder image (Ubuntu, as root).
set -e
apt-get update
apt-get install -y make gcc binutils pkg-config check libopenblas-dev
cd /autograder/source/workbook && make tools
SETUP
    { echo '#!/bin/sh'
      echo "# The assignment: \`make gradescope${1:+ LAB=\"$*\"}${STAGE:+ STAGE=$STAGE}\`"
      echo "labs='$*' stage='${STAGE:-}'"
      cat; } > "$dir/run_autograder" <<'RUN'
# Gradescope runs this for every submission: the student's files (any layout: labs/NN-name/<file>,
# NN-name/<file>, or a handin tarball) are graded, and /autograder/results/results.json written.
# (AUTOGRADER_ROOT stands in for /autograder in the workbook's own test of this script.)
root=${AUTOGRADER_ROOT:-/autograder}
cd "$root/source/workbook" || exit 1
subs=$root/tmp-submissions
rm -rf "$subs" && mkdir -p "$subs" "$root/results"
tarball=$(ls "$root"/submission/*.tar.gz 2>/dev/null | head -n 1)
if [ -n "$tarball" ]; then cp "$tarball" "$subs/student.tar.gz"
else cp -R "$root/submission" "$subs/student"; fi
make --no-print-directory grade-all SUBMISSIONS="$subs" FORCE=1 ${labs:+LAB="$labs"} ${stage:+STAGE="$stage"}
res=build/grade-all/students/student/results
files=$(ls "$res"/[0-9][0-9]-*.json 2>/dev/null)
if [ -n "$files" ]; then build/common/gradebook gradescope "$root/results/results.json" $files
else printf '{"score": 0, "output": "%s"}\n' "$(cat "$res/status.txt" 2>/dev/null | tr -d '"\\')" > "$root/results/results.json"; fi
RUN
    chmod +x "$dir/setup.sh" "$dir/run_autograder"
    out=$build/gradescope-autograder.zip
    rm -f "$out"
    (cd "$dir" && python3 -c 'import os, sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    for root, dirs, files in os.walk("."):
        for f in files:
            p = os.path.join(root, f)
            z.write(p, os.path.relpath(p, "."))' "$(cd .. && pwd)/$(basename "$out")") || exit 2
    echo "Gradescope autograder: $out (setup.sh, run_autograder, the workbook without solutions/)" ;;
*) echo "usage: kit.sh handin|dist|gradescope BUILD [LAB...]" >&2; exit 2 ;;
esac
