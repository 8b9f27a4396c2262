#!/bin/sh
# all.sh - `make emulate` over a GPU lab's own files: its starter must fail cleanly (wrong stages
# named, no crash), its reference must pass, and every planted file whose verdict is about the result
# (expect: wrong, out-of-bounds, input-modified, crash, timeout, and leak where the emulator counts
# what destroy left, lab 05) must fail there too. Planted files
# about speed, technique or the audit (correct code, or code no grader should run) are left out, as
# are those that do not compile as C++ (they call CUDA's libraries or include its headers) and those
# marked "emulate: large" (wrong only past the emulator's sizes: EMU_LARGE=1 runs those, for minutes).
# usage: sh scripts/emu/all.sh [LAB...]      (default: every lab with an emulator checker)
# One line a file, then "N files, M as expected"; exit 0 when every file behaved as expected.
set -u
labs=${*:-$(ls scripts/emu/check*.cpp | sed 's|.*check\([0-9]*\)\.cpp|\1|')}
tried=0 good=0
for l in $labs; do
    d=$(ls -d grading/"$l"-* 2>/dev/null | head -n 1)
    [ -n "$d" ] || { echo "no lab $l"; exit 2; }
    lab=${d#grading/} src=$(basename "$(ls labs/"$lab"/*.cu)")
    for f in labs/"$lab"/"$src" solutions/"$lab"/"$src" "$d"/planted/*.cu; do
        [ -f "$f" ] || continue
        case $f in
            labs/*) want=fail ;;
            solutions/*) want=pass ;;
            *) case $(sed -n '1s|^/\* expect: \([a-z|-]*\).*|\1|p' "$f") in
                   wrong|out-of-bounds|input-modified|crash|timeout|leak|*wrong*) want=fail ;;
                   *) continue ;;
               esac ;;
        esac
        if grep -q "emulate: large" "$f"; then echo "  $f: left out (wrong only past the emulator's sizes)"; continue; fi
        w=build/tmp/emu-all/$lab-$(echo "$f" | cut -d/ -f1)-$(basename "$f" .cu) # labs/, solutions/ or grading/
        rm -rf "$w" && mkdir -p "$w/$lab" && cp "$f" "$w/$lab/$src"
        case $f in */planted/*) quick=1 ;; *) quick=0 ;; esac # a plant: the checker's edge sizes (EMU_QUICK)
        EMU_QUICK=$quick EMU_TIMEOUT=${EMU_TIMEOUT:-60} sh scripts/emu/run.sh "$l" "$w/$lab/$src" > "$w.log" 2>&1
        rc=$?
        if grep -q "error:" "$w.log" && [ "$rc" != 0 ] && ! grep -q "failures" "$w.log"; then
            [ "$want" = pass ] || { echo "  $f: not emulated (does not compile as C++: $(grep -m1 'error:' "$w.log" | cut -c1-80))"; continue; }
        fi
        tried=$((tried + 1))
        said=$(grep -E "failures|did not finish|crashed" "$w.log" | tail -n 1)
        case $want:$rc in
            pass:0|fail:1) good=$((good + 1)); echo "  $f: as expected ($want): $said" ;;
            *) echo "  $f: NOT as expected (want $want, exit $rc): $said; see $w.log" ;;
        esac
    done
done
echo "$tried files, $good as expected"
[ "$tried" = "$good" ]
