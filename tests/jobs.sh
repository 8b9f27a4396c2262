#!/bin/sh
# jobs.sh - gradings for the test suite (tests/test_grading.c), two at a time, each leaving its exit
# status in a file its test reads (written whole: a test waiting for it never reads half of one).
# One job a line of LIST:
#   grade LAB WORK TAG [STAGE]   run_grader into build/tmp/results/TAG; status in build/tmp/TAG.pregraded
#   plant FILE TAG               common/tools/hostile.sh; log build/tmp/hostile-TAG.log, status build/tmp/hostile-TAG.rc
# usage: sh tests/jobs.sh LIST   (the batched plants before their tests; where no GPU is, the GPU
#                                 labs' builds in the background, at the lowest priority)
set -u
[ "${1:-}" = job ] || exec xargs -P 2 -L 1 sh tests/jobs.sh job < "$1"
shift
. common/tools/lib.sh
case $1 in
grade) run_grader build "$2" "$3" "build/tmp/results/$4" ${5:+--stage "$5"} > "build/tmp/$4.log" 2>&1
       status=$? done=build/tmp/$4.pregraded ;;
plant) sh common/tools/hostile.sh build "$2" > "build/tmp/hostile-$3.log" 2>&1
       status=$? done=build/tmp/hostile-$3.rc ;;
*) echo "jobs.sh: unknown job: $*" >&2; exit 2 ;;
esac
echo $status > "$done.part" && mv "$done.part" "$done"
