#!/bin/sh
# handout-check.sh - every handout follows the one template; what `make handouts` runs first.
# usage: common/tools/handout-check.sh HANDOUT.md...
# Exit 0 when every handout fits, 1 naming each problem as file:line, 2 for a usage error.
#
# The template (headings outside fenced code, in this order, each once, no others at levels 1-3):
#
#   ---  title: "Lab NN — name: ..."  ---        YAML front matter with a title
#   # Goal
#   # Background
#   # Roofline analysis
#   # Stages
#   ## Stage N — ...                             one or more; each has, in order:
#   ### Task
#   ### Hint
#   ### What the grader checks
#   # Predictions
#   # Questions
#   # Further reading
#
# A handout that speaks of the APMA2822 blog (the words "APMA2822" or "blog" before Further
# reading) credits it there, in a line that starts "- Credit: the APMA2822 (Brown University)
# student blog".
[ $# -gt 0 ] || { echo "usage: $0 HANDOUT.md..." >&2; exit 2; }
status=0
for f; do
    [ -r "$f" ] || { echo "$f: no such handout" >&2; status=1; continue; }
    awk -v file="$f" '
    function problem(msg) { printf "%s:%d: %s\n", file, NR, msg; bad = 1 }
    # The next heading expected is list[n]: skipping some reports each as missing; a title not
    # ahead in the list is out of place (unknown, repeated or out of order).
    function want(list, n, title, what,    i) {
        for (i = n; i <= list["n"] && list[i] != title; i++) ;
        if (i > list["n"]) { problem(what " \"" title "\" is not in the template here (unknown, repeated or out of order)"); return n }
        for (; n < i; n++) problem("missing " what " \"" list[n] "\" (before \"" title "\")")
        return i + 1
    }
    function stage_done() {
        for (; in_stage && sub3 <= 3; sub3++) problem("stage \"" stage "\" lacks \"### " s3[sub3] "\"")
    }
    BEGIN {
        split("Goal|Background|Roofline analysis|Stages|Predictions|Questions|Further reading", top, "|")
        top["n"] = 7
        split("Task|Hint|What the grader checks", s3, "|"); s3["n"] = 3
        next1 = 1; fence = ""
    }
    NR == 1 && $0 == "---" { yaml = 1; next }
    yaml { if ($0 == "---") yaml = 0; else if ($0 ~ /^title: *[^ ]/) titled = 1; next }
    fence != "" { if (substr($0, 1, 3) == fence) fence = ""; next }
    /^(```|~~~)/ { fence = substr($0, 1, 3); next }
    /^# / {
        title = substr($0, 3)
        stage_done(); in_stage = 0
        next1 = want(top, next1, title, "section")
        section = title
        if (section == "Stages") stages = 0
        next
    }
    /^## / {
        if (section != "Stages" || $0 !~ /^## Stage /) { problem("\"" $0 "\": level-2 headings are the stages (\"## Stage N — ...\") only"); next }
        stage_done()
        in_stage = 1; stage = substr($0, 4); sub3 = 1; stages++
        next
    }
    /^### / {
        if (!in_stage) { problem("\"" $0 "\" outside a stage"); next }
        sub3 = want(s3, sub3, substr($0, 5), "part of stage \"" stage "\":")
        next
    }
    section != "Further reading" && (/APMA2822/ || tolower($0) ~ /blog/) { blog = 1 }
    section == "Further reading" && /^- Credit: the APMA2822 \(Brown University\) student blog/ { credit = 1 }
    END {
        stage_done()
        if (!titled) { NR = 1; problem("no YAML front matter with a title") }
        for (i = next1; i <= top["n"]; i++) problem("missing section \"" top[i] "\"")
        if (next1 > 4 && !stages) problem("\"# Stages\" has no \"## Stage N — ...\"")
        if (blog && !credit) problem("mentions the APMA2822 blog but Further reading has no line \"- Credit: the APMA2822 (Brown University) student blog ...\"")
        exit bad
    }' "$f" || status=1
done
exit $status
