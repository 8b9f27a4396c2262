#!/bin/sh
# background.sh - the test suite's background gradings where no GPU is (tests/test_grading.c):
# builds of the GPU labs' files (nvcc, seconds each; nothing runs or is timed), done at the lowest
# priority on whatever core the timed tests leave free, while those run. One job a line of LIST:
#   grade LAB WORK TAG [STAGE]   run_grader into build/tmp/results/TAG; status in build/tmp/TAG.pregraded
#   plant FILE TAG               common/hostile.sh; status in build/tmp/hostile-TAG.rc
# usage: sh tests/background.sh LIST     (two jobs at a time; a test waits for its status file)
set -u
[ "${1:-}" = job ] || exec xargs -P 2 -L 1 sh tests/background.sh job < "$1"
shift
. common/lib.sh
case $1 in
grade) run_grader build "$2" "$3" "build/tmp/results/$4" ${5:+--stage "$5"} > "build/tmp/$4.log" 2>&1
       echo $? > "build/tmp/$4.pregraded.part" && mv "build/tmp/$4.pregraded.part" "build/tmp/$4.pregraded" ;;
plant) sh common/hostile.sh build "$2" > "build/tmp/hostile-$3.log" 2>&1
       echo $? > "build/tmp/hostile-$3.rc.part" && mv "build/tmp/hostile-$3.rc.part" "build/tmp/hostile-$3.rc" ;;
esac
