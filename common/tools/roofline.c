/* roofline.c - a lab's results drawn as a roofline chart: writes a gnuplot script, which
 * common/tools/roofline.sh runs (`make roofline`, and every `make grade`). Like gradebook.c it reads only
 * what the scorer wrote (results JSON, one test a line) and never runs student code.
 *
 *   roofline OUT.svg RESULTS.json [REFERENCE.json]     the gnuplot script on stdout
 *
 * Axes: arithmetic intensity (FLOP/byte, log) against GFLOP/s (log). Both roofs come from
 * RESULTS.json, measured in its run: the memory roof is stream_gbs (CPU triad or GPU device copy)
 * times intensity, the compute roof is compute_gflops (the fastest vendor-library ceiling of the
 * run; for a bandwidth-bound lab the rate the grader measured for the chart: compute_roof in
 * grade.c). Each timed stage is a point at (GFLOP/s / GB/s, GFLOP/s), labelled with its name and
 * its % of its own ceiling, filled when its speed check passed and open when not; the reference's
 * stages (REFERENCE.json, from `make grade WORK=solutions`) are grey. A lab judged against a
 * pipeline ideal (05: data in host memory, so no intensity means much) gets bars instead: each
 * stage's time per call against the ideal overlapped time and the serial time.
 *
 * Exit 0 with a script, 3 when there is nothing to draw (the message on stderr), 2 on a bad file. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib.h"
#include "util.h"

#define MAX_STAGES 16

typedef struct stage {
    char name[64], reason[64], ceiling[16]; /* reason: why it has no point, or why it was too slow */
    double gflops, gbs, fraction, ceiling_gflops;
    pipeline_times pipe; /* lab 05: the parts of the ideal time */
    int fast; /* the speed check passed */
} stage;

typedef struct results {
    char lab[64], work[256], seed[40], cpu[160], gpu[160], bandwidth[32], compute_source[256];
    double stream_gbs, compute_gflops, threads;
    stage st[MAX_STAGES];
    int n;
} results;

/* ---------------------------------------------------------------- reading a results file */

/* Where the value of "key" starts in text, or NULL. The quote before the key keeps "gflops" from
 * matching "ceiling_gflops". */
static const char *value_of(const char *text, const char *key)
{
    char pat[80];
    snprintf(pat, sizeof pat, "\"%s\": ", key);
    const char *p = strstr(text, pat);
    return p ? p + strlen(pat) : NULL;
}

static double number(const char *text, const char *key)
{
    const char *v = value_of(text, key);
    return v ? atof(v) : 0; /* null (NaN or Inf written by json.c) reads as 0 */
}

/* A string value, unescaped (\uXXXX beyond ASCII becomes '?'); "" when absent. */
static void string(const char *text, const char *key, char *out, size_t len)
{
    const char *v = value_of(text, key);
    size_t n = 0;
    if (v && *v == '"')
        for (v++; *v && *v != '"' && n + 1 < len; v++) {
            char c = *v;
            if (c == '\\' && v[1]) {
                c = *++v;
                if (c == 'n' || c == 't')
                    c = ' ';
                else if (c == 'u') {
                    unsigned u = 0;
                    sscanf(v + 1, "%4x", &u);
                    v += strnlen(v + 1, 4);
                    c = u >= 32 && u < 127 ? (char)u : '?';
                }
            }
            out[n++] = c;
        }
    out[n] = '\0';
}

static stage *find_stage(results *r, const char *name)
{
    for (int i = 0; i < r->n; i++)
        if (!strcmp(r->st[i].name, name)) return &r->st[i];
    if (r->n == MAX_STAGES) return NULL;
    stage *s = &r->st[r->n++];
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name);
    return s;
}

/* One test line: correctness gives the reason a stage has no point; speed gives its numbers. */
static void read_test(results *r, const char *line)
{
    char name[64], check[32], reason[64];
    string(line, "stage", name, sizeof name);
    string(line, "check", check, sizeof check);
    string(line, "reason", reason, sizeof reason);
    stage *s = name[0] ? find_stage(r, name) : NULL;
    if (!s) return;
    if (!strcmp(check, "correctness") && strcmp(reason, "ok")) snprintf(s->reason, sizeof s->reason, "%s", reason);
    if (strcmp(check, "speed")) return;
    if (!s->reason[0] || strcmp(reason, "not-run")) snprintf(s->reason, sizeof s->reason, "%s", reason);
    s->fast = !strcmp(reason, "ok");
    s->gflops = number(line, "gflops");
    s->gbs = number(line, "gbs");
    s->fraction = number(line, "fraction");
    s->pipe.h2d = number(line, "h2d_s");
    s->pipe.kernel = number(line, "kernel_s");
    s->pipe.d2h = number(line, "d2h_s");
    string(line, "ceiling", s->ceiling, sizeof s->ceiling);
    s->ceiling_gflops = number(line, "ceiling_gflops");
}

static int read_results(const char *path, results *r)
{
    memset(r, 0, sizeof *r);
    char *text = read_text(path, 16 << 20), *save = NULL;
    if (!text) return -1;
    char *lab = strstr(text, "\n  \"extra_data\": {"); /* the document's own, after the tests */
    if (!lab) {
        free(text);
        return -1;
    }
    string(lab, "lab", r->lab, sizeof r->lab);
    string(lab, "work", r->work, sizeof r->work);
    string(lab, "seed", r->seed, sizeof r->seed);
    string(lab, "cpu", r->cpu, sizeof r->cpu);
    string(lab, "gpu", r->gpu, sizeof r->gpu);
    string(lab, "bandwidth", r->bandwidth, sizeof r->bandwidth);
    string(lab, "compute_source", r->compute_source, sizeof r->compute_source);
    r->threads = number(lab, "threads");
    r->stream_gbs = number(lab, "stream_gbs");
    r->compute_gflops = number(lab, "compute_gflops");
    *lab = '\0';
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
        if (strstr(line, "\"check\": ")) read_test(r, line);
    free(text);
    return 0;
}

/* ---------------------------------------------------------------- writing gnuplot */

/* A gnuplot string literal. */
static void gp_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') putchar('\\');
        putchar(*s);
    }
    putchar('"');
}

static int has_point(const stage *s) { return s->gflops > 0 && s->gbs > 0; }

/* `set label` lines under the plot, one a line; returns how many. */
static int footnote(int line, const char *text)
{
    printf("set label %d ", 100 + line);
    gp_string(text);
    printf(" at screen 0.01, screen %.3f left font \",10\" tc rgb \"#444444\"\n", 0.012 + 0.028 * line);
    return line + 1;
}

/* A footnote "no <mark> (not timed): rows (wrong), unrolled (build)" naming the stages of r that
 * have nothing drawn, if any; returns the next footnote line. */
static int missing(int line, const results *r, int (*drawn)(const stage *), const char *mark)
{
    char text[1100];
    int used = snprintf(text, sizeof text, "no %s (not timed): ", mark), start = used;
    for (int i = 0; i < r->n && used < (int)sizeof text; i++) {
        if (drawn(&r->st[i])) continue;
        used += snprintf(text + used, sizeof text - used, "%s%s (%s)", used > start ? ", " : "", r->st[i].name,
                         r->st[i].reason[0] ? r->st[i].reason : "not timed");
    }
    return used > start ? footnote(line, text) : line;
}

/* The terminal, the title (lab, what the chart is, the machine, the tree graded) and the key. */
static void preamble(const char *out, const results *r, const char *what)
{
    char title[1024];
    if (r->gpu[0])
        snprintf(title, sizeof title, "%s %s: %s", r->lab, what, r->gpu);
    else
        snprintf(title, sizeof title, "%s %s: %s, %g thread%s", r->lab, what, r->cpu, r->threads,
                 r->threads == 1 ? "" : "s");
    printf("set terminal svg size 1000,700 dynamic noenhanced font \"sans,13\" background rgb \"white\"\n"
           "set encoding utf8\nset output ");
    gp_string(out);
    printf("\nset title ");
    gp_string(title);
    snprintf(title, sizeof title, "%s/, seed %s", r->work, r->seed);
    printf(".\"\\n\".");
    gp_string(title);
    printf("\nset key top left opaque box\nset grid lc rgb \"#dddddd\"\n");
}

/* Two points of a line as a datablock. */
static void segment(const char *name, double x0, double y0, double x1, double y1)
{
    printf("$%s << EOD\n%.9g %.9g\n%.9g %.9g\nEOD\n", name, x0, y0, x1, y1);
}

/* ---------------------------------------------------------------- placing labels */

/* The chart's axes and a rough model of the SVG (the plot area's size in pixels, a character's),
 * so that labels are kept off each other, the points and the roofs. Labels are placed in data
 * coordinates, so a label moved off its point's line is still joined to it by a leader line. */
typedef struct box {
    double x0, y0, x1, y1;
} box;
static struct {
    double x0, x1, y0, y1; /* axis ranges */
    box taken[512];        /* what labels must not cover: labels placed, points, the roofs */
    int ntaken, nlabels;
} chart;
enum { PLOT_W = 890, PLOT_H = 490, CHAR_W = 8, LINE_H = 16, MAX_SHIFT = 4 };

static double px(double x) { return PLOT_W * log(x / chart.x0) / log(chart.x1 / chart.x0); }
static double py(double y) { return PLOT_H * log(y / chart.y0) / log(chart.y1 / chart.y0); }
static double data_x(double p) { return chart.x0 * pow(chart.x1 / chart.x0, p / PLOT_W); }
static double data_y(double p) { return chart.y0 * pow(chart.y1 / chart.y0, p / PLOT_H); }

static int overlaps(box b)
{
    for (int i = 0; i < chart.ntaken; i++) {
        const box *t = &chart.taken[i];
        if (b.x0 < t->x1 && t->x0 < b.x1 && b.y0 < t->y1 && t->y0 < b.y1) return 1;
    }
    return b.x0 < 0 || b.x1 > PLOT_W || b.y0 < 0 || b.y1 > PLOT_H;
}

static void take(box b)
{
    if (chart.ntaken < (int)(sizeof chart.taken / sizeof chart.taken[0])) chart.taken[chart.ntaken++] = b;
}

/* A point's marker, or a roof from (xa, ya) to (xb, yb) as a chain of small boxes. */
static void take_point(double x, double y) { take((box){px(x) - 9, py(y) - 9, px(x) + 9, py(y) + 9}); }
static void take_line(double xa, double ya, double xb, double yb)
{
    double ax = px(xa), ay = py(ya), bx = px(xb), by = py(yb), len = hypot(bx - ax, by - ay);
    for (double t = 0; t <= len; t += 4) {
        double cx = ax + (bx - ax) * t / fmax(len, 1), cy = ay + (by - ay) * t / fmax(len, 1);
        take((box){cx - 3, cy - 3, cx + 3, cy + 3});
    }
}

/* A label beside the point (x, y): on its line, on the preferred `side` (1 right, -1 left) or
 * else the other; failing both, the nearest free line above or below, joined by a leader, or
 * (`optional`) no label. */
static void label(const char *text, double x, double y, int side, const char *colour, int optional)
{
    double w = CHAR_W * (double)strlen(text), cx = px(x), cy = py(y);
    box b = {0};
    int sd = side, dy = 0;
    for (int k = 0; k < 4 * MAX_SHIFT + 2; k++) { /* dy 0, 0, -1, -1, 1, 1, -2 ... on alternate sides */
        if (optional && k == 2) return;
        sd = k % 2 ? -side : side;
        dy = (k / 2 + 1) / 2 * (k / 2 % 2 ? -1 : 1);
        double gap = dy ? 2 * CHAR_W : 12; /* clear of the marker (at most 9 pixels across its middle) */
        b = (box){sd > 0 ? cx + gap : cx - gap - w, cy + dy * LINE_H - LINE_H / 2.0, sd > 0 ? cx + gap + w : cx - gap,
                  cy + dy * LINE_H + LINE_H / 2.0};
        if (!overlaps(b)) break;
        if (k == 4 * MAX_SHIFT + 1) /* nowhere free: on its line, on the preferred side */
            sd = side, dy = 0,
            b = (box){side > 0 ? cx + 12 : cx - 12 - w, cy - LINE_H / 2.0, side > 0 ? cx + 12 + w : cx - 12,
                      cy + LINE_H / 2.0};
    }
    take(b);
    double lx = data_x(sd > 0 ? b.x0 : b.x1), ly = data_y((b.y0 + b.y1) / 2);
    printf("set label %d ", 200 + chart.nlabels++);
    gp_string(text);
    printf(" at %.9g, %.9g %s tc rgb \"%s\"\n", lx, ly, sd > 0 ? "left" : "right", colour);
    if (dy) printf("set arrow from %.9g, %.9g to %.9g, %.9g nohead lw 0.7 lc rgb \"%s\"\n", x, y, lx, ly, colour);
}

/* The timed stages of r as a datablock, "intensity gflops" a line: the fast enough or the too
 * slow ones, or (reference) all. Each point's place is taken, so no label covers it. */
static int points(const char *name, const results *r, int fast, int reference)
{
    int n = 0;
    printf("$%s << EOD\n", name);
    for (int i = 0; i < r->n; i++) {
        const stage *s = &r->st[i];
        if (!has_point(s) || (!reference && s->fast != fast)) continue;
        double x = s->gflops / s->gbs;
        printf("%.9g %.9g\n", x, s->gflops);
        take_point(x, s->gflops);
        n++;
    }
    printf("EOD\n");
    return n;
}

/* Every point's label: the student's on the right with the % of its own ceiling; the
 * reference's on the left, grey, where there is room beside the point (a grey point without one
 * has the student's point of its stage at the same intensity); the fastest first. */
static void labels(const results *r, const results *ref)
{
    for (const results *q = r; q; q = q == r ? ref : NULL) {
        int order[MAX_STAGES], n = 0;
        for (int i = 0; i < q->n; i++)
            if (has_point(&q->st[i])) order[n++] = i;
        for (int a = 1; a < n; a++) /* insertion sort, fastest first */
            for (int b = a; b > 0 && q->st[order[b]].gflops > q->st[order[b - 1]].gflops; b--) {
                int t = order[b];
                order[b] = order[b - 1];
                order[b - 1] = t;
            }
        for (int i = 0; i < n; i++) {
            const stage *s = &q->st[order[i]];
            char text[96];
            if (q == r)
                snprintf(text, sizeof text, "%s %.0f%%", s->name, 100 * s->fraction);
            else
                snprintf(text, sizeof text, "%s", s->name);
            label(text, s->gflops / s->gbs, s->gflops, q == r ? 1 : -1, q == r ? "#1f5fa8" : "#888888", q != r);
        }
    }
}

/* Three significant figures without an exponent: 0.25, 11.6, 3010, 51234. */
static const char *num(double v, char buf[32])
{
    snprintf(buf, 32, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : v >= 1 ? "%.2f" : "%.3g", v);
    return buf;
}

static void range(double *lo, double *hi, double v)
{
    if (!(v > 0) || !isfinite(v)) return;
    *lo = fmin(*lo, v);
    *hi = fmax(*hi, v);
}

/* Whole decades around [lo, hi], with a margin of `pad` times each way. */
static void decades(double lo, double hi, double pad, double *a, double *b)
{
    *a = pow(10, floor(log10(lo / pad)));
    *b = pow(10, ceil(log10(hi * pad)));
}

/* One curve of the plot command, with its title in the key (or none). */
static const char *sep = "plot ";
static void curve(const char *spec, const char *title)
{
    printf("%s%s", sep, spec);
    if (title) {
        printf(" title ");
        gp_string(title);
    } else
        printf(" notitle");
    sep = ", \\\n     ";
}

static int roofline(const char *out, const results *r, const results *ref)
{
    /* The roofs of this run; a run that timed no matrix multiply may have no compute figure, and
     * then the reference's run lends its own (said so in the key). */
    double bw = r->stream_gbs, peak = r->compute_gflops;
    const char *source = r->compute_source, *whose = "";
    if (peak <= 0 && ref && ref->compute_gflops > 0)
        peak = ref->compute_gflops, source = ref->compute_source, whose = " (the reference's run)";
    int blas = 0, timed = 0;
    for (int i = 0; i < r->n; i++) {
        blas |= !strcmp(r->st[i].ceiling, "blas");
        timed |= has_point(&r->st[i]);
    }
    if (bw <= 0 && peak <= 0 && !timed) {
        fprintf(stderr, "no roofline for %s: no ceiling was measured and no stage was timed\n", r->lab);
        return 3;
    }
    /* Axes: whole decades around the points of both runs and the ridge, a margin each way. */
    double xlo = INFINITY, xhi = 0, ylo = INFINITY, yhi = 0, ridge = bw > 0 && peak > 0 ? peak / bw : 0;
    for (const results *q = r; q; q = q == r ? ref : NULL)
        for (int i = 0; i < q->n; i++)
            if (has_point(&q->st[i])) {
                range(&xlo, &xhi, q->st[i].gflops / q->st[i].gbs);
                range(&ylo, &yhi, q->st[i].gflops);
            }
    range(&xlo, &xhi, ridge);
    range(&ylo, &yhi, peak);
    if (xhi == 0) xlo = xhi = 1; /* neither a point nor a ridge: around 1 FLOP/byte */
    decades(xlo, xhi, 3, &chart.x0, &chart.x1);
    range(&ylo, &yhi, bw > 0 && peak <= 0 ? bw * chart.x1 : 0);
    if (yhi == 0) ylo = yhi = peak > 0 ? peak : bw; /* only the roofs */
    decades(ylo, yhi, 3, &chart.y0, &chart.y1);
    double x0 = chart.x0, x1 = chart.x1;

    preamble(out, r, "roofline");
    /* Tic labels as plain numbers (1000000, not 1e+06) where no axis goes below 1. */
    printf("set logscale xy 10\nset xrange [%g:%g]\nset yrange [%g:%g]\nset format x \"%s\"\nset format y \"%s\"\n"
           "set mxtics 10\nset mytics 10\nset clip two\nset bmargin 6.5\n"
           "set xlabel \"arithmetic intensity (FLOP/byte)\"\nset ylabel \"GFLOP/s\"\n",
           x0, x1, chart.y0, chart.y1, x0 >= 1 ? "%.0f" : "%g", chart.y0 >= 1 ? "%.0f" : "%g");
    char text[1024], memory[160] = "", compute[160] = "", nb[32];
    int line = 0;
    if (bw > 0) {
        double xb = ridge > 0 ? ridge : x1;
        segment("memory", x0, bw * x0, xb, bw * xb);
        take_line(x0, bw * x0, xb, bw * xb);
        snprintf(memory, sizeof memory, "memory roof: %s %s GB/s x intensity",
                 r->bandwidth[0] ? r->bandwidth : "bandwidth", num(bw, nb));
    }
    if (peak > 0) {
        segment("compute", ridge > 0 ? ridge : x0, peak, x1, peak);
        take_line(ridge > 0 ? ridge : x0, peak, x1, peak);
        snprintf(compute, sizeof compute, "compute roof: %s GFLOP/s%s", num(peak, nb), whose);
        const char *from = *whose ? " from the reference's run (none measured in this one)" : "";
        snprintf(text, sizeof text, "compute roof%s: %s%s", from, source,
                 blas ? "" : "; measured for this chart: no stage here is judged against it");
        line = footnote(line, text);
    } else
        line = footnote(line, "compute roof: none measured in this run");
    /* Stages written as one chain of adds are also under the chain's own roof (lab_stage.chain). */
    char chain[160] = "", names[96] = "";
    double chain_at = 0;
    for (int i = 0; i < r->n; i++)
        if (!strcmp(r->st[i].ceiling, "chain") && r->st[i].ceiling_gflops > 0) {
            chain_at = fmax(chain_at, r->st[i].ceiling_gflops);
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", names[0] ? ", " : "", r->st[i].name);
        }
    if (chain_at > 0) {
        double xs = bw > 0 ? fmax(x0, chain_at / bw) : x0; /* from where it meets the memory roof */
        segment("chain", xs, chain_at, x1, chain_at);
        take_line(xs, chain_at, x1, chain_at);
        snprintf(chain, sizeof chain, "one chain of adds (%s): %s GFLOP/s", names, num(chain_at, nb));
    }
    int slow = points("slow", r, 0, 0), fast = points("fast", r, 1, 0), nref = ref ? points("ref", ref, 0, 1) : 0;
    int keys = !!memory[0] + !!compute[0] + !!chain[0] + !!slow + !!fast + !!nref;
    take((box){0, PLOT_H - 20 * keys - 12, 450, PLOT_H}); /* the key, top left */
    if (ridge > 0) {
        segment("ridge", ridge, peak, ridge, peak);
        take_point(ridge, peak);
        snprintf(text, sizeof text, "ridge %s FLOP/byte", num(ridge, nb));
        label(text, ridge, peak, 1, "#555555", 0);
    }
    labels(r, ref);
    line = missing(line, r, has_point, "point");
    if (nref) {
        snprintf(text, sizeof text, "grey: %s/, seed %s, timed in its own run%s", ref->work, ref->seed,
                 *whose ? "" : " (the roofs drawn are this run's)");
        line = footnote(line, text);
    }
    if (memory[0]) curve("$memory with lines lw 3 lc rgb \"#d62728\"", memory);
    if (compute[0]) curve("$compute with lines lw 3 lc rgb \"#2ca02c\"", compute);
    if (chain[0]) curve("$chain with lines lw 2 dt 2 lc rgb \"#ff7f0e\"", chain);
    if (ridge > 0) curve("$ridge with points pt 2 ps 1.2 lc rgb \"#555555\"", NULL);
    if (nref) {
        snprintf(text, sizeof text, "%s/ (reference)", ref->work);
        curve("$ref with points pt 7 ps 1.3 lc rgb \"#aaaaaa\"", text);
    }
    snprintf(text, sizeof text, "%s/: speed passed", r->work);
    if (fast) curve("$fast with points pt 7 ps 1.6 lc rgb \"#1f5fa8\"", text);
    snprintf(text, sizeof text, "%s/: speed failed", r->work);
    if (slow) curve("$slow with points pt 6 ps 1.6 lw 2 lc rgb \"#1f5fa8\"", text);
    printf("\n");
    return 0;
}

/* ---------------------------------------------------------------- lab 05: bars against the ideal */

static int has_time(const stage *s) { return s->gflops > 0 && s->fraction > 0 && s->pipe.h2d > 0; }
static double ideal_ms(const stage *s) { return 1e3 * pipeline_ideal(&s->pipe); }
static double serial_ms(const stage *s) { return 1e3 * pipeline_serial(&s->pipe); }
/* ceiling_gflops is the work over the ideal time, so time = ideal / fraction. */
static double time_ms(const stage *s) { return ideal_ms(s) / s->fraction; }

static int bars(const char *out, const results *r, const results *ref)
{
    int timed = 0;
    for (int i = 0; i < r->n; i++) timed |= has_time(&r->st[i]);
    if (!timed) {
        fprintf(stderr, "no chart for %s: no stage was timed\n", r->lab);
        return 3;
    }
    double top = 0; /* the tallest bar or serial mark, with room above for the labels */
    for (const results *q = r; q; q = q == r ? ref : NULL)
        for (int i = 0; i < q->n; i++)
            if (has_time(&q->st[i])) top = fmax(top, fmax(time_ms(&q->st[i]), serial_ms(&q->st[i])));
    preamble(out, r, "time per call against the ideal overlap");
    printf("set key outside right top\nset style fill solid 0.85 border -1\nset boxwidth 0.3\nset yrange [0:%g]\n"
           "set xrange [-0.6:%g]\nset ylabel \"ms per call (lower is better)\"\nset bmargin 7\nset xtics (",
           1.12 * top, r->n - 0.4);
    for (int i = 0; i < r->n; i++) {
        printf("%s", i ? ", " : "");
        gp_string(r->st[i].name);
        printf(" %d", i);
    }
    printf(")\n$work << EOD\n");
    for (int i = 0; i < r->n; i++)
        if (has_time(&r->st[i])) printf("%g %.9g \"%.0f%%\"\n", i - 0.16, time_ms(&r->st[i]), 100 * r->st[i].fraction);
    printf("EOD\n$ref << EOD\n");
    int nref = 0;
    for (int i = 0; i < r->n && ref; i++)
        for (int k = 0; k < ref->n; k++)
            if (!strcmp(ref->st[k].name, r->st[i].name) && has_time(&ref->st[k]))
                printf("%g %.9g\n", i + 0.16, time_ms(&ref->st[k])), nref++;
    printf("EOD\n$ideal << EOD\n"); /* a mark across each stage's pair of bars: x, y, dx, serial y */
    for (int i = 0; i < r->n; i++) {
        const stage *s = &r->st[i];
        if (has_time(s)) printf("%g %.9g 0.7 %.9g\n", i - 0.35, ideal_ms(s), serial_ms(s));
    }
    printf("EOD\n");
    char text[1024];
    int line = footnote(0, "ideal = max(copy in, kernel, copy out), serial = their sum: each timed alone by the "
                           "probe in this run at the timed n; label: % of the ideal");
    line = missing(line, r, has_time, "bar");
    if (nref) {
        snprintf(text, sizeof text, "grey: %s/, seed %s, timed in its own run", ref->work, ref->seed);
        footnote(line, text);
    }
    snprintf(text, sizeof text, "%s/", r->work);
    curve("$work using 1:2 with boxes lc rgb \"#1f5fa8\"", text);
    snprintf(text, sizeof text, "%s/ (reference)", ref ? ref->work : "");
    if (nref) curve("$ref using 1:2 with boxes lc rgb \"#aaaaaa\"", text);
    curve("$ideal using 1:2:3:(0) with vectors nohead lw 3 lc rgb \"#2ca02c\"", "ideal (overlapped)");
    curve("$ideal using 1:4:3:(0) with vectors nohead lw 2 dt 2 lc rgb \"#d62728\"", "serial");
    curve("$work using 1:2:3 with labels offset char 0, 0.8 tc rgb \"#1f5fa8\"", NULL);
    printf("\n");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: roofline OUT.svg RESULTS.json [REFERENCE.json]   (a gnuplot script on stdout)\n");
        return 2;
    }
    static results r, ref;
    if (read_results(argv[2], &r)) {
        fprintf(stderr, "roofline: cannot read %s as a results file\n", argv[2]);
        return 2;
    }
    int have_ref = argc == 4 && read_results(argv[3], &ref) == 0;
    int pipeline = 0;
    for (int i = 0; i < r.n; i++) pipeline |= !strcmp(r.st[i].ceiling, "pipeline");
    return pipeline ? bars(argv[1], &r, have_ref ? &ref : NULL) : roofline(argv[1], &r, have_ref ? &ref : NULL);
}
