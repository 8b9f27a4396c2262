/* checks.c - see checks.h: every check of what came back from a runner, and the words for a
 * runner that ended early. */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "gpu_register.h"
#include "proto.h"
#include "tool.h"
#include "util.h"
#include "verify.h"

int fail(outcome *o, const char *reason, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    o->ok = 0;
    o->reason = reason;
    vsnprintf(o->detail, sizeof o->detail, fmt, ap);
    va_end(ap);
    return -1;
}

int check_guards(const bufset *s, lab_shape shape, const unsigned char *g, outcome *o)
{
    size_t gb = GUARD_DOUBLES * sizeof(double);
    char sh[64];
    shape_text(s->p, shape, sh, sizeof sh);
    for (int i = 0; i < s->p->nbufs; i++)
        for (size_t k = 0; k < 2 * gb; k++)
            if (g[2 * gb * (size_t)i + k] != guard_byte(&s->b[i]))
                return fail(o, "out-of-bounds", "%s: wrote %s %s (the guard zone %s it was overwritten)", sh,
                            k < gb ? "before the start of" : "past the end of", s->b[i].name, k < gb ? "before" : "after");
    return 0;
}

/* A seeded case's inputs: the runner's digest of each input buffer against the scorer's copy. */
int check_input_digests(const bufset *s, lab_shape shape, const uint64_t *dig, uint64_t key, outcome *o)
{
    char sh[64];
    shape_text(s->p, shape, sh, sizeof sh);
    for (int i = 0; i < s->p->nbufs; i++)
        if (s->b[i].role == ROLE_IN && dig[i] != digest_bytes(s->buf[i], buf_bytes(&s->b[i]), key))
            return fail(o, "input-modified", "%s: changed its input %s (inputs are read-only)", sh, s->b[i].name);
    return 0;
}

int recv_inputs_back(runner_proc *p, const bufset *s, lab_shape shape, int *io, outcome *o)
{
    const void *part[LAB_MAX_BUFS];
    size_t len[LAB_MAX_BUFS];
    int which[LAB_MAX_BUFS], n = 0, differs = -1;
    for (int i = 0; i < s->p->nbufs; i++)
        if (s->b[i].role == ROLE_IN) { /* only inputs come back */
            part[n] = s->buf[i];
            len[n] = buf_bytes(&s->b[i]);
            which[n++] = i;
        }
    *io = *io ? *io : runner_recv_same(p, MSG_INPUTS, part, len, n, &differs);
    if (*io || differs < 0) return 0;
    char sh[64];
    shape_text(s->p, shape, sh, sizeof sh);
    return fail(o, "input-modified", "%s: changed its input %s (inputs are read-only)", sh, s->b[which[differs]].name);
}

/* Elements `at` (or all, when at is NULL) of the output in `out` against the reference, which
 * the caller has computed for the current inputs. */
int check_values(bufset *s, lab_shape shape, const void *out, const uint64_t *at, size_t count, double poison,
                        const char *when, outcome *o)
{
    const lab_buf *ob = &s->b[s->p->out];
    size_t bad = 0, first = SIZE_MAX;
    /* on the scorer's cores (a GPU lab's output is up to 2^28 elements, checked after every call
     * fetched whole); the values kept for the diagnosis only where something is wrong */
#pragma omp parallel for schedule(static) reduction(+ : bad) reduction(min : first) if (count > (1u << 18))
    for (size_t k = 0; k < count; k++) {
        size_t i = at ? at[k] : k;
        double g = elem_get(out, ob->type, k);
        if (!(fabs(g - s->ref[i]) <= s->bound[i]) || !isfinite(g)) {
            bad++;
            first = k < first ? k : first;
        }
    }
    if (bad == 0) return 0;
    if (!at)
#pragma omp parallel for schedule(static) if (count > (1u << 18))
        for (size_t k = 0; k < count; k++) s->got[k] = elem_get(out, ob->type, k);
    char sh[64], why[512] = "";
    shape_text(s->p, shape, sh, sizeof sh);
    size_t fi = at ? at[first] : first;
    if (!at) diagnose_output(s->got, s->ref, s->bound, ob->rows, ob->cols, elem_stored(ob->type, poison),
                             LAB.gpu, why, sizeof why);
    return fail(o, "wrong", "%s%s: %zu of %zu %s wrong; first %s[%zu] = %.9g, expected %.9g (|error| must be <= %.3g)%s%s",
                sh, when, bad, count, at ? "checked elements" : "elements", ob->name, fi, elem_get(out, ob->type, first),
                s->ref[fi], s->bound[fi], why[0] ? "\n  likely cause: " : "", why);
}

int check_output(grader *g, bufset *s, lab_shape shape, const void *out, double poison, const char *when,
                        outcome *o)
{
    reference(g, s, shape);
    return check_values(s, shape, out, NULL, s->nout, poison, when, o);
}

/* The end of what the student's code printed (a CUDA error message, say), for a crash report. */
static void output_tail(const char *path, char *buf, size_t len)
{
    char *text = read_text(path, 1 << 20);
    size_t n = text ? strlen(text) : 0;
    const char *start = n > 600 ? text + n - 600 : text;
    snprintf(buf, len, "%s", start && *start ? start : "");
    free(text);
}

/* The sanitizers' report in words: its first line (the kind of bug), the access, and the lines of
 * the student's file on the stack, found with addr2line in the runner binary (non-PIE under the
 * sanitizers, so the addresses printed are the ones in the file). UBSan names the line itself. */
static void sanitizer_summary(const grader *g, char *out, size_t len)
{
    char *text = read_text(g->output, 1 << 20), *save = NULL;
    size_t used = 0;
    int frames = 0, in_stack = 0;
    out[0] = '\0';
    for (char *line = text ? strtok_r(text, "\n", &save) : NULL; line && used + 200 < len; line = strtok_r(NULL, "\n", &save)) {
        char *what = strstr(line, "ERROR: AddressSanitizer: "), *ub = strstr(line, "runtime error: ");
        unsigned long long pc;
        if (ub) { /* UBSan names the line: ".../student.c:12:5: runtime error: ..." */
            const char *at = strstr(line, "/student.");
            at = at && at < ub ? strchr(at, ':') : NULL;
            used += (size_t)snprintf(out + used, len - used, "    %s%.*s%s\n", at ? LAB.source : "",
                                     at ? (int)(ub - at) : 0, at ? at : "", ub);
            in_stack = 1;
        } else if (what) {
            used += (size_t)snprintf(out + used, len - used, "    %s%s\n", what + 7,
                                     strstr(what, "use-after-poison") ? "\n    (\"poison\" here is the grader's guard "
                                     "zone around each array: an access outside the array)" : "");
            in_stack = 1;
        } else if (in_stack && (strstr(line, "READ of size") || strstr(line, "WRITE of size"))) {
            used += (size_t)snprintf(out + used, len - used, "    %.*s\n", (int)strcspn(line, "\n"), line);
        } else if (in_stack && frames < 3 && sscanf(line, " #%*d %*s (%*[^+]+0x%llx)", &pc) == 1) {
            char addr[32], where[1100];
            snprintf(addr, sizeof addr, "0x%llx", pc);
            snprintf(where, sizeof where, "%s/addr2line.txt", g->scratch);
            char *argv[] = {"addr2line", "-f", "-e", (char *)g->runner, addr, NULL};
            char *found = run_tool(argv, where, 10) == 0 ? read_text(where, 4096) : NULL;
            char fn[256] = "", loc[512] = "";
            if (found && sscanf(found, "%255s %511s", fn, loc) == 2 && strstr(loc, "/student.")) {
                used += (size_t)snprintf(out + used, len - used, "    at %s%s in %s\n", LAB.source, strchr(strrchr(loc, '/'), ':'), fn);
                frames++;
            }
            free(found);
        } else if (in_stack && line[0] == '\0') {
            in_stack = 0;
        }
    }
    free(text);
}

/* Is this compute-sanitizer line (after its "========= ") a finding, not its banner or a clean summary? */
static int cuda_finding_line(const char *body)
{
    if (!*body || strspn(body, " ") == strlen(body)) return 0;
    /* ... nor the tool's word on how the program ended (a status other than 0, a signal): the
     * runner's end says that, and a wrong result or a crash is no finding of the tool's */
    static const char *const quiet[] = {"COMPUTE-SANITIZER", "ERROR SUMMARY: 0 ", "RACECHECK SUMMARY: 0 ",
                                        "LEAK SUMMARY: 0 ", "Target application returned an error",
                                        "Error: process didn't terminate successfully"};
    for (size_t i = 0; i < sizeof quiet / sizeof quiet[0]; i++)
        if (!strncmp(body, quiet[i], strlen(quiet[i]))) return 0;
    return 1;
}

int cuda_sanitizer_report(const char *output, const char *tool, const char *source, char *out, size_t len)
{
    static const char mark[] = "========= ";
    char *text = xstrdup(output ? output : ""), *save = NULL;
    size_t used = (size_t)snprintf(out, len, "    compute-sanitizer --tool %s:\n", tool ? tool : "?");
    int finding = 0, backtrace = 0, found = 0;
    for (char *line = strtok_r(text, "\n", &save); line && used + 240 < len; line = strtok_r(NULL, "\n", &save)) {
        char *m = strstr(line, mark);
        if (!m) continue;
        char *body = m + strlen(mark);
        if (!*body || strspn(body, " ") == strlen(body)) { /* a blank report line ends a finding */
            if (finding) backtrace = 1;
            continue;
        }
        if (!cuda_finding_line(body)) continue; /* the banner, a summary of 0 */
        found = 1;
        if (strstr(body, "ERROR SUMMARY:") == body || strstr(body, "RACECHECK SUMMARY:") == body) {
            used += (size_t)snprintf(out + used, len - used, "    %s\n", body);
            continue;
        }
        if (strstr(body, "Saved host backtrace") || strstr(body, "Host Frame:")) backtrace = 1;
        if (backtrace || finding > 6) continue; /* the first finding only; the host's side is the runner's */
        finding++;
        char shown[512], *file = strstr(body, "/student.");
        if (file) { /* ".../scratch/student.cu:42" -> "reduce.cu:42" */
            char *start = file;
            while (start > body && start[-1] != ' ') start--;
            const char *colon = strchr(file, ':');
            snprintf(shown, sizeof shown, "%.*s%s%s", (int)(start - body), body, source, colon ? colon : "");
        } else snprintf(shown, sizeof shown, "%s", body);
        used += (size_t)snprintf(out + used, len - used, "    %.200s\n", shown);
    }
    free(text);
    return found;
}

/* Did AddressSanitizer or UBSan report? (UBSan, inside AddressSanitizer's runtime, may exit with
 * status 1.) compute-sanitizer's report is cuda_sanitizer_finding's. */
static int sanitizer_spoke(const grader *g)
{
    char *text = read_text(g->output, 1 << 20);
    int said = text && (strstr(text, "ERROR: AddressSanitizer") || strstr(text, "runtime error: "));
    free(text);
    return said;
}

int cuda_sanitizer_finding(const grader *g, const char *where, outcome *o)
{
    char report[1400], *text = read_text(g->output, 1 << 20);
    int found = cuda_sanitizer_report(text, g->sanitizer_tool, LAB.source, report, sizeof report);
    free(text);
    if (!found) return 0;
    char was[200] = "";
    if (!o->ok) snprintf(was, sizeof was, "\n  (the case's result: %s)", o->reason);
    o->ok = 1; /* fail() below sets the verdict afresh */
    fail(o, "sanitizer", "%s: compute-sanitizer found a bug (its report, at the line of your file, is below)\n%s%s",
         where, report, was);
    return 1;
}

/* How the runner ended, when it did not send everything. */
void runner_failed(const grader *g, const runner_end *e, const lab_problem *p, lab_shape shape, outcome *o)
{
    char text[256], sh[64];
    runner_end_text(e, text, sizeof text);
    shape_text(p, shape, sh, sizeof sh);
    if (LAB.gpu && g->lim.sanitize && cuda_sanitizer_finding(g, sh, o)) { /* what compute-sanitizer found is the why */
        o->fatal = 1;
        return;
    }
    const char *reason = e->timed_out ? "timeout"
                         : e->signaled && e->sig == SIGSYS ? "forbidden-syscall"
                         : e->signaled && e->sig == SIGXFSZ ? "output-flood"
                         : e->bad_message ? "channel"
                         : e->signaled ? "crash"
                         : e->exited && e->code == 0 ? "no-record"
                                                     : "crash";
    if (!e->timed_out && e->bad_message)
        snprintf(text, sizeof text, "the runner's channel carried a message out of turn or malformed: only the harness "
                                    "may write there (does your code write to file descriptor 4?)");
    if (!e->timed_out && !e->signaled && e->exited && e->code == 0)
        snprintf(text, sizeof text, "the program exited (status 0) in the middle of the test without a result: "
                                    "does your code call exit()?");
    if (e->exited && e->code == RUNNER_NO_SANDBOX) snprintf(text, sizeof text, "the sandbox (seccomp) could not be set up on this machine");
    if (e->exited && e->code == RUNNER_NO_GPU) snprintf(text, sizeof text, "the runner could not initialise the GPU");
    if (e->exited && e->code == RUNNER_FOREIGN_DEVICE_CODE) {
        reason = "foreign-device-code";
        snprintf(text, sizeof text, "registered device code after start-up: only kernels nvcc compiled from your file "
                                    "may run");
    }
    if (e->exited && e->code == RUNNER_CUDA_ERROR) snprintf(text, sizeof text, "stopped by a CUDA error");
    if (e->exited && e->code != 0 && g->lim.sanitize && !LAB.gpu && sanitizer_spoke(g)) {
        reason = "sanitizer";
        snprintf(text, sizeof text, "the sanitizers found a bug (their report, and the lines of your file it points at, "
                                    "are below)");
    }
    if (e->exited && e->code == RUNNER_LEAK) {
        reason = "leak";
        snprintf(text, sizeof text, "destroy left behind what create made (the counts are below)");
    }
    char tail[1400];
    output_tail(g->output, tail, sizeof tail);
    if (!strcmp(reason, "sanitizer")) {
        sanitizer_summary(g, tail, sizeof tail);
        fail(o, reason, "%s: %s\n%s", sh, text, tail);
    } else fail(o, reason, "%s: %s%s%s", sh, text, tail[0] ? "\n  its output ended with:\n" : "", tail);
    /* A bad access: the sanitizers name the line of the student's file where it happened. */
    if (!LAB.gpu && !g->lim.sanitize && e->signaled &&
        (e->sig == SIGSEGV || e->sig == SIGBUS || e->sig == SIGFPE || e->sig == SIGILL)) {
        size_t used = strlen(o->detail);
        snprintf(o->detail + used, sizeof o->detail - used, "\n  to see the line of %s where it happened: make grade "
                 "LAB=%.2s STAGE=%s SANITIZE=1", LAB.source, LAB.id, LAB.stages[g->stage].name);
    }
    o->fatal = 1;
}
