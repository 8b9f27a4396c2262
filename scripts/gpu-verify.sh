#!/bin/sh
# gpu-verify.sh - run the GPU parts of the workbook on a machine with an NVIDIA GPU and keep the
# logs: the environment, `make grade` of each GPU lab's reference and starter, `make bench`, and
# `make check` of those labs, and the kernel studies (scripts/studies; STUDIES="conv sgemm" picks;
# binaries already in build/studies are run as they are, else built). LABS="04 06" picks labs (default: every GPU lab). Logs go to $OUT
# (or build/gpu-verify). Steps: env tools grade seccomp bench hostile honest check studies study threshold plants before refs
# sanitize profile charts (env grade bench check by default;
# `check` runs the planted submissions too); `check` also keeps the
# grading logs of each lab's reference from the test suite. Where Check and OpenBLAS are not installed and cannot be, Debian packages of them may
# be put in .deps/ (apt-get download check libsubunit0 libsubunit-dev pkgconf pkgconf-bin
# libpkgconf3 pkg-config libopenblas-dev libopenblas-pthread-dev libopenblas0-pthread
# libgfortran5): they are unpacked under /tmp/deps and used from there.
set -u
export DEPS_INSTALL=no # no network there: report, never try apt-get
out=${OUT:-build/gpu-verify}
mkdir -p "$out"
steps=${*:-env grade bench check}
labs=${LABS:-$(sed -n 's/^GPU_LABS += \([0-9][0-9]\)-.*/\1/p' grading/*/lab.mk | tr '\n' ' ')}
if [ -d .deps ] && ls .deps/*.deb >/dev/null 2>&1; then
    for f in .deps/*.deb; do dpkg -x "$f" /tmp/deps; done
    lib=/tmp/deps/usr/lib/x86_64-linux-gnu
    blas=$lib/openblas-pthread
    export CPATH=/tmp/deps/usr/include:/tmp/deps/usr/include/x86_64-linux-gnu/openblas-pthread
    export LIBRARY_PATH=$lib:$blas LD_LIBRARY_PATH=$lib:$blas PKG_CONFIG_PATH=$lib/pkgconfig
    export PATH=/tmp/deps/usr/bin:$PATH
fi
for step in $steps; do
    echo "=== $step $(date -u +%T)" | tee -a "$out/steps.txt"
    case $step in
        env)
            { date -u; uname -a; cat /etc/os-release 2>/dev/null | head -2; ldd --version | head -1
              nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total --format=csv
              nvcc --version | tail -1; gcc --version | head -1; pkg-config --modversion check; } 2>&1 | tee "$out/env.txt" ;;
        tools) make -j16 tools 2>&1 | tail -3 ;;
        grade) # the references timed (make grade's own wall time, the build already done), then the starters
            for l in $labs; do
                t0=$(date +%s.%N)
                WB_TIMING_LOG="$out/timing-$l.tsv" make grade LAB=$l WORK=solutions > "$out/grade-$l-solutions.txt" 2>&1
                t1=$(date +%s.%N)
                echo "lab $l reference: make grade $(echo "$t1 $t0" | awk "{printf \"%.1f\", \$1 - \$2}") s" | tee -a "$out/grade-times.txt"
                tail -22 "$out/grade-$l-solutions.txt"
                make grade LAB=$l > "$out/grade-$l-starter.txt" 2>&1
                echo "lab $l starter: $(grep -c '\[wrong\]' "$out/grade-$l-starter.txt") stages wrong; $(grep 'stages pass' "$out/grade-$l-starter.txt")"
            done ;;
        refs) # the references only, timed, each call's times kept (WB_TIMING_LOG)
            for l in $labs; do
                WB_TIMING_LOG="$out/timing-$l.tsv" make grade LAB=$l WORK=solutions > "$out/grade-$l-solutions.txt" 2>&1
                echo "lab $l reference: exit $?"; sed -n '/stage  *correct/,/stages pass/p' "$out/grade-$l-solutions.txt"
            done ;;
        seccomp) # the allowlist: unlisted calls reported instead of killed, over each reference
            for l in $labs; do
                WB_SECCOMP_TRACE=1 make grade LAB=$l WORK=solutions > "$out/seccomp-$l.txt" 2>&1
                grep -h 'seccomp: unlisted' "$out/seccomp-$l.txt" | sort | uniq -c | sed "s/^/lab $l: /" | tee -a "$out/seccomp.txt"
            done ;;
        study) # STUDY="04:mv_block:solutions:10 04:mv_block:grading/04-warp-reduction/textbook/x.cu:20": each tree
            # (or a single file, put in a tree of its own) graded N times on that stage (scripts/stability.sh)
            for item in ${STUDY:-}; do
                l=${item%%:*} rest=${item#*:}; st=${rest%%:*} rest=${rest#*:}; tree=${rest%:*} n=${rest##*:}
                if [ -f "$tree" ]; then
                    d=$(ls -d grading/$l-*); lab=${d#grading/}
                    src=$(build/grading/$lab/grade --list --lab-dir "$d" --build build | sed -n '1s/.*(edit \(.*\))$/\1/p')
                    name=$(basename "$tree"); w=build/tmp/study-${name%.*}
                    rm -rf "$w" && mkdir -p "$w/$lab" && cp "$tree" "$w/$lab/$src" && tree=$w
                fi
                echo "== lab $l $st: $item ($(date -u +%T))" | tee -a "$out/study.txt"
                STAGE=$st sh scripts/stability.sh "$l" "$n" "$tree" 2>&1 | tee -a "$out/study.txt"
                # the first grading's report, for the reasons a stage failed
                d=$(ls -d build/stability/$l-*); cp "$d/run-1/log.txt" "$out/study-$l-$st-$(basename "$tree" | sed 's/\.[a-z]*$//').log" 2>/dev/null
            done ;;
        threshold) # THRESHOLD="09:all:20 04:mv_warp:20": scripts/threshold-study.sh N LAB STAGE for each
            # (TARGETS, REFERENCE_FRACTION(S) pass through)
            for item in ${THRESHOLD:-}; do
                l=${item%%:*} rest=${item#*:}; st=${rest%%:*} n=${rest#*:}
                echo "== threshold study: lab $l $st, $n gradings ($(date -u +%T))" | tee -a "$out/threshold.txt"
                sh scripts/threshold-study.sh "$n" "$l" "$st" 2>&1 | tee -a "$out/threshold.txt"
                cp -r build/stability/threshold-study "$out/threshold-$l-$st" 2>/dev/null
            done ;;
        plants) # PLANTS="grading/04-.../planted/x.cu ...": each graded and checked by common/tools/hostile.sh
            for f in ${PLANTS:-}; do sh common/tools/hostile.sh build "$f" 2>&1 | tee -a "$out/plants.txt"; done
            cp build/tmp/planted-*.log "$out/" 2>/dev/null ;;
        before) # the same plants against an earlier tree (BEFORE_TAR, a `git archive` of it): they must pass there
            rm -rf /tmp/before && mkdir -p /tmp/before && tar xf "$BEFORE_TAR" -C /tmp/before || exit 1
            for f in ${PLANTS:-}; do mkdir -p "/tmp/before/$(dirname "$f")" && cp "$f" "/tmp/before/$f"; done
            [ -d grading/plants ] && cp -r grading/plants /tmp/before/grading/ # the plants' shared helpers
            [ -n "${BEFORE_PATCH:-}" ] && (cd /tmp/before && patch -p1 -s) < "$BEFORE_PATCH" # e.g. the include rule they need
            (cd /tmp/before && make -j16 tools > /dev/null 2>&1 &&
                for f in ${PLANTS:-}; do sh common/tools/hostile.sh build "$f"; grep -h "PASS\|too-slow\|  [a-z_]* .*%" build/tmp/planted-*.log; done) 2>&1 |
                tee -a "$out/before.txt" ;;
        studies)
            for s in ${STUDIES:-scan transpose conv sgemm clocks}; do
                if [ -x build/studies/$s ]; then echo "== $s (prebuilt)"; build/studies/$s; else sh scripts/studies/run.sh $s; fi 2>&1 |
                    tee "$out/study-$s.txt"
            done ;;
        sanitize) # SANITIZE=1: each lab's reference must be clean; lab 04's plants each found at its line;
            # then the reference once more with WB_SECCOMP_TRACE=1 (calls the filter would refuse, listed)
            for l in $labs; do
                make grade LAB=$l SANITIZE=1 WORK=solutions > "$out/sanitize-$l.txt" 2>&1
                echo "lab $l reference under compute-sanitizer: exit $? ($(tail -n 1 "$out/sanitize-$l.txt"))" | tee -a "$out/sanitize.txt"
            done
            for f in grading/04-warp-reduction/sanitize/*.cu; do
                n=$(basename "$f" .cu) st=$(sed -n '1s/.* in \([a-z_]*\).*/\1/p' "$f") w=build/tmp/sanitize-$n
                rm -rf "$w" && mkdir -p "$w/04-warp-reduction" && cp "$f" "$w/04-warp-reduction/reduce.cu"
                make grade LAB=04 SANITIZE=1 STAGE="$st" WORK="$w" > "$out/sanitize-04-$n.txt" 2>&1
                echo "$f ($st, the bug at line $(grep -n 'the bug' "$f" | cut -d: -f1)): exit $?" | tee -a "$out/sanitize.txt"
                grep -A 12 "\[sanitizer\]" "$out/sanitize-04-$n.txt" | head -14 | tee -a "$out/sanitize.txt"
            done
            WB_SECCOMP_TRACE=1 make grade LAB=04 SANITIZE=1 STAGE=sequential WORK=solutions > "$out/sanitize-trace-04.txt" 2>&1
            grep -h "seccomp: unlisted" "$out/sanitize-trace-04.txt" build/scratch/*/*/*.txt 2>/dev/null | sort | uniq -c | tee -a "$out/sanitize.txt" ;;
        profile) # make profile of every stage of each lab's reference; the figures kept as
            # profile/<lab>/<stage>.txt (to commit as grading/<lab>/profile/<stage>.txt, the reference's column)
            for l in $labs; do
                d=$(ls -d grading/$l-*); lab=${d#grading/}
                for st in $(build/grading/$lab/grade --list --lab-dir "$d" --build build | awk 'NR > 1 { print $2 }'); do
                    make profile LAB=$l STAGE=$st WORK=solutions > "$out/profile-$l-$st.txt" 2>&1
                    echo "lab $l $st: exit $?" | tee -a "$out/profile.txt"
                    raw=$(sed -n 's/^the figures as numbers: \([^ ]*\) .*/\1/p' "$out/profile-$l-$st.txt")
                    mkdir -p "$out/profile/$lab" && [ -n "$raw" ] && cp "$raw" "$out/profile/$lab/$st.txt"
                done
                WB_SECCOMP_TRACE=1 make profile LAB=$l STAGE=$st WORK=solutions > "$out/profile-trace-$l.txt" 2>&1
            done ;;
        charts) # each lab's reference graded, its results file kept for the roofline chart drawn at home
            for l in $labs; do
                make grade LAB=$l WORK=solutions > "$out/charts-$l.txt" 2>&1
                mkdir -p "$out/results" && cp build/results/solutions/$l-*.json "$out/results/" 2>/dev/null
            done ;;
        bench) for l in $labs; do make bench LAB=$l WORK=solutions 2>&1 | tee "$out/bench-$l.txt"; done ;;
        hostile) for l in $labs; do make hostile LAB=$l 2>&1 | tee "$out/hostile-$l.txt" | tail -30; done ;;
        honest) # every honest variant (a correct submission written differently) must pass every stage
            for l in $labs; do
                d=$(ls -d grading/$l-*); lab=${d#grading/}
                src=$(build/grading/$lab/grade --list --lab-dir "$d" --build build | sed -n '1s/.*(edit \(.*\))$/\1/p')
                for f in "$d"/honest/*.c "$d"/honest/*.cu; do
                    [ -f "$f" ] || continue
                    name=$(basename "$f"); w=build/tmp/honest-$l-${name%.*}
                    rm -rf "$w" && mkdir -p "$w/$lab" && cp "$f" "$w/$lab/$src"
                    make grade LAB=$l WORK=$w > "$out/honest-$l-${name%.*}.txt" 2>&1
                    echo "$f: exit $? ($(grep -c PASS "$out/honest-$l-${name%.*}.txt") PASS lines)" | tee -a "$out/honest.txt"
                done
            done ;;
        check)
            CHECK_ALL=1 CHECK_LABS="$labs" CK_VERBOSITY=verbose make check 2>&1 | tee "$out/check.txt" | grep -v "^gcc\|^nvcc\|^ld " | tail -40
            for l in $labs; do
                cat build/tmp/solutions-$l-*.log > "$out/check-reference-$l.txt" 2>/dev/null
                cat build/tmp/starter-$l-*.log > "$out/check-starter-$l.txt" 2>/dev/null
            done
            tar czf "$out/logs.tgz" build/tmp/*.log build/scratch/*/*/*probe*.txt 2>/dev/null ;;
    esac
    # everything so far in one file (a device call brings back at most 8)
    tar czf /tmp/gpu-verify.tgz -C "$out" --exclude gpu-verify.tgz . 2>/dev/null && cp /tmp/gpu-verify.tgz "$out/"
done
