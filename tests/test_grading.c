/* test_grading.c - end to end: every lab's reference passes, every starter fails cleanly, and
 * every planted broken or hostile submission (grading/NN-name/planted/, each file saying on its
 * first line the reason it must fail with) is caught for that reason. */
#define _GNU_SOURCE
#include <glob.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "tests.h"

static glob_t lab_dirs, planted, honest, firsts;
/* The lists split by kind of lab: a CPU lab's files are graded (and timed) by their tests; a GPU
 * lab's, where no GPU is, are only built and audited, in the background (start_background), and
 * their tests, last in this suite, read what came out. */
static const char *cpu_firsts[64], *gpu_firsts[64], *cpu_honest[256], *gpu_honest[256];
static int ncpu_firsts, ngpu_firsts, ncpu_honest, ngpu_honest;

static int background_alive(void);
static int timed_on_all_cores(const char *lab);

/* Wait for a file the background writes; 0 if the background ended without writing it. */
static int wait_for(const char *path)
{
    hold_background(0); /* were a test killed while it held the background still */
    while (access(path, F_OK) != 0) {
        if (!background_alive()) return access(path, F_OK) == 0;
        usleep(200000);
    }
    return 1;
}

/* Grade WORK for one lab the way the scripts do (common/tools/lib.sh's run_grader, with the CUDA
 * settings `make check` exports); the JSON goes to build/tmp/results/<tag>. A grading queued for
 * the background (build/tmp/<tag>.queued) is waited for, and its exit status (build/tmp/<tag>.pregraded)
 * taken, once. A lab timed on all cores is graded with the background held still. */
static int grade(const char *lab, const char *work, const char *tag, const char *extra)
{
    char marker[400], queued[400];
    snprintf(marker, sizeof marker, "build/tmp/%s.pregraded", tag);
    snprintf(queued, sizeof queued, "build/tmp/%s.queued", tag);
    if (access(queued, F_OK) == 0) wait_for(marker);
    char *rc = slurp(marker); /* graded already, with the same options */
    if (rc) {
        int status = atoi(rc);
        free(rc);
        unlink(marker);
        unlink(queued);
        return status;
    }
    int all = timed_on_all_cores(lab);
    if (all) hold_background(1);
    int status = sh(". common/tools/lib.sh && run_grader build %s %s build/tmp/results/%s %s > build/tmp/%s.log 2>&1", lab, work,
                    tag, extra, tag);
    if (all) hold_background(0);
    return status;
}

/* The stage a textbook file (grading/<lab>/textbook/) is graded on, from its first line
 * "/\* textbook: <stage>": 1 with it in `out`; 0 for any other file. */
static int textbook_stage(const char *file, char *out, size_t len)
{
    char line[200] = "", stage[64] = "";
    FILE *f = strstr(file, "/textbook/") ? fopen(file, "r") : NULL;
    if (!f) return 0;
    if (!fgets(line, sizeof line, f)) line[0] = '\0';
    fclose(f);
    if (sscanf(line, "/* textbook: %63[a-z0-9_]", stage) != 1) return 0;
    snprintf(out, len, "%s", stage);
    return 1;
}

/* "(edit matvec.c)" of a lab's --list: the file its students edit. */
static void lab_source_of(const char *lab, char *src, size_t len);

static int is_gpu_lab(const char *lab)
{
    return sh("grep -q '^GPU_LABS' grading/%s/lab.mk 2>/dev/null", lab) == 0;
}

/* The parts of a path under grading/, the one place they are read: "04-warp-reduction" (lab_of) and
 * "skips_warp" (stem_of) of "grading/04-warp-reduction/planted/skips_warp.cu". */
static const char *lab_of(const char *path, char *out, size_t len)
{
    snprintf(out, len, "%s", strncmp(path, "grading/", 8) ? path : path + 8);
    char *slash = strchr(out, '/');
    if (slash) *slash = '\0';
    return out;
}

static const char *stem_of(const char *path, char *out, size_t len)
{
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    snprintf(out, len, "%.*s", (int)strcspn(base, "."), base);
    return out;
}

/* A lab timed on all cores (its --list says so): its gradings hold the background still. */
static int timed_on_all_cores(const char *lab)
{
    return sh("build/grading/%s/grade --list --lab-dir grading/%s --build build 2>/dev/null | head -n 1 | "
              "grep -q '(timed on all cores)'", lab, lab) == 0;
}

static const char *plant_tag(const char *file, char *out, size_t len);
static char *gpu_batched[512];
static int ngpu_batched;



/* The background's process group (build/tmp/background.pid), or 0. */
static pid_t background_group(void)
{
    char *text = slurp("build/tmp/background.pid");
    pid_t pid = text ? (pid_t)atol(text) : 0;
    free(text);
    return pid;
}

static int background_alive(void)
{
    pid_t g = background_group();
    return g > 0 && kill(-g, 0) == 0;
}

/* Stop the background where a timed test needs every core, or the machine's whole cache, and let
 * it go on after (tests.h). */
void hold_background(int hold)
{
    pid_t g = background_group();
    if (g > 0) kill(-g, hold ? SIGSTOP : SIGCONT);
}

/* Where no GPU is, a GPU lab's gradings only build and audit (nvcc, seconds each) and time nothing.
 * They are started here, before any test, in the background at the lowest priority (tests/jobs.sh,
 * two at a time): they take the core that the timed tests of the CPU labs leave free, and those
 * tests hold them still where a lab is timed on all cores. A GPU lab's tests come last and read
 * what came out (grade() above). On a GPU each runs in its test, alone. */
static void start_background(void)
{
    pid_t old = background_group();
    if (old > 0) kill(-old, SIGKILL); /* an earlier run's, cut short */
    sh("rm -f build/tmp/background.pid build/tmp/*.queued build/tmp/*.pregraded build/tmp/hostile-*.rc");
    if (access("/dev/nvidiactl", F_OK) == 0) return;
    const char *suite = getenv("CK_RUN_SUITE");
    if (suite && *suite && strcmp(suite, "grading")) return; /* another suite alone: nothing to build */
    /* a case alone that reads nothing of the background's (CK_RUN_CASE=profile): none started, or
     * it would go on building after the tests end */
    const char *tcase = getenv("CK_RUN_CASE");
    if (tcase && *tcase && strcmp(tcase, "references") && strcmp(tcase, "planted") && strcmp(tcase, "end-to-end") &&
        strcmp(tcase, "gpu-labs"))
        return;
    /* The CPU labs' calibration first, where this machine has none yet (a fresh clone): measured
     * beside the background's compiles, its bandwidth reads low, and every later verdict would be
     * judged against that. (A lab timed on all cores holds the background while it calibrates.) */
    glob_t cal;
    if (glob("build/calibration/*-t1.conf", 0, NULL, &cal) != 0)
        for (int i = 0; i < ncpu_firsts; i++) {
            char lab[256];
            lab_of(cpu_firsts[i], lab, sizeof lab);
            if (timed_on_all_cores(lab)) continue;
            sh("build/grading/%s/grade --calibrate --lab-dir grading/%s --build build > build/tmp/calibrate.log 2>&1", lab, lab);
            break;
        }
    globfree(&cal);
    FILE *jobs = fopen("build/tmp/background.txt", "w");
    if (!jobs) return;
    char lab[256], tag[600];
    /* the references and starters first, as their tests come first */
    for (int i = 0; i < ngpu_firsts; i++) {
        lab_of(gpu_firsts[i], lab, sizeof lab);
        if (access("solutions", F_OK) == 0) fprintf(jobs, "grade %s solutions solutions-%s\n", lab, lab);
        fprintf(jobs, "grade %s labs starter-%s\n", lab, lab);
    }
    for (int i = 0; i < ngpu_batched; i++) fprintf(jobs, "plant %s %s\n", gpu_batched[i], plant_tag(gpu_batched[i], tag, sizeof tag));
    for (int i = 0; i < ngpu_honest; i++) {
        const char *file = gpu_honest[i];
        char name[256], src[64] = "", only[64] = "";
        lab_of(file, lab, sizeof lab), stem_of(file, name, sizeof name);
        lab_source_of(lab, src, sizeof src);
        textbook_stage(file, only, sizeof only);
        sh("rm -rf build/tmp/honest-%s-%s && mkdir -p build/tmp/honest-%s-%s/%s && cp %s build/tmp/honest-%s-%s/%s/%s", lab,
           name, lab, name, lab, file, lab, name, lab, src);
        fprintf(jobs, "grade %s build/tmp/honest-%s-%s honest-%s-%s%s%s\n", lab, lab, name, lab, name, *only ? " " : "", only);
    }
    fclose(jobs);
    /* every job's marker first, so a test knows to wait for it */
    sh("awk '$1 == \"grade\" { print \"build/tmp/\" $4 \".queued\" } $1 == \"plant\" { print \"build/tmp/hostile-\" $3 \".queued\" }' "
       "build/tmp/background.txt | xargs -r touch");
    sh("setsid nice -n 19 sh -c 'echo $$ > build/tmp/background.pid.part && mv build/tmp/background.pid.part "
       "build/tmp/background.pid && exec sh tests/jobs.sh build/tmp/background.txt' > build/tmp/background.log 2>&1 &");
    while (access("build/tmp/background.pid", F_OK) != 0) usleep(10000);
}

static char *results(const char *lab, const char *tag)
{
    char path[512];
    snprintf(path, sizeof path, "build/tmp/results/%s/%s.json", tag, lab);
    return slurp(path);
}

/* The string `key` ("reason", "output") of test "<stage>: <check>" in a results document, up to
 * the next quote (a reason) or to the test's extra_data (an output, which may hold escaped quotes). */
static char *field(const char *doc, const char *stage, const char *check, const char *key, char *out, size_t len)
{
    char name[128], head[32];
    int words = !strcmp(key, "output");
    snprintf(name, sizeof name, "{\"name\": \"%s: %s\"", stage, check);
    snprintf(head, sizeof head, "\"%s\": \"", key);
    const char *line = doc ? strstr(doc, name) : NULL, *r = line ? strstr(line, head) : NULL;
    const char *end = line ? strstr(line, words ? "\",\"extra_data\"" : "\n") : NULL;
    snprintf(out, len, "%s", words ? "" : "(none)");
    if (!r || (end && r > end) || (words && !end)) return out;
    r += strlen(head);
    snprintf(out, len, "%.*s", (int)(words ? (size_t)(end - r) : strcspn(r, "\"")), r);
    return out;
}

/* The reason token on the line of test "<stage>: <check>" in a results document. */
static char *reason(const char *doc, const char *stage, const char *check)
{
    static char out[64];
    return field(doc, stage, check, "reason", out, sizeof out);
}

/* The grader's words (its "output") on that line, to show in a failure. */
static char *output_of(const char *doc, const char *stage, const char *check)
{
    static char out[1200];
    return field(doc, stage, check, "output", out, sizeof out);
}

/* A GPU lab where this machine has no GPU: say so (the test passes; nothing was run). */
static int skipped_here(const char *doc, const char *stage, const char *lab)
{
    if (strcmp(reason(doc, stage, "correctness"), "skipped")) return 0;
    printf("%s: skipped: no CUDA device\n", lab);
    return 1;
}

/* The verdict on a stage's row of the table in a grading log ("PASS", "BUSY", "UNJUDGED" ...), or "". */
static const char *verdict_in_log(const char *log, const char *stage)
{
    static char word[16];
    char head[64];
    snprintf(head, sizeof head, "\n  %s ", stage);
    const char *row = log ? strstr(log, head) : NULL;
    word[0] = '\0';
    if (!row) return word;
    size_t len = strcspn(row + 1, "\n");
    const char *end = row + 1 + len, *start = end;
    while (start > row && start[-1] != ' ') start--;
    snprintf(word, sizeof word, "%.*s", (int)(end - start), start);
    return word;
}

/* Stage names of a lab, from its grader's --list. */
/* Stage names of a lab, and (when src is given) the file its students edit, from --list:
 * "01-cpu-matvec: ... (edit matvec.c)" then one "  N  name ..." line a stage. */
static int lab_list(const char *lab, char names[][32], int max, char src[64])
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "build/grading/%s/grade --list --lab-dir grading/%s --build build", lab, lab);
    FILE *p = popen(cmd, "r");
    int n = 0, num;
    char line[512], name[32];
    while (p && fgets(line, sizeof line, p)) {
        if (n < max && line[0] == ' ' && sscanf(line, " %d %31s", &num, name) == 2) strcpy(names[n++], name);
        if (src && strstr(line, "(edit ")) sscanf(strstr(line, "(edit "), "(edit %63[^)])", src);
    }
    if (p) pclose(p);
    return n;
}

static int stages(const char *lab, char names[][32], int max) { return lab_list(lab, names, max, NULL); }

static void lab_source_of(const char *lab, char *src, size_t len)
{
    char names[16][32], s[64] = "";
    lab_list(lab, names, 16, s);
    snprintf(src, len, "%s", s);
}

/* The technique check (common/audit/technique.h) is read in the build, GPU or not: no stage of a
 * reference, honest or textbook file may fail it, here or on a GPU. */
static void technique_met(const char *doc, char names[][32], int n, const char *who, const char *tag)
{
    for (int s = 0; s < n; s++)
        ck_assert_msg(strcmp(reason(doc, names[s], "speed"), "technique"), "%s, stage %s: technique: %s (see build/tmp/%s.log)",
                      who, names[s], output_of(doc, names[s], "speed"), tag);
}

static void reference_passes(const char *labdir)
{
    char lab[256], names[16][32], tag[300];
    lab_of(labdir, lab, sizeof lab);
    snprintf(tag, sizeof tag, "solutions-%s", lab);
    char dir[300];
    snprintf(dir, sizeof dir, "solutions/%s", lab);
    if (access(dir, F_OK) != 0) return; /* the student kit (make dist) has no solutions: instructors only */
    int rc = grade(lab, "solutions", tag, "");
    char *doc = results(lab, tag), *log = NULL;
    char path[400];
    snprintf(path, sizeof path, "build/tmp/%s.log", tag);
    log = slurp(path);
    int n = stages(lab, names, 16), busy = 0;
    ck_assert_int_gt(n, 0);
    technique_met(doc, names, n, dir, tag);
    for (int s = 0; s < n && !skipped_here(doc, names[s], lab); s++) {
        ck_assert_str_eq(reason(doc, names[s], "correctness"), "ok");
        /* a neighbour at work: BUSY (its note says what it lost), said, never a fail; never UNJUDGED */
        if (!strcmp(verdict_in_log(log, names[s]), "BUSY") && ++busy) {
            printf("solutions/%s, stage %s: BUSY (not judged for speed on this machine now)\n", lab, names[s]);
            continue;
        }
        ck_assert_msg(!strcmp(reason(doc, names[s], "speed"), "ok"), "solutions/%s, stage %s: %s: %s", lab, names[s],
                      reason(doc, names[s], "speed"), output_of(doc, names[s], "speed"));
    }
    ck_assert_msg(rc == 0 || busy, "grading solutions/%s exited %d; see build/tmp/%s.log", lab, rc, tag);
    free(log);
    free(doc);
}

START_TEST(test_reference_passes_every_stage) { reference_passes(cpu_firsts[_i]); }
END_TEST

START_TEST(test_gpu_lab_reference_passes_every_stage) { reference_passes(gpu_firsts[_i]); }
END_TEST

static void starter_fails_cleanly(const char *labdir)
{
    char lab[256], names[16][32], tag[300];
    lab_of(labdir, lab, sizeof lab);
    snprintf(tag, sizeof tag, "starter-%s", lab);
    char *doc = NULL;
    int rc = grade(lab, "labs", tag, ""), n = stages(lab, names, 16);
    doc = results(lab, tag);
    if (n > 0 && skipped_here(doc, names[0], lab)) {
        ck_assert_int_eq(rc, 0); /* it compiled, and nothing could run */
        free(doc);
        return;
    }
    ck_assert_int_eq(rc, 1);
    for (int s = 0; s < n; s++) {
        ck_assert_str_eq(reason(doc, names[s], "correctness"), "wrong"); /* not a crash, not a hang */
        ck_assert_str_eq(reason(doc, names[s], "speed"), "not-run");
    }
    free(doc);
}

START_TEST(test_starter_fails_every_stage_cleanly) { starter_fails_cleanly(cpu_firsts[_i]); }
END_TEST

START_TEST(test_gpu_lab_starter_fails_every_stage_cleanly) { starter_fails_cleanly(gpu_firsts[_i]); }
END_TEST

/* The planted submissions in two lists. `batched`: those whose verdict no neighbour can change
 * (a build refused, a wrong result, a crash, a hang, a forbidden call ...), graded two at a time
 * before their tests read the results. `alone`: those judged on speed, those whose cheat is a race
 * (row 22: it shows less when the threads share a core with another grading), and on a GPU every
 * plant that runs (one grading at a time on the device), graded by their own tests, one at a time. */
static char *batched[512], *alone[512];
static int nbatched, nalone;

static void split_planted(void)
{
    for (size_t i = 0; i < planted.gl_pathc; i++) {
        char *file = planted.gl_pathv[i];
        if (sh(". common/tools/lib.sh && plant_alone %s", file) == 0) alone[nalone++] = file; /* one rule, hostile.sh's too */
        else if (strstr(file, ".cu")) gpu_batched[ngpu_batched++] = file;
        else batched[nbatched++] = file;
    }
}

/* The name a plant's log and exit status go by in build/tmp: its lab's and its own ("04-warp-reduction-
 * skips_warp.cu"), as plants of different labs share names (skips_warp.cu in labs 04 and 09). */
static const char *plant_tag(const char *file, char *out, size_t len)
{
    char lab[256];
    snprintf(out, len, "%s-%s", lab_of(file, lab, sizeof lab), strrchr(file, '/') + 1);
    return out;
}

/* Unchecked fixture of the batched tests: every batched plant graded by common/tools/hostile.sh, two at
 * a time (nothing timed runs beside them), its log and exit status left for its test under its tag. */
static void grade_plants(char *const *files, int n)
{
    FILE *list = fopen("build/tmp/planted-batch.txt", "w");
    char tag[300];
    for (int i = 0; list && i < n; i++) fprintf(list, "%s %s\n", files[i], plant_tag(files[i], tag, sizeof tag));
    if (list) fclose(list);
    /* the biggest first, so neither worker idles at the end */
    sh("while read -r f n; do echo \"$(wc -c < $f) plant $f $n\"; done < build/tmp/planted-batch.txt | sort -rn | "
       "cut -d' ' -f2- > build/tmp/planted-jobs.txt && sh tests/jobs.sh build/tmp/planted-jobs.txt");
}

static void grade_batch(void) { grade_plants(batched, nbatched); }

/* A GPU lab's batched plants: built in the background where no GPU is (start_background); on a GPU,
 * here, two at a time, with nothing timed beside them. */
static void grade_gpu_batch(void)
{
    if (access("/dev/nvidiactl", F_OK) == 0) grade_plants(gpu_batched, ngpu_batched);
}

/* A planted file's verdict: hostile.sh's exit status 0 (rejected as expected, or skipped here). */
static void expect_caught(const char *file, int rc)
{
    char path[400], tag[300];
    snprintf(path, sizeof path, "build/tmp/hostile-%s.log", plant_tag(file, tag, sizeof tag));
    char *log = slurp(path);
    ck_assert_msg(rc == 0, "%s:\n%s", file, log ? log : "(no log)");
    const char *skip = log ? strstr(log, ": skipped: ") : NULL; /* no GPU, or one core for a speedup */
    if (skip) printf("%s%.*s\n", file, (int)strcspn(skip, "\n"), skip);
    free(log);
}

/* grading/<lab>/planted/<name>.c(u) is rejected for the reason its first line names: the same
 * script as `make hostile` (common/tools/hostile.sh), one file a test. */
START_TEST(test_planted_submission_is_caught)
{
    const char *file = alone[_i];
    char tag[300];
    /* a GPU lab's plant here is one judged when it runs (lib.sh's plant_alone: those judged when
     * built are batched): without a GPU, nvcc would build it only for the grader to skip it (88 of
     * the 139, about three minutes of make check) */
    if (strstr(file, ".cu") && access("/dev/nvidiactl", F_OK) != 0) {
        printf("%s: skipped: no CUDA device (its verdict comes only when it runs)\n", file);
        return;
    }
    hold_background(1); /* judged on speed, or on its threads: the machine its own (the LLC too) */
    int rc = sh("sh common/tools/hostile.sh build %s > build/tmp/hostile-%s.log 2>&1", file, plant_tag(file, tag, sizeof tag));
    hold_background(0);
    expect_caught(file, rc);
}
END_TEST

/* A batched plant's verdict, left by the batch (grade_batch) or the background (start_background). */
static void batched_plant_caught(const char *file)
{
    char path[400], queued[400], tag[300];
    snprintf(path, sizeof path, "build/tmp/hostile-%s.rc", plant_tag(file, tag, sizeof tag));
    snprintf(queued, sizeof queued, "build/tmp/hostile-%s.queued", tag);
    if (access(queued, F_OK) == 0) wait_for(path);
    char *rc = slurp(path);
    ck_assert_msg(rc != NULL, "%s: not graded (no %s)", file, path);
    expect_caught(file, atoi(rc));
    free(rc);
}

START_TEST(test_planted_submission_in_batch_is_caught) { batched_plant_caught(batched[_i]); }
END_TEST

START_TEST(test_gpu_lab_planted_submission_is_caught) { batched_plant_caught(gpu_batched[_i]); }
END_TEST

/* grading/<lab>/honest/<name>.c(u): a correct submission written differently from the
 * reference. The grader must not reject honest work: every stage passes (or is skipped here).
 * grading/<lab>/textbook/<name>.c(u): one stage's technique as the public sources teach it (the
 * stage its first line names, "textbook: mv_block"), graded on that stage alone: it must pass. */
static void honest_passes(const char *file)
{
    char lab[256], name[256], names[16][32], tag[600], work[700], src[64] = "", only[64] = "", extra[100] = "";
    lab_of(file, lab, sizeof lab), stem_of(file, name, sizeof name);
    int n = lab_list(lab, names, 16, src);
    if (textbook_stage(file, only, sizeof only)) {
        snprintf(extra, sizeof extra, "--stage %s", only);
        n = 1, snprintf(names[0], sizeof names[0], "%s", only);
    }
    snprintf(tag, sizeof tag, "honest-%s-%s", lab, name);
    snprintf(work, sizeof work, "build/tmp/%s", tag);
    ck_assert_int_eq(sh("rm -rf %s && mkdir -p %s/%s && cp %s %s/%s/%s", work, work, lab, file, work, lab, src), 0);
    int rc = grade(lab, work, tag, extra);
    char *doc = results(lab, tag);
    /* Graded once more where a stage was right but too slow: a textbook file near its threshold on a
     * shared VM (lab 01's four_sums read `unrolled` at 53-64% against 55% here, on this tree and the
     * one before it) must pass in one of two gradings, as a student grading again would see it. */
    for (int s = 0; s < n && doc; s++)
        if (!strcmp(reason(doc, names[s], "correctness"), "ok") && !strcmp(reason(doc, names[s], "speed"), "too-slow")) {
            printf("%s, stage %s: too slow in one grading; graded again\n", file, names[s]);
            free(doc);
            rc = grade(lab, work, tag, extra);
            doc = results(lab, tag);
            break;
        }
    snprintf(work, sizeof work, "build/tmp/%s.log", tag);
    char *log = slurp(work);
    int excused = 0;
    technique_met(doc, names, n, file, tag);
    for (int s = 0; s < n && !skipped_here(doc, names[s], lab); s++) {
        ck_assert_msg(!strcmp(reason(doc, names[s], "correctness"), "ok"), "%s, stage %s: %s: %s (see build/tmp/%s.log)",
                      file, names[s], reason(doc, names[s], "correctness"), output_of(doc, names[s], "correctness"), tag);
        const char *v = verdict_in_log(log, names[s]);
        if (!strcmp(v, "BUSY") || !strcmp(v, "UNJUDGED")) { /* not judged, and not a failure: said, not hidden */
            printf("%s, stage %s: %s (not judged for speed on this machine now)\n", file, names[s], v);
            excused++;
            continue;
        }
        ck_assert_msg(!strcmp(reason(doc, names[s], "speed"), "ok"), "%s, stage %s: %s: %s (see build/tmp/%s.log)",
                      file, names[s], reason(doc, names[s], "speed"), output_of(doc, names[s], "speed"), tag);
    }
    ck_assert_msg(rc == 0 || excused || (n > 0 && skipped_here(doc, names[0], lab)), "%s: grader exited %d", file, rc);
    free(log);
    free(doc);
}

START_TEST(test_honest_variant_passes) { honest_passes(cpu_honest[_i]); }
END_TEST

START_TEST(test_gpu_lab_honest_variant_passes) { honest_passes(gpu_honest[_i]); }
END_TEST

/* ---------------------------------------------------------------- the make grade contract */

#define MAKE "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory"

/* The handouts have students form offsets in size_t (A + (size_t)i * n): every C starter has it. */
START_TEST(test_c_starters_know_size_t)
{
    glob_t starters;
    if (glob("labs/[0-9][0-9]-*/*.c", 0, NULL, &starters)) return; /* no C lab in this tree */
    for (size_t i = 0; i < starters.gl_pathc; i++) {
        const char *f = starters.gl_pathv[i];
        char lab[256];
        snprintf(lab, sizeof lab, "%s", f + strlen("labs/"));
        *strchr(lab, '/') = '\0';
        ck_assert_msg(sh("{ cat %s; echo 'static size_t wb_offset(int i, int n) { return (size_t)i * n; }'; } > "
                         "build/tmp/size_t.c && gcc -std=c11 -fopenmp -fsyntax-only -Wno-unused-function -Igrading/%s "
                         "build/tmp/size_t.c > build/tmp/size_t.log 2>&1", f, lab) == 0,
                      "%s: size_t is not declared (include <stddef.h>); see build/tmp/size_t.log", f);
    }
    globfree(&starters);
}
END_TEST

/* make help names every command the Makefile declares (its .PHONY targets, but for the internal
 * ones), and SANITIZE. */
START_TEST(test_make_help_lists_every_command)
{
    ck_assert_int_eq(sh(MAKE " help > build/tmp/help.log 2>&1"), 0);
    char *help = slurp("build/tmp/help.log"), *mk = slurp("Makefile");
    ck_assert_ptr_nonnull(help);
    ck_assert_ptr_nonnull(mk);
    char *phony = strstr(mk, ".PHONY:"), *save = NULL;
    ck_assert_ptr_nonnull(phony);
    phony = strndup(phony + strlen(".PHONY:"), strcspn(phony, "\n") - strlen(".PHONY:"));
    for (char *t = strtok_r(phony, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        if (!strcmp(t, "all") || !strcmp(t, "help") || !strcmp(t, "tools")) continue;
        char word[64];
        snprintf(word, sizeof word, "make %s", t);
        ck_assert_msg(strstr(help, word) != NULL, "make help does not mention '%s'", word);
    }
    ck_assert_ptr_nonnull(strstr(help, "SANITIZE=1"));
    free(phony);
    free(help);
    free(mk);
}
END_TEST

/* The calls of `rows` (about 0.2 s here) counted in the timing log: every one, and those the floor
 * raised over twice the runner's own time. */
static void count_calls(const char *tsv, int *calls, int *floored)
{
    FILE *f = fopen(tsv, "r");
    char line[512];
    *calls = *floored = 0;
    while (f && fgets(line, sizeof line, f)) {
        char *tab = line;
        double v[4]; /* the scorer's time, the runner's, the one used, an empty call's */
        for (int field = 0; field < 5 && tab; field++) tab = strchr(tab + 1, '\t');
        /* floored: timed at least 0.4 s over the runner's figure (WB_DELAY_CALLS holds DONE 0.5 s) */
        if (tab && sscanf(tab, "%lf %lf %lf %lf", &v[0], &v[1], &v[2], &v[3]) == 4) ++*calls, *floored += v[2] > v[1] + 0.4;
    }
    if (f) fclose(f);
}

/* STAGE=name grades that stage alone (the others reported skipped); a wrong name lists the stages.
 * The same grading is held up as a busy host would hold it: a call the scorer hears of late is timed
 * at its floor (the scorer's time less an empty call's round trip), and calls go on until min_calls
 * have the runner's own time and outnumber the delayed ones. WB_DELAY_CALLS=3 makes the scorer read
 * DONE half a second late on each timed run's first three calls: `rows` still passes, its floored
 * calls counted. Before, its three proven calls were the delayed ones (a median of half a second:
 * too-slow at 21%, in every run). `contiguous`, not `rows`: the same one-chain roof, without a
 * row an allocation to build (8 s of each grading here). */
START_TEST(test_make_grade_one_stage)
{
    unlink("build/tmp/delayed.tsv");
    ck_assert_int_eq(sh("WB_DELAY_CALLS=3 WB_TIMING_LOG=build/tmp/delayed.tsv " MAKE " grade LAB=01 STAGE=contiguous WORK=solutions > "
                        "build/tmp/stage.log 2>&1"), 0);
    char *log = slurp("build/tmp/stage.log");
    ck_assert_msg(log && strstr(log, "1 of 3 stages graded, 1 pass"), "make grade STAGE=contiguous said: %s", log ? log : "(nothing)");
    int calls, floored;
    count_calls("build/tmp/delayed.tsv", &calls, &floored);
    ck_assert_msg(floored >= 3 && calls >= floored + 3, "%d calls, %d of them delayed: too few believed ones", calls, floored);
    /* contiguous is one chain of adds: its second roof, the chain's measured rate, is named */
    ck_assert_msg(strstr(log, "ceiling of rows, contiguous (one chain of dependent adds)") && strstr(log, " G adds/s"),
                  "no chain roof in: %s", log);
    free(log);
    char *doc = slurp("build/results/solutions/01-cpu-matvec.json"); /* the others say why they were not graded */
    ck_assert_msg(doc && strstr(doc, "STAGE=contiguous grades that stage only"), "results: %s", doc ? doc : "(none)");
    const char *fl = strstr(doc, "\"floored_calls\": "); /* the results say the delayed calls were floored */
    ck_assert_msg(fl && atoi(fl + strlen("\"floored_calls\": ")) >= 3, "the delayed calls were not floored: %s", doc);
    free(doc);
    ck_assert_int_eq(sh(MAKE " grade LAB=01 STAGE=nope WORK=solutions > build/tmp/stage.log 2>&1"), 2);
    log = slurp("build/tmp/stage.log");
    ck_assert_msg(log && strstr(log, "no stage 'nope'") && strstr(log, "rows contiguous unrolled"), "said: %s", log);
    free(log);
    ck_assert_int_eq(sh(MAKE " grade STAGE=rows WORK=solutions > build/tmp/stage.log 2>&1"), 2); /* needs LAB= */
}
END_TEST

START_TEST(test_make_grade_unknown_lab_lists_labs_and_exits_2)
{
    ck_assert_int_eq(sh(MAKE " grade LAB=99-nope > build/tmp/unknown.log 2>&1"), 2);
    char *log = slurp("build/tmp/unknown.log");
    ck_assert_ptr_nonnull(strstr(log, "unknown lab '99-nope'"));
    ck_assert_ptr_nonnull(strstr(log, "01-cpu-matvec"));
    free(log);
    ck_assert_int_eq(sh(MAKE " grade WORK=build/tmp/no-such-tree > /dev/null 2>&1"), 2);
}
END_TEST

START_TEST(test_gpu_lab_without_nvcc_is_skipped_with_a_message)
{
    ck_assert_int_eq(sh(MAKE " grade LAB=04 NVCC=no-such-nvcc > build/tmp/no-nvcc.log 2>&1"), 0);
    char *log = slurp("build/tmp/no-nvcc.log");
    ck_assert_ptr_nonnull(strstr(log, "skipped: no CUDA toolkit"));
    ck_assert_ptr_nonnull(strstr(log, "9 stages skipped"));
    free(log);
}
END_TEST

/* SANITIZE=1 on a CUDA lab: the file is built with line tables (-lineinfo) and audited; without a
 * GPU the stages are skipped, saying why; on one, the reference is clean under compute-sanitizer's
 * four tools (a false finding in a correct file would teach the wrong thing). */
START_TEST(test_sanitize_on_a_cuda_lab_builds_and_the_reference_is_clean)
{
    const char *found = getenv("NVCC_FOUND");
    if ((found && !*found) || (!found && sh("command -v nvcc > /dev/null 2>&1") != 0)) {
        printf("SANITIZE=1 on a CUDA lab: skipped: no CUDA toolkit\n");
        return;
    }
    int status = sh(MAKE " grade LAB=04 SANITIZE=1 WORK=solutions > build/tmp/sanitize-cuda.log 2>&1");
    char *log = slurp("build/tmp/sanitize-cuda.log");
    ck_assert_msg(log && !strstr(log, "does not compile"), "%s", log ? log : "");
    if (access("/dev/nvidiactl", F_OK) != 0) {
        ck_assert_msg(status == 0 && strstr(log, "9 stages skipped"), "%s", log);
        printf("SANITIZE=1 on a CUDA lab, under compute-sanitizer: skipped: no CUDA device\n");
    } else
        ck_assert_msg(status == 0 && strstr(log, "9 of 9 stages pass"), "exit %d:\n%s", status, log);
    free(log);
}
END_TEST

/* SANITIZE=1 on a GPU: each of lab 04's sanitizer plants (grading/04-warp-reduction/sanitize/) is
 * found by a tool its first line names ("sanitize: racecheck|initcheck in sequential"), in that
 * stage, at the line of the file marked "the bug", with the size. Without a GPU only their first
 * lines are read (the build with line tables is the test above's), and the rest is skipped, said so. */
START_TEST(test_sanitize_names_each_gpu_plant)
{
    const char *found = getenv("NVCC_FOUND");
    if ((found && !*found) || (!found && sh("command -v nvcc > /dev/null 2>&1") != 0)) {
        printf("SANITIZE=1 plants: skipped: no CUDA toolkit\n");
        return;
    }
    if (access("grading/04-warp-reduction/sanitize", F_OK)) { /* the student kit has none */
        printf("SANITIZE=1 plants: skipped: no grading/04-warp-reduction/sanitize/ (instructors' copies only)\n");
        return;
    }
    int gpu = access("/dev/nvidiactl", F_OK) == 0;
    glob_t gl;
    ck_assert_int_eq(glob("grading/04-warp-reduction/sanitize/*.cu", 0, NULL, &gl), 0);
    ck_assert_int_ge((int)gl.gl_pathc, 4);
    for (size_t i = 0; i < gl.gl_pathc; i++) {
        const char *f = gl.gl_pathv[i];
        char *text = slurp(f), tools[64] = "", stage[32] = "", name[64], cmd[1400], log[200];
        ck_assert_ptr_nonnull(text);
        ck_assert_msg(sscanf(text, "/* sanitize: %63[a-z|] in %31[a-z_]", tools, stage) == 2, "%s: no sanitize line", f);
        const char *bug = strstr(text, "the bug");
        ck_assert_msg(bug, "%s: no line marked \"the bug\"", f);
        int line = 1;
        for (const char *c = text; c < bug; c++) line += *c == '\n';
        snprintf(name, sizeof name, "%s", strrchr(f, '/') + 1);
        *strrchr(name, '.') = 0;
        if (!gpu) { /* the build path is test_sanitize_on_a_cuda_lab...'s; four nvcc builds cost a minute here */
            free(text);
            continue;
        }
        snprintf(log, sizeof log, "build/tmp/sanitize-%s.log", name);
        snprintf(cmd, sizeof cmd, "rm -rf build/tmp/sanitize-%s && mkdir -p build/tmp/sanitize-%s/04-warp-reduction && "
                 "cp %s build/tmp/sanitize-%s/04-warp-reduction/reduce.cu && " MAKE " grade LAB=04 SANITIZE=1 STAGE=%s "
                 "WORK=build/tmp/sanitize-%s > %s 2>&1", name, name, f, name, stage, name, log);
        int status = sh("%s", cmd);
        char *out = slurp(log);
        ck_assert_msg(out && !strstr(out, "does not compile") && !strstr(out, "[audit]"), "%s:\n%s", f, out ? out : "");
        {
            char at[64], said[96];
            snprintf(at, sizeof at, "reduce.cu:%d", line);
            int tool_named = 0;
            for (char *t = strtok(tools, "|"); t; t = strtok(NULL, "|")) {
                snprintf(said, sizeof said, "compute-sanitizer --tool %s:", t);
                tool_named |= strstr(out, said) != NULL;
            }
            ck_assert_msg(status == 1 && strstr(out, "[sanitizer]") && tool_named && strstr(out, at) &&
                          strstr(out, stage), "%s: expected the finding at %s:\n%s", f, at, out);
        }
        free(out);
        free(text);
    }
    globfree(&gl);
    if (!gpu) printf("SANITIZE=1 plants under compute-sanitizer: skipped: no CUDA device (each names its tool, stage and line)\n");
}
END_TEST

START_TEST(test_make_grade_exit_status_and_seed_replay)
{
    ck_assert_int_eq(sh("rm -rf build/results/build_tmp_starter-tree && mkdir -p build/tmp/starter-tree && "
                        "cp -r labs/01-cpu-matvec build/tmp/starter-tree/"), 0);
    ck_assert_int_eq(sh(MAKE " grade LAB=01 WORK=build/tmp/starter-tree > /dev/null 2>&1"), 1);
    /* one stage is enough to see the seed replayed */
    ck_assert_int_eq(sh(MAKE " grade LAB=01-cpu-matvec WORK=solutions SEED=0x2a STAGE=contiguous > build/tmp/seed1.log 2>&1"), 0);
    char *first = slurp("build/results/solutions/01-cpu-matvec.json");
    ck_assert_int_eq(sh(MAKE " grade LAB=01 WORK=solutions SEED=42 STAGE=contiguous > build/tmp/seed2.log 2>&1"), 0);
    char *again = slurp("build/results/solutions/01-cpu-matvec.json");
    ck_assert_ptr_nonnull(first);
    ck_assert_ptr_nonnull(strstr(first, "\"seed\": \"0x000000000000002a\""));
    /* the same seed draws the same sizes: compare the timed shape of the stage graded */
    const char *m1 = strstr(first, "\"m\": "), *m2 = strstr(again, "\"m\": ");
    ck_assert_ptr_nonnull(m1);
    ck_assert_int_eq(strncmp(m1, m2, 40), 0);
    char *log = slurp("build/tmp/seed1.log");
    ck_assert_ptr_nonnull(strstr(log, "replay: make grade LAB=01-cpu-matvec SEED=0x000000000000002a"));
    free(log);
    free(first);
    free(again);
}
END_TEST

START_TEST(test_missing_and_broken_files_get_a_message)
{
    ck_assert_int_eq(sh("rm -rf build/tmp/broken && mkdir -p build/tmp/broken/01-cpu-matvec build/tmp/empty/01-cpu-matvec"), 0);
    ck_assert_int_eq(grade("01-cpu-matvec", "build/tmp/empty", "missing", ""), 1);
    char *log = slurp("build/tmp/missing.log");
    ck_assert_ptr_nonnull(strstr(log, "missing file: build/tmp/empty/01-cpu-matvec/matvec.c"));
    free(log);
    ck_assert_int_eq(sh("printf '#include \"matvec.h\"\\nvoid matvec_rows(int m) { return m }\\n' > "
                        "build/tmp/broken/01-cpu-matvec/matvec.c"), 0);
    ck_assert_int_eq(grade("01-cpu-matvec", "build/tmp/broken", "broken", ""), 1);
    log = slurp("build/tmp/broken.log");
    ck_assert_ptr_nonnull(strstr(log, "does not compile"));
    ck_assert_ptr_nonnull(strstr(log, "error:"));
    /* at the student's own file and line, not the grader's copy of it */
    ck_assert_msg(strstr(log, "build/tmp/broken/01-cpu-matvec/matvec.c:2:") && !strstr(log, "student.c"), "%s", log);
    free(log);
    char *doc = results("01-cpu-matvec", "broken");
    ck_assert_str_eq(reason(doc, "rows", "correctness"), "build");
    free(doc);
}
END_TEST

/* SANITIZE=1: the planted out-of-bounds write is reported by AddressSanitizer at its line of the
 * student's file, and a correct file passes; no result is timed or scored. */
START_TEST(test_sanitize_reports_out_of_bounds_write_at_its_line)
{
    ck_assert_int_eq(sh("rm -rf build/tmp/asan && mkdir -p build/tmp/asan/01-cpu-matvec && cp "
                        "grading/01-cpu-matvec/planted/out_of_bounds.c build/tmp/asan/01-cpu-matvec/matvec.c"), 0);
    ck_assert_int_eq(grade("01-cpu-matvec", "build/tmp/asan", "asan", "--sanitize"), 1);
    char *doc = results("01-cpu-matvec", "asan"), *log = slurp("build/tmp/asan.log");
    ck_assert_str_eq(reason(doc, "rows", "correctness"), "sanitizer");
    ck_assert_msg(strstr(log, "AddressSanitizer: use-after-poison") && strstr(log, "WRITE of size 8") &&
                  strstr(log, "at matvec.c:"), "%s", log);
    free(doc);
    free(log);
    if (access("solutions/01-cpu-matvec/matvec.c", R_OK) == 0) {
        ck_assert_int_eq(grade("01-cpu-matvec", "solutions", "asan-reference", "--sanitize"), 0);
        log = slurp("build/tmp/asan-reference.log");
        ck_assert_ptr_nonnull(strstr(log, "SANITIZE=1"));
        free(log);
    }
}
END_TEST

/* make walkthrough: the first stage not passing in the last results is next, with its TODO. */
START_TEST(test_walkthrough_names_the_next_stage_and_its_task)
{
    ck_assert_int_eq(sh("mkdir -p build/tmp && printf '%%s\\n' '{\"tests\": [' "
                        "'{\"name\": \"rows: correctness\",\"score\": 5,\"max_score\": 5,\"status\": \"passed\"},' "
                        "'{\"name\": \"rows: speed\",\"score\": 5,\"max_score\": 5,\"status\": \"passed\"},' "
                        "'{\"name\": \"contiguous: correctness\",\"score\": 0,\"max_score\": 5,\"status\": "
                        "\"failed\",\"output\": \"m=3 n=5: 3 of 3 elements wrong\"}]}' > build/tmp/walk.json && "
                        "sh common/tools/walkthrough.sh build labs 01-cpu-matvec build/tmp/walk.json > build/tmp/walk.log 2>&1"), 0);
    char *log = slurp("build/tmp/walk.log");
    ck_assert_msg(strstr(log, "Next: contiguous, stage 2 of 3") && strstr(log, "TODO(stage 2)") &&
                  strstr(log, "m=3 n=5: 3 of 3 elements wrong") && strstr(log, "make grade LAB=01"), "%s", log);
    free(log);
    ck_assert_int_eq(sh("sh common/tools/walkthrough.sh build labs 01-cpu-matvec build/tmp/none.json > build/tmp/walk.log 2>&1"), 0);
    log = slurp("build/tmp/walk.log");
    ck_assert_msg(strstr(log, "not graded yet") && strstr(log, "Next: rows, stage 1 of 3"), "%s", log);
    free(log);
}
END_TEST

/* A busy machine (here played by a calibration three times this machine's figures: the bandwidth
 * measured before each stage's timing reads far below it) is not the student's failure: a slow
 * stage is reported not judged, BUSY, never too slow; its correctness still counts. */
START_TEST(test_busy_machine_is_not_the_students_failure)
{
    ck_assert_int_eq(sh("rm -rf build/tmp/busy && mkdir -p build/tmp/busy/calibration build/tmp/busy/work/01-cpu-matvec && "
                        "for f in build/calibration/*-t*.conf; do awk '/^(stream|read)_gbs/ { printf \"%%s = %%.3f\\n\", $1, "
                        "3 * $3; next } { print }' $f > build/tmp/busy/calibration/${f##*/}; done && "
                        "cp build/calibration/*-llc.conf build/tmp/busy/calibration/ 2>/dev/null; "
                        "cp grading/01-cpu-matvec/planted/slow.c build/tmp/busy/work/01-cpu-matvec/matvec.c && "
                        "cp grading/01-cpu-matvec/planted/entry_points.h build/tmp/busy/work/01-cpu-matvec/ && "
                        "grep -q 'stream_gbs' build/tmp/busy/calibration/*-t1.conf"), 0);
    setenv("WB_CALIBRATION", "build/tmp/busy/calibration", 1);
    /* the busy machine is the calibration's alone: the background's builds, held still, delay no call
     * (beside them on a 2-CPU VM the grader heard every call late, and the clock rule condemned it) */
    hold_background(1);
    grade("01-cpu-matvec", "build/tmp/busy/work", "busy", "--stage unrolled");
    hold_background(0);
    unsetenv("WB_CALIBRATION");
    char *doc = results("01-cpu-matvec", "busy"), *log = slurp("build/tmp/busy.log");
    ck_assert_str_eq(reason(doc, "unrolled", "correctness"), "ok");
    ck_assert_msg(!strcmp(reason(doc, "unrolled", "speed"), "not-judged"), "speed: %s\n%s", reason(doc, "unrolled", "speed"),
                  log);
    ck_assert_msg(strstr(log, "BUSY") && strstr(log, "the machine was busy") && !strstr(log, "too-slow"), "%s", log);
    free(doc);
    free(log);
}
END_TEST

/* A neighbour at work on a core (played here by eight busy loops on every CPU but the first)
 * hides any code's parallel speedup while leaving the bandwidth check content. Honest compute-bound
 * matmul is then reported not judged, BUSY, its note saying what the neighbour explains (the CPU
 * time its threads lost, given back, or OpenBLAS's own gain measured beside it); never no-speedup.
 * Graded: the textbook stage 3 (i-k-j in 64-wide stretches, as fast a thread as the grader's i-k-j
 * baseline), not the reference, whose kernel alone is faster than the baseline: since matmul_speedup
 * came down to 1.1 it passed beside the loops (1.11x), which shows nothing of the busy rule. */
START_TEST(test_neighbour_on_a_core_is_not_the_students_failure)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (cpus < 2) {
        printf("neighbour test: skipped: one CPU\n");
        return;
    }
    ck_assert_int_eq(sh("rm -rf build/tmp/neighbour && mkdir -p build/tmp/neighbour/03-openmp && "
                        "cp grading/03-openmp/textbook/collapse_ikj.c build/tmp/neighbour/03-openmp/parallel.c"), 0);
    hold_background(1); /* the neighbours are the test's own */
    int hogged = sh("hogs=''; for c in $(seq 1 %ld); do for i in 1 2 3 4 5 6 7 8; do "
                        "taskset -c $c sh -c 'while :; do :; done' & hogs=\"$hogs $!\"; done; done; "
                        "trap 'kill $hogs' EXIT; sleep 0.3; . common/tools/lib.sh && run_grader build 03-openmp "
                        "build/tmp/neighbour build/tmp/results/neighbour --stage matmul > build/tmp/neighbour.log 2>&1; "
                        "true", cpus - 1);
    hold_background(0);
    ck_assert_int_eq(hogged, 0);
    char *doc = results("03-openmp", "neighbour"), *log = slurp("build/tmp/neighbour.log");
    ck_assert_msg(doc && log, "no results: %s", log ? log : "(no log)");
    ck_assert_str_eq(reason(doc, "matmul", "correctness"), "ok");
    ck_assert_msg(!strcmp(reason(doc, "matmul", "speed"), "not-judged"), "speed: %s\n%s", reason(doc, "matmul", "speed"),
                  log);
    ck_assert_msg(!strcmp(verdict_in_log(log, "matmul"), "BUSY") && !strstr(log, "no-speedup") &&
                  (strstr(log, "Given that time back") || strstr(log, "OpenBLAS dgemm itself gains only")), "%s", log);
    free(doc);
    free(log);
}
END_TEST

/* Ubuntu's gcc fortifies stdio and string calls by default (-D_FORTIFY_SOURCE): printf becomes
 * __printf_chk. Printing for debugging must pass the audit there as on Debian: lab 01 graded with
 * fortification on, a correct submission that prints once. */
START_TEST(test_audit_allows_fortified_printing)
{
    const char *lab = "build/tmp/fortify/lab/01-cpu-matvec", *work = "build/tmp/fortify/work";
    ck_assert_int_eq(sh("rm -rf build/tmp/fortify && mkdir -p build/tmp/fortify/lab %s/01-cpu-matvec && "
                        "cp -r grading/01-cpu-matvec build/tmp/fortify/lab/ && "
                        "sed -i 's/^cflags *=.*/& -D_FORTIFY_SOURCE=2/' %s/thresholds.conf", work, lab), 0);
    FILE *f = fopen("build/tmp/fortify/work/01-cpu-matvec/matvec.c", "w");
    ck_assert_ptr_nonnull(f);
    fputs("#include <stdio.h>\n"
          "static void product(int m, int n, const double *A, const double *x, double *y)\n"
          "{\n"
          "    static int said;\n"
          "    if (!said++) printf(\"debug: m = %d, n = %d\\n\", m, n);\n"
          "    for (int i = 0; i < m; i++) {\n"
          "        double s = 0;\n"
          "        for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];\n"
          "        y[i] = s;\n"
          "    }\n"
          "}\n"
          "#include \"planted/entry_points.h\"\n", f);
    fclose(f);
    /* the test means something only if the compiler really calls the checked form */
    ck_assert_int_eq(sh("gcc -std=c11 -O3 -D_FORTIFY_SOURCE=2 -I%s -c %s/01-cpu-matvec/matvec.c -o build/tmp/fortify/m.o && "
                        "nm -u build/tmp/fortify/m.o | grep -q __printf_chk", lab, work), 0);
    char extra[256];
    snprintf(extra, sizeof extra, "--lab-dir %s --stage contiguous", lab); /* the stage checked below */
    grade("01-cpu-matvec", work, "fortify", extra);
    char *doc = results("01-cpu-matvec", "fortify");
    ck_assert_msg(!strcmp(reason(doc, "contiguous", "correctness"), "ok"), "fortified printf: %s (see build/tmp/fortify.log)",
                  reason(doc, "contiguous", "correctness"));
    /* and what it printed is shown under the stage */
    char *log = slurp("build/tmp/fortify.log");
    ck_assert_msg(log && strstr(log, "contiguous: your code printed") && strstr(log, "| debug: m = "), "%s", log);
    free(log);
    free(doc);
}
END_TEST

/* Lab 05 counts what create makes and traces what run queues through --wrap wrappers: the
 * reference's runner, built here without a GPU, calls every wrapped function only through them. */
START_TEST(test_lab05_runner_calls_cuda_only_through_the_wrappers)
{
    if (access("solutions/05-streams/streams.cu", R_OK) || !getenv("NVCC_FOUND") || !*getenv("NVCC_FOUND")) {
        printf("05-streams wrappers: skipped: %s\n", access("solutions/05-streams/streams.cu", R_OK) ? "no solutions/" : "no CUDA toolkit");
        return;
    }
    if (access("build/scratch/solutions/05-streams/runner", X_OK)) /* built already by the reference's test */
        grade("05-streams", "solutions", "wraps-05", "");
    ck_assert_int_eq(sh("sh tests/wraps-bound.sh build/scratch/solutions/05-streams/runner grading/05-streams/thresholds.conf "
                        "> build/tmp/wraps-05.txt 2>&1"), 0);
}
END_TEST

/* make profile: perf stat over one stage's timed run, each counter explained; a clear message
 * where perf is missing; an unknown stage named with the lab's stages. */
START_TEST(test_profile_explains_counters_or_says_why_not)
{
    const char *work = access("solutions/01-cpu-matvec/matvec.c", R_OK) == 0 ? "solutions" : "labs";
    int rc = sh(MAKE " --no-print-directory profile LAB=01 STAGE=contiguous WORK=%s > build/tmp/profile.log 2>&1", work);
    char *log = slurp("build/tmp/profile.log");
    if (strstr(log, "perf is not installed")) {
        printf("make profile: skipped: perf is not installed here\n");
    } else if (!strcmp(work, "solutions")) {
        ck_assert_msg(rc == 0 && strstr(log, "GFLOP/s") && strstr(log, "task-clock") && strstr(log, "cache-misses"),
                      "status %d:\n%s", rc, log);
    }
    free(log);
    ck_assert_int_eq(sh(MAKE " --no-print-directory profile LAB=01 STAGE=nosuch > build/tmp/profile.log 2>&1") != 0, 1);
    log = slurp("build/tmp/profile.log");
    ck_assert_msg(strstr(log, "has no stage 'nosuch'") && strstr(log, "rows contiguous unrolled"), "%s", log);
    free(log);
}
END_TEST

/* The objects the Makefile gives flags of their own (the bandwidth probes, the scorer's fills and
 * references) are built with them: a rule that expanded CFLAGS when it was defined once dropped
 * them, and the scorer's seeded sums ran 2.3x slower unnoticed. */
START_TEST(test_harness_objects_get_their_own_flags)
{
    ck_assert_int_eq(sh(MAKE " --no-print-directory -n -B build/common/proto.o build/common/problems.o build/common/calib.o "
                         "2>&1 | grep -- ' -c common/' > build/tmp/own-flags.txt"), 0);
    ck_assert_msg(sh("test $(grep -c -- '-O3 -march=native' build/tmp/own-flags.txt) -eq 3") == 0, "%s",
                  slurp("build/tmp/own-flags.txt"));
}
END_TEST

/* The GPU timer holds the stream until a call is queued, and a call's own cudaDeviceSynchronize lets
 * the hold go (common/runner/gpu_kernels.cu): tests/gpu/timer_hold.cu times both, and a call whose
 * unwrapped wait sits the hold out, on the device; without one it says it skipped. */
START_TEST(test_gpu_timer_hold_is_released_by_a_calls_sync)
{
    const char *found = getenv("NVCC_FOUND");
    if ((found && !*found) || access("build/tests/gpu-timer-hold", X_OK) != 0) {
        printf("GPU timer's hold: skipped: no CUDA toolkit\n");
        return;
    }
    int rc = sh("build/tests/gpu-timer-hold > build/tmp/gpu-timer-hold.log 2>&1");
    char *log = slurp("build/tmp/gpu-timer-hold.log");
    ck_assert_ptr_nonnull(log);
    printf("%s", log);
    ck_assert_msg(rc == 0 && (strstr(log, "skipped: no CUDA device") || strstr(log, "released: ok")), "status %d:\n%s", rc, log);
    free(log);
}
END_TEST

/* make profile on a GPU lab: Nsight Compute over the stage's timed case, in the runner's sandbox;
 * on a GPU every figure is read from ncu's page (none "not measured": ncu 2025.3's page outgrew the
 * first reader) and lab 04's `strided` shows its shared-memory bank conflicts, with the reference's
 * recorded figures beside them; without a GPU the reason is said and the exit is not 0. */
START_TEST(test_profile_of_a_gpu_lab)
{
    const char *found = getenv("NVCC_FOUND");
    if ((found && !*found) || (!found && sh("command -v nvcc > /dev/null 2>&1") != 0)) {
        printf("make profile of a GPU lab: skipped: no CUDA toolkit\n");
        return;
    }
    if (access("solutions/04-warp-reduction/reduce.cu", R_OK) != 0) {
        printf("make profile of a GPU lab: skipped: no solutions/ (a student kit)\n");
        return;
    }
    int rc = sh(MAKE " --no-print-directory profile LAB=04 STAGE=strided WORK=solutions > build/tmp/profile-gpu.log 2>&1");
    char *log = slurp("build/tmp/profile-gpu.log");
    ck_assert_ptr_nonnull(log);
    if (access("/dev/nvidiactl", F_OK) != 0) {
        ck_assert_msg(rc != 0 && strstr(log, "runs Nsight Compute on a GPU"), "status %d:\n%s", rc, log);
        printf("make profile of a GPU lab: skipped: no CUDA device\n");
    } else if (strstr(log, "ERR_NVGPUCTRPERM")) {
        printf("make profile of a GPU lab: skipped: the driver keeps the GPU's counters for administrators here\n");
    } else {
        ck_assert_msg(rc == 0 && strstr(log, "kernel 0: void tree_kernel<1>") && strstr(log, "the reference's, as recorded") &&
                          strstr(log, "shared-load bank conflicts") && !strstr(log, "not measured") &&
                          strstr(log, "short_scoreboard"),
                      "status %d:\n%s", rc, log);
    }
    free(log);
}
END_TEST

START_TEST(test_bench_prints_sizes_and_compiler_study)
{
    /* MAX_MIB: the gigabyte rows of this machine's bench skipped, the compiler study at the largest
     * size under the cap (a minute less of make check) */
    ck_assert_int_eq(sh(MAKE " bench LAB=01 STAGE=unrolled WORK=solutions MAX_MIB=64 > build/tmp/bench.log 2>&1"), 0);
    char *log = slurp("build/tmp/bench.log");
    ck_assert_ptr_nonnull(strstr(log, "compiler study"));
    ck_assert_msg(strstr(log, "  -O0      m=2048 n=2048 ") && strstr(log, "skipped: over MAX_MIB=64") &&
                  strstr(log, "the largest bench size under it"), "%s", log);
    ck_assert_ptr_nonnull(strstr(log, "m=128 n=128"));
    ck_assert_ptr_nonnull(strstr(log, "columns: ")); /* every column explained */
    ck_assert_ptr_null(strstr(log, "wrong"));
    ck_assert_ptr_null(strstr(log, " rows ")); /* STAGE=unrolled: that stage alone */
    free(log);
}
END_TEST

/* make emulate: a CUDA lab's kernels on the CPU. The starter's stage is wrong, said with its first
 * wrong element, and make fails; STAGE= checks that stage alone; the reference passes; a lab with no
 * emulator, or a stage that is not one, is a usage error named as such. */
START_TEST(test_emulate_names_the_first_wrong_element_and_fails)
{
    if (sh("command -v g++ >/dev/null && command -v python3 >/dev/null")) {
        printf("make emulate: skipped: g++ or python3 is not installed here\n");
        return;
    }
    int rc = sh(MAKE " emulate LAB=09 STAGE=three_pass > build/tmp/emulate-starter.log 2>&1");
    char *log = slurp("build/tmp/emulate-starter.log");
    ck_assert_msg(rc != 0 && log && strstr(log, "three_pass m=1 n=1: 1 wrong") && strstr(log, "first: out[0][0] = ") &&
                  strstr(log, "expected 1") && !strstr(log, "\nwarp "), "exit %d:\n%s", rc, log ? log : "(no log)");
    free(log);
    if (access("solutions/09-softmax/softmax.cu", R_OK) == 0) {
        rc = sh(MAKE " emulate LAB=09 WORK=solutions STAGE=registers > build/tmp/emulate-reference.log 2>&1");
        log = slurp("build/tmp/emulate-reference.log");
        ck_assert_msg(rc == 0 && log && strstr(log, ": 0 failures"), "exit %d:\n%s", rc, log ? log : "(no log)");
        free(log);
    }
    /* Blocks run three at a time and drift apart (emu.h): a look-back that reads its predecessors'
     * states without waiting for them to be published (the reference with its wait taken out) is
     * caught, within six tries (each about 3 s; it was never caught while blocks ran one at a time). */
    if (access("solutions/10-scan/scan.cu", R_OK) == 0) {
        ck_assert_int_eq(sh("mkdir -p build/tmp/emulate-nowait/10-scan && sed 's/while (__any_sync(FULL, (unsigned)(s >> 32) "
                            "== NOTHING));/while (0);/' solutions/10-scan/scan.cu > build/tmp/emulate-nowait/10-scan/scan.cu && "
                            "grep -q 'while (0);' build/tmp/emulate-nowait/10-scan/scan.cu"), 0);
        int caught = 0, tries = 0;
        while (!caught && tries++ < 6) {
            rc = sh(MAKE " emulate LAB=10 WORK=build/tmp/emulate-nowait STAGE=lookback > build/tmp/emulate-nowait.log 2>&1");
            log = slurp("build/tmp/emulate-nowait.log");
            caught = rc != 0 && log && strstr(log, "lookback n=") && strstr(log, " wrong");
            free(log);
        }
        ck_assert_msg(caught, "a look-back that does not wait passed make emulate 6 times (build/tmp/emulate-nowait.log)");
    }
    rc = sh(MAKE " emulate LAB=09 STAGE=bogus > build/tmp/emulate-bogus.log 2>&1");
    log = slurp("build/tmp/emulate-bogus.log");
    ck_assert_msg(rc != 0 && log && strstr(log, "no stage named bogus; the stages: three_pass warp online registers"), "%s",
                  log ? log : "(no log)");
    free(log);
    rc = sh(MAKE " emulate LAB=01 > build/tmp/emulate-cpu.log 2>&1");
    log = slurp("build/tmp/emulate-cpu.log");
    ck_assert_msg(rc != 0 && log && strstr(log, "has no CPU emulator (labs with one: 04 05 06 07 08 09 10 11)"), "%s", log ? log : "(no log)");
    free(log);
}
END_TEST

/* One of lab 04's sanitizer plants (instructors' copies only) under `make emulate`, its stage alone
 * on the checker's edge sizes (EMU_QUICK), with `env` before make: its exit status, the log in *log.
 * -1 (said) where g++, python3 or the plant is missing. */
static int emulate_sanitizer_plant(const char *name, const char *stage, const char *env, char **log)
{
    char plant[200];
    snprintf(plant, sizeof plant, "grading/04-warp-reduction/sanitize/%s.cu", name);
    if (sh("command -v g++ >/dev/null && command -v python3 >/dev/null") || access(plant, F_OK)) {
        printf("make emulate of %s: skipped: g++, python3 or %s missing\n", name, plant);
        return -1;
    }
    ck_assert_int_eq(sh("rm -rf build/tmp/emulate-%s && mkdir -p build/tmp/emulate-%s/04-warp-reduction && "
                        "cp %s build/tmp/emulate-%s/04-warp-reduction/reduce.cu", name, name, plant, name), 0);
    int rc = sh("EMU_QUICK=1 %s " MAKE " emulate LAB=04 STAGE=%s WORK=build/tmp/emulate-%s > build/tmp/emulate-%s.log 2>&1",
                env, stage, name, name);
    char path[200];
    snprintf(path, sizeof path, "build/tmp/emulate-%s.log", name);
    *log = slurp(path);
    return rc;
}

/* An uninitialised shared read, which compute-sanitizer cannot see (its initcheck follows global
 * memory only), shows in the emulator, where every block's shared memory starts as NaN: lab 04's
 * sanitizer plant of that kind fails its stage there. */
START_TEST(test_emulate_shows_an_uninitialised_shared_read)
{
    char *log = NULL;
    int rc = emulate_sanitizer_plant("uninit_shared", "sequential", "", &log);
    if (rc < 0) return;
    ck_assert_msg(rc != 0 && log && strstr(log, "sequential n=257: wrong") && strstr(log, "nan"), "exit %d:\n%s", rc,
                  log ? log : "(no log)");
    free(log);
}
END_TEST

/* A __syncthreads some threads of a block skip hangs in the emulator as it may on a GPU, and is
 * named when the call's time runs out (lab 04's sanitizer plant of that kind). */
START_TEST(test_emulate_names_a_divergent_barrier)
{
    char *log = NULL;
    int rc = emulate_sanitizer_plant("divergent_barrier", "strided", "EMU_TIMEOUT=2", &log);
    if (rc < 0) return;
    ck_assert_msg(rc != 0 && log && strstr(log, "did not finish in time: stage strided at n=1") &&
                  strstr(log, "a __syncthreads() that the rest of their block never reaches"), "exit %d:\n%s", rc,
                  log ? log : "(no log)");
    free(log);
}
END_TEST

/* make emulate of a lab's reference on one stage (ARGS: STAGE=, SIZE=, with any environment before
 * it in ENV), which must pass; then of a copy of the reference file FILE changed by the sed script
 * EDIT, written under build/tmp/TAG, whose exit status is returned and its log left in *log. The edit
 * must have changed the file: MUST_GO, a fixed string, is then found nowhere in the copy. */
static int emulate_reference_then(const char *lab, const char *file, const char *env, const char *args,
                                  const char *tag, const char *edit, const char *must_go, char **log)
{
    int rc = sh("%s " MAKE " emulate LAB=%.2s WORK=solutions %s > build/tmp/%s-reference.log 2>&1", env, lab, args, tag);
    char path[300];
    snprintf(path, sizeof path, "build/tmp/%s-reference.log", tag);
    *log = slurp(path);
    ck_assert_msg(rc == 0 && *log && strstr(*log, ": 0 failures"), "exit %d:\n%s", rc, *log ? *log : "(no log)");
    free(*log);
    ck_assert_int_eq(sh("rm -rf build/tmp/%s && mkdir -p build/tmp/%s/%s && sed %s solutions/%s/%s > build/tmp/%s/%s/%s && "
                        "! grep -qF '%s' build/tmp/%s/%s/%s", tag, tag, lab, edit, lab, file, tag, lab, file, must_go, tag, lab,
                        file), 0);
    rc = sh("%s " MAKE " emulate LAB=%.2s WORK=build/tmp/%s %s > build/tmp/%s.log 2>&1", env, lab, tag, args, tag);
    snprintf(path, sizeof path, "build/tmp/%s.log", tag);
    *log = slurp(path);
    return rc;
}

/* make emulate on lab 05: streams queue their work, which runs only when the host waits, in a
 * shuffled order that keeps a stream's order and its events (scripts/emu/emu_streams.h). The
 * reference's matvec passes; with its cudaStreamWaitEvent taken out, the kernels of streams 1 to 3
 * may run before x is copied in on stream 0, and the stage fails, named (EMU_SEED fixed: the same
 * order each time). About 9 s here. */
START_TEST(test_emulate_catches_a_missing_stream_wait)
{
    if (sh("command -v g++ >/dev/null && command -v python3 >/dev/null") || access("solutions/05-streams/streams.cu", R_OK)) {
        printf("make emulate of lab 05: skipped: g++, python3 or solutions/ missing\n");
        return;
    }
    char *log = NULL;
    int rc = emulate_reference_then("05-streams", "streams.cu", "EMU_SEED=1", "STAGE=matvec", "emulate-nowait-05",
                                    "'/cudaStreamWaitEvent(s->stream\\[i\\], s->x_in, 0);/d'", "x_in, 0)", &log);
    ck_assert_msg(rc != 0 && log && strstr(log, "\nmatvec m=") && strstr(log, " wrong, 0 outside") && !strstr(log, "\npipelined "),
                  "exit %d:\n%s", rc, log ? log : "(no log)");
    free(log);
}
END_TEST

/* make emulate on lab 07 runs the reference's inline PTX (cp.async, ldmatrix, mma.sync) in the
 * layouts of the PTX ISA: its pipelined stage passes at a shape of 2 x 2 partial block tiles. A
 * cp.async copy lands only at the wait_group that completes its group (scripts/emu/emu_ptx.h): with
 * each wait one group too lenient (cp.async.wait_group 1 where 0 is due), the products read shared
 * memory the copies have not reached, and the stage fails, named. About 20 s here (two builds). */
START_TEST(test_emulate_runs_lab07s_ptx_and_shows_a_lenient_cp_async_wait)
{
    if (sh("command -v g++ >/dev/null && command -v python3 >/dev/null") || access("solutions/07-wmma/wmma_gemm.cu", R_OK)) {
        printf("make emulate of lab 07: skipped: g++, python3 or solutions/ missing\n");
        return;
    }
    char *log = NULL;
    int rc = emulate_reference_then("07-wmma", "wmma_gemm.cu", "", "STAGE=pipelined SIZE='m=144 n=272 k=48'",
                                    "emulate-wait-07", "'s/copy_wait<STAGES - 2>/copy_wait<STAGES - 1>/'",
                                    "copy_wait<STAGES - 2>", &log);
    ck_assert_msg(rc != 0 && log && strstr(log, "\npipelined m=144 n=272 k=48: 39168 wrong, 0 outside") &&
                  strstr(log, "first: C[0][0] = "), "exit %d:\n%s", rc, log ? log : "(no log)");
    free(log);
}
END_TEST

/* `make emulate` over every emulated lab's own files (scripts/emu/all.sh): each starter fails with its
 * wrong stages named, each reference passes, each planted file about the result fails. About fifteen
 * minutes of g++ and emulation on a 2-core machine, so with CHECK_ALL=1 only, and not on a GPU machine (the test above covers the emulator's
 * every feature on lab 09 and 10 each time). */
START_TEST(test_emulate_every_starter_reference_and_plant)
{
    const char *all = getenv("CHECK_ALL");
    if (!all || !*all || !strcmp(all, "0")) {
        printf("make emulate over every lab's files: skipped (CHECK_ALL=1 runs it; about fifteen minutes here)\n");
        return;
    }
    if (sh("command -v g++ >/dev/null && command -v python3 >/dev/null") || access("solutions", F_OK)) {
        printf("make emulate over every lab's files: skipped: g++, python3 or solutions/ missing\n");
        return;
    }
    if (sh("nvidia-smi -L 2>/dev/null | grep -q '^GPU'") == 0) { /* a GPU's minutes are for what only it shows */
        printf("make emulate over every lab's files: skipped: a GPU is here (the emulator is for machines without one)\n");
        return;
    }
    int rc = sh("sh scripts/emu/all.sh > build/tmp/emulate-all.log 2>&1");
    char *log = slurp("build/tmp/emulate-all.log");
    ck_assert_msg(rc == 0 && log && strstr(log, " as expected\n"), "exit %d:\n%s", rc, log ? log : "(no log)");
    free(log);
}
END_TEST

/* CHECK_LABS="04" (or full names, space separated) keeps only those labs' end-to-end tests:
 * for a quick run of one lab, e.g. on a GPU machine with a time limit. */
static int wanted(const char *path)
{
    const char *only = getenv("CHECK_LABS");
    if (!only || !*only) return 1;
    char copy[512], *save = NULL;
    snprintf(copy, sizeof copy, "%s", only);
    char lab[256];
    lab_of(path, lab, sizeof lab);
    for (char *w = strtok_r(copy, " ,", &save); w; w = strtok_r(NULL, " ,", &save))
        if (strncmp(lab, w, strlen(w)) == 0) return 1;
    return 0;
}

static void keep_wanted(glob_t *g)
{
    size_t k = 0;
    for (size_t i = 0; i < g->gl_pathc; i++)
        if (wanted(g->gl_pathv[i])) g->gl_pathv[k++] = g->gl_pathv[i];
    g->gl_pathc = k;
}

/* CHECK_PART=k/n: only the k-th of n slices of a list (a GPU lab's tests in parts that each fit
 * one command on a GPU machine); the references and starters run in part 1. */
static void keep_part(glob_t *g, int whole_in_first)
{
    const char *part = getenv("CHECK_PART");
    int k = 1, n = 1;
    if (!part || sscanf(part, "%d/%d", &k, &n) != 2 || n < 1 || k < 1 || k > n) return;
    size_t kept = 0;
    for (size_t i = 0; i < g->gl_pathc; i++)
        if (whole_in_first ? k == 1 : (int)(i % (size_t)n) == k - 1) g->gl_pathv[kept++] = g->gl_pathv[i];
    g->gl_pathc = kept;
}

/* What `make check` grades of the honest and textbook files, unless CHECK_ALL=1 (every one): one
 * honest variant a CPU lab (each is a full grading with every stage timed, 8-23 s here; the rest
 * stay in the studies of docs/BENCHMARKS.md), and the GPU labs' textbook files only where a GPU is
 * (elsewhere they are only built and technique-checked, about 90 s of nvcc that the GPU labs'
 * honest variants cover). Every planted file, reference and starter is always graded. */
/* Every stage of `lab` has a file among g's textbook files (textbook_stage). */
static int textbooks_cover(const glob_t *g, const char *lab)
{
    char names[16][32], l[256], st[64];
    int n = stages(lab, names, 16), covered = 0;
    for (int s = 0; s < n; s++) {
        int found = 0;
        for (size_t i = 0; i < g->gl_pathc && !found; i++)
            found = !strcmp(lab_of(g->gl_pathv[i], l, sizeof l), lab) && textbook_stage(g->gl_pathv[i], st, sizeof st) &&
                    !strcmp(st, names[s]);
        covered += found;
    }
    return n > 0 && covered == n;
}

static void keep_everyday(glob_t *g)
{
    const char *all = getenv("CHECK_ALL");
    if (all && *all && strcmp(all, "0")) return;
    int gpu_here = access("/dev/nvidiactl", F_OK) == 0;
    char lab[256], last[256] = "";
    size_t k = 0;
    /* a CPU lab whose textbook files cover every stage (labs 01 and 03) has its honest variants graded by
     * CHECK_ALL=1 only: each stage's technique written another way is graded already, and a full
     * grading of a threaded lab costs make check half a minute */
    char *covered = calloc(g->gl_pathc + 1, 1);
    if (!covered) return;
    for (size_t i = 0; i < g->gl_pathc; i++)
        covered[i] = strstr(g->gl_pathv[i], "/honest/") && !strstr(g->gl_pathv[i], ".cu") &&
                     textbooks_cover(g, lab_of(g->gl_pathv[i], lab, sizeof lab));
    for (size_t i = 0; i < g->gl_pathc; i++) {
        const char *f = g->gl_pathv[i];
        lab_of(f, lab, sizeof lab);
        if (strstr(f, "/textbook/") && strstr(f, ".cu") && !gpu_here) continue;
        if (covered[i]) continue;
        if (strstr(f, "/honest/") && !strstr(f, ".cu")) {
            if (!strcmp(lab, last)) continue; /* the lab's first (glob sorts) */
            snprintf(last, sizeof last, "%s", lab);
        }
        g->gl_pathv[k++] = g->gl_pathv[i];
    }
    g->gl_pathc = k;
    free(covered);
}

Suite *grading_suite(void)
{
    glob("grading/[0-9][0-9]-*/lab.c", 0, NULL, &lab_dirs);
    glob("grading/[0-9][0-9]-*/planted/*.c", 0, NULL, &planted);
    glob("grading/[0-9][0-9]-*/planted/*.cu", GLOB_APPEND, NULL, &planted);
    glob("grading/[0-9][0-9]-*/honest/*.c", 0, NULL, &honest);
    glob("grading/[0-9][0-9]-*/honest/*.cu", GLOB_APPEND, NULL, &honest);
    glob("grading/[0-9][0-9]-*/textbook/*.c", GLOB_APPEND, NULL, &honest);
    glob("grading/[0-9][0-9]-*/textbook/*.cu", GLOB_APPEND, NULL, &honest);
    keep_wanted(&lab_dirs);
    keep_wanted(&planted);
    keep_wanted(&honest);
    keep_everyday(&honest);
    keep_part(&planted, 0);
    keep_part(&honest, 0);
    sh("mkdir -p build/tmp/results");
    split_planted();
    firsts = lab_dirs; /* the references and starters: in part 1 only */
    keep_part(&firsts, 1);
    char lab[256];
    for (size_t i = 0; i < firsts.gl_pathc; i++) {
        if (is_gpu_lab(lab_of(firsts.gl_pathv[i], lab, sizeof lab))) gpu_firsts[ngpu_firsts++] = firsts.gl_pathv[i];
        else cpu_firsts[ncpu_firsts++] = firsts.gl_pathv[i];
    }
    for (size_t i = 0; i < honest.gl_pathc; i++) {
        if (strstr(honest.gl_pathv[i], ".cu")) gpu_honest[ngpu_honest++] = honest.gl_pathv[i];
        else cpu_honest[ncpu_honest++] = honest.gl_pathv[i];
    }
    start_background();
    Suite *s = suite_create("grading");
    TCase *first = tcase_create("references"), *batch = tcase_create("planted"), *t = tcase_create("end-to-end");
    tcase_add_loop_test(first, test_reference_passes_every_stage, 0, ncpu_firsts);
    tcase_add_loop_test(first, test_starter_fails_every_stage_cleanly, 0, ncpu_firsts);
    tcase_set_timeout(first, 600);
    suite_add_tcase(s, first);
    tcase_add_unchecked_fixture(batch, grade_batch, NULL);
    tcase_add_loop_test(batch, test_planted_submission_in_batch_is_caught, 0, nbatched);
    suite_add_tcase(s, batch);
    tcase_add_loop_test(t, test_planted_submission_is_caught, 0, nalone);
    tcase_add_loop_test(t, test_honest_variant_passes, 0, ncpu_honest);
    tcase_add_test(t, test_make_grade_unknown_lab_lists_labs_and_exits_2);
    if (wanted("grading/04-warp-reduction")) tcase_add_test(t, test_gpu_lab_without_nvcc_is_skipped_with_a_message);
    if (wanted("grading/04-warp-reduction")) tcase_add_test(t, test_sanitize_on_a_cuda_lab_builds_and_the_reference_is_clean);
    if (wanted("grading/04-warp-reduction")) tcase_add_test(t, test_sanitize_names_each_gpu_plant);
    if (wanted("grading/05-streams")) tcase_add_test(t, test_lab05_runner_calls_cuda_only_through_the_wrappers);
    if (wanted("grading/09-softmax")) tcase_add_test(t, test_emulate_names_the_first_wrong_element_and_fails);
    if (wanted("grading/04-warp-reduction")) tcase_add_test(t, test_emulate_shows_an_uninitialised_shared_read);
    if (wanted("grading/04-warp-reduction")) tcase_add_test(t, test_emulate_names_a_divergent_barrier);
    if (wanted("grading/05-streams")) tcase_add_test(t, test_emulate_catches_a_missing_stream_wait);
    if (wanted("grading/07-wmma")) tcase_add_test(t, test_emulate_runs_lab07s_ptx_and_shows_a_lenient_cp_async_wait);
    if (wanted("grading/08-transpose")) tcase_add_test(t, test_emulate_every_starter_reference_and_plant);
    if (wanted("grading/03-openmp")) tcase_add_test(t, test_neighbour_on_a_core_is_not_the_students_failure);
    if (wanted("grading/01-cpu-matvec")) { /* these use lab 01 */
        tcase_add_test(t, test_make_grade_exit_status_and_seed_replay);
        tcase_add_test(t, test_make_grade_one_stage);
        tcase_add_test(t, test_make_help_lists_every_command);
        tcase_add_test(t, test_c_starters_know_size_t);
        tcase_add_test(t, test_missing_and_broken_files_get_a_message);
        tcase_add_test(t, test_bench_prints_sizes_and_compiler_study);
        tcase_add_test(t, test_audit_allows_fortified_printing);
        tcase_add_test(t, test_busy_machine_is_not_the_students_failure);
        tcase_add_test(t, test_sanitize_reports_out_of_bounds_write_at_its_line);
        tcase_add_test(t, test_walkthrough_names_the_next_stage_and_its_task);
        tcase_add_test(t, test_profile_explains_counters_or_says_why_not);
    }
    tcase_set_timeout(t, 600);
    suite_add_tcase(s, t);
    if (wanted("grading/04-warp-reduction")) { /* a case of its own: CK_RUN_CASE=profile runs it alone on a GPU */
        TCase *prof = tcase_create("profile");
        tcase_add_test(prof, test_profile_of_a_gpu_lab);
        tcase_set_timeout(prof, 300);
        suite_add_tcase(s, prof);
    }
    TCase *timer = tcase_create("gpu-timer"); /* CK_RUN_CASE=gpu-timer: it alone, on a GPU */
    tcase_add_test(timer, test_gpu_timer_hold_is_released_by_a_calls_sync);
    tcase_add_test(timer, test_harness_objects_get_their_own_flags);
    suite_add_tcase(s, timer);
    return s;
}

/* The GPU labs' tests, a suite of their own run after every suite that times nothing (main.c):
 * where no GPU is, their builds go on in the background meanwhile, on the core those leave free. */
Suite *gpu_labs_suite(void)
{
    Suite *s = suite_create("gpu-labs");
    TCase *gpu = tcase_create("gpu-labs");
    tcase_add_unchecked_fixture(gpu, grade_gpu_batch, NULL);
    tcase_add_loop_test(gpu, test_gpu_lab_reference_passes_every_stage, 0, ngpu_firsts);
    tcase_add_loop_test(gpu, test_gpu_lab_starter_fails_every_stage_cleanly, 0, ngpu_firsts);
    tcase_add_loop_test(gpu, test_gpu_lab_planted_submission_is_caught, 0, ngpu_batched);
    tcase_add_loop_test(gpu, test_gpu_lab_honest_variant_passes, 0, ngpu_honest);
    tcase_set_timeout(gpu, 1200);
    suite_add_tcase(s, gpu);
    return s;
}
