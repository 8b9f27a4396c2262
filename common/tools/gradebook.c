/* gradebook.c - turn the grader's results files into what a course's tools read. It reads only
 * what the scorer wrote (results.json, one test a line, common/scorer/json.c); it never runs student
 * code and never parses a table.
 *
 *   gradebook csv OUT.csv DIR...        one row per student folder DIR, named by it (its
 *                                       results/ or itself: <lab>.json files and an optional
 *                                       status.txt), a column per lab and stage, a total per lab
 *                                       and overall
 *   gradebook autolab FILE.json...      one line, {"scores": {"<stage>": points, ...}} (keys
 *                                       "<lab>/<stage>" when there are several labs): Autolab's
 *   gradebook gradescope OUT FILE.json  one results.json for Gradescope: every lab's tests,
 *                                       names prefixed by the lab, scores summed */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define MAX_COLS 256

typedef struct column {
    char lab[64], stage[64];
} column;

/* A results file's per-test lines: name "<stage>: <check>", score and max_score. */
typedef struct test_line {
    char stage[64];
    double score, max;
    const char *line; /* the whole line, for gradescope */
} test_line;

static int parse_test(const char *line, test_line *t)
{
    const char *n = strstr(line, "{\"name\": \""), *sc = strstr(line, "\"score\": "), *mx = strstr(line, "\"max_score\": ");
    if (!n || !sc || !mx) return -1;
    n += strlen("{\"name\": \"");
    size_t len = strcspn(n, ":\"");
    if (len == 0 || len >= sizeof t->stage) return -1;
    memcpy(t->stage, n, len);
    t->stage[len] = '\0';
    t->score = atof(sc + strlen("\"score\": "));
    t->max = atof(mx + strlen("\"max_score\": "));
    t->line = line;
    return 0;
}

/* The lab id of a results file: its name without the folder and ".json". */
static void lab_of(const char *path, char *lab, size_t len)
{
    const char *base = strrchr(path, '/');
    snprintf(lab, len, "%s", base ? base + 1 : path);
    char *dot = strstr(lab, ".json");
    if (dot) *dot = '\0';
}

/* Calls f for every test line of a results file; returns -1 if it can't be read. */
static int each_test(const char *path, void (*f)(const test_line *, void *), void *arg)
{
    char *text = read_text(path, 16 << 20), *save = NULL;
    if (!text) return -1;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        test_line t;
        if (parse_test(line, &t) == 0) f(&t, arg);
    }
    free(text);
    return 0;
}

/* ---------------------------------------------------------------- csv */

typedef struct book {
    column cols[MAX_COLS];
    int ncols;
    char lab[64];
    double *cells; /* per student row, per column: points (NaN: absent) */
} book;

static int find_col(book *b, const char *lab, const char *stage, int add)
{
    for (int i = 0; i < b->ncols; i++)
        if (!strcmp(b->cols[i].lab, lab) && !strcmp(b->cols[i].stage, stage)) return i;
    if (!add || b->ncols >= MAX_COLS) return -1;
    snprintf(b->cols[b->ncols].lab, sizeof b->cols[0].lab, "%s", lab);
    snprintf(b->cols[b->ncols].stage, sizeof b->cols[0].stage, "%s", stage);
    return b->ncols++;
}

static void add_col(const test_line *t, void *arg)
{
    book *b = arg;
    find_col(b, b->lab, t->stage, 1);
}

static void add_points(const test_line *t, void *arg)
{
    book *b = arg;
    int c = find_col(b, b->lab, t->stage, 0);
    if (c >= 0) b->cells[c] = (b->cells[c] != b->cells[c] ? 0 : b->cells[c]) + t->score;
}

static int is_results(const struct dirent *e)
{
    size_t n = strlen(e->d_name);
    return n > 8 && !strcmp(e->d_name + n - 5, ".json") && e->d_name[0] >= '0' && e->d_name[0] <= '9';
}

static int opendir_ok(const char *path)
{
    DIR *d = opendir(path);
    if (d) closedir(d);
    return d != NULL;
}

/* A CSV field: quoted, with quotes doubled, so any student name or message is safe. */
static void csv_field(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
    }
    fputc('"', f);
}

static int csv(const char *out, int n, char **dirs)
{
    static book b;
    for (int pass = 0; pass < 2; pass++) {
        FILE *f = pass ? fopen(out, "w") : NULL;
        if (pass && !f) return -1;
        if (pass) { /* the header, once every student's columns are known */
            fputs("student,status", f);
            for (int c = 0; c < b.ncols; c++) {
                if (c == 0 || strcmp(b.cols[c].lab, b.cols[c - 1].lab)) fprintf(f, ",\"%s total\"", b.cols[c].lab);
                fprintf(f, ",\"%s/%s\"", b.cols[c].lab, b.cols[c].stage);
            }
            fputs(",total\n", f);
        }
        for (int s = 0; s < n; s++) {
            char dir[1024];
            size_t dl = strlen(dirs[s]);
            while (dl > 1 && dirs[s][dl - 1] == '/') dl--; /* "students/ann/" is ann */
            snprintf(dir, sizeof dir, "%.*s", (int)dl, dirs[s]);
            char sub[1100];
            snprintf(sub, sizeof sub, "%s/results", dir);
            const char *from = opendir_ok(sub) ? sub : dir; /* a grade-all student folder, or a results folder */
            double cells[MAX_COLS];
            for (int c = 0; c < MAX_COLS; c++) cells[c] = 0.0 / 0.0;
            b.cells = cells;
            struct dirent **list = NULL;
            int k = scandir(from, &list, is_results, alphasort);
            for (int i = 0; i < k; i++) {
                char path[2048];
                snprintf(path, sizeof path, "%s/%s", from, list[i]->d_name);
                lab_of(path, b.lab, sizeof b.lab);
                each_test(path, pass ? add_points : add_col, &b);
                free(list[i]);
            }
            free(list);
            if (!pass) continue;
            const char *name = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
            char path[2048], *status;
            snprintf(path, sizeof path, "%s/status.txt", from);
            status = read_text(path, 4096);
            if (status) status[strcspn(status, "\n")] = '\0';
            csv_field(f, name);
            fputc(',', f);
            csv_field(f, status ? status : "graded");
            free(status);
            double total = 0;
            for (int c = 0; c < b.ncols; c++) {
                if (c == 0 || strcmp(b.cols[c].lab, b.cols[c - 1].lab)) {
                    double lab_total = 0;
                    int any = 0;
                    for (int d = c; d < b.ncols && !strcmp(b.cols[d].lab, b.cols[c].lab); d++)
                        if (cells[d] == cells[d]) lab_total += cells[d], any = 1;
                    if (any) fprintf(f, ",%g", lab_total);
                    else fputs(",", f);
                    total += lab_total;
                }
                if (cells[c] == cells[c]) fprintf(f, ",%g", cells[c]);
                else fputs(",", f);
            }
            fprintf(f, ",%g\n", total);
        }
        if (pass && fclose(f)) return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- autolab and gradescope */

typedef struct emit {
    FILE *f;
    const char *lab;
    int several, first;
    double total;
} emit;

static void autolab_score(const test_line *t, void *arg)
{
    emit *e = arg;
    /* One key per stage: the correctness and speed lines follow each other in the file. */
    static char last[160];
    char key[160];
    snprintf(key, sizeof key, "%s%s%s", e->several ? e->lab : "", e->several ? "/" : "", t->stage);
    if (!e->first && !strcmp(key, last)) {
        e->total += t->score;
        return;
    }
    if (!e->first) fprintf(e->f, "%g, ", e->total);
    fprintf(e->f, "\"%s\": ", key);
    snprintf(last, sizeof last, "%s", key);
    e->total = t->score;
    e->first = 0;
}

static void gradescope_test(const test_line *t, void *arg)
{
    emit *e = arg;
    const char *rest = strstr(t->line, "{\"name\": \"") + strlen("{\"name\": \"");
    size_t len = strlen(rest);
    while (len && (rest[len - 1] == ',' || rest[len - 1] == ' ')) len--;
    fprintf(e->f, "%s    {\"name\": \"%s %.*s", e->first ? "" : ",\n", e->lab, (int)len, rest);
    e->total += t->score;
    e->first = 0;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && !strcmp(argv[1], "csv")) return csv(argv[2], argc - 3, argv + 3) ? 1 : 0;
    if (argc >= 3 && !strcmp(argv[1], "autolab")) {
        emit e = {stdout, NULL, argc > 3, 1, 0};
        printf("{\"scores\": {");
        for (int i = 2; i < argc; i++) {
            char lab[128];
            lab_of(argv[i], lab, sizeof lab);
            e.lab = lab;
            if (each_test(argv[i], autolab_score, &e)) fprintf(stderr, "gradebook: cannot read %s\n", argv[i]);
        }
        if (!e.first) printf("%g", e.total);
        printf("}}\n");
        return 0;
    }
    if (argc >= 4 && !strcmp(argv[1], "gradescope")) {
        FILE *f = fopen(argv[2], "w");
        if (!f) return 1;
        emit e = {f, NULL, 1, 1, 0};
        fprintf(f, "{\n  \"tests\": [\n");
        for (int i = 3; i < argc; i++) {
            char lab[128];
            lab_of(argv[i], lab, sizeof lab);
            e.lab = lab;
            if (each_test(argv[i], gradescope_test, &e)) fprintf(stderr, "gradebook: cannot read %s\n", argv[i]);
        }
        fprintf(f, "\n  ],\n  \"score\": %.6g\n}\n", e.total);
        return fclose(f) ? 1 : 0;
    }
    fprintf(stderr, "usage: gradebook csv OUT.csv DIR... | autolab FILE.json... | gradescope OUT.json FILE.json...\n");
    return 2;
}
