/* ncu.c - see ncu.h. */
#include "ncu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

const ncu_metric ncu_shown[NCU_SHOWN] = {
    {"gpu__time_duration.sum", "duration", "us", "the kernel's time on the GPU (slower here: ncu replays it to count)"},
    {"dram__throughput.avg.pct_of_peak_sustained_elapsed|gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
     "DRAM throughput", "%",
     "of the memory's peak: 80-90% is as fast as a memory-bound kernel goes"},
    {"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", "memory throughput", "%",
     "of the peak of the busiest memory unit (DRAM, L2, L1 or shared memory)"},
    {"sm__throughput.avg.pct_of_peak_sustained_elapsed", "compute throughput", "%",
     "of the peak of the busiest SM pipeline: high means compute-bound"},
    {"sm__warps_active.avg.pct_of_peak_sustained_active", "achieved occupancy", "%",
     "warps resident on an SM over the most it holds: low leaves few warps to hide latency"},
    {"launch__registers_per_thread", "registers per thread", "",
     "more than 64 at 1024 threads a block, or 128 at 512, and fewer blocks fit on an SM"},
    {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "shared-load bank conflicts", "",
     "extra passes for shared loads whose addresses share a bank (0 is ideal: pad or swizzle)"},
    {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "shared-store bank conflicts", "",
     "the same for stores"},
    {"l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum", "local-memory stores", "bytes",
     "register spills (or an array indexed at run time) written to local memory: 0 is ideal"},
};
const ncu_stall ncu_stalls[NCU_STALLS] = {
    {"long_scoreboard", "waiting for global or local memory: latency not hidden (more loads in flight, more warps)"},
    {"short_scoreboard", "waiting for shared memory or a special function (bank conflicts make it worse)"},
    {"barrier", "waiting at __syncthreads for the rest of the block"},
    {"mio_throttle", "the shared-memory instruction queue is full"},
    {"lg_throttle", "the global-memory instruction queue is full: fewer, wider loads (float4) help"},
    {"math_pipe_throttle", "an arithmetic pipe is busy: compute-bound"},
    {"wait", "a fixed wait after an instruction (dependent arithmetic)"},
    {"not_selected", "ready, but another warp issued: there are warps to spare"},
    {"selected", "issuing an instruction"},
    {"membar", "waiting at a memory fence"},
    {"dispatch_stall", "the dispatcher stalled"},
    {"drain", "draining memory stores at exit"},
    {"imc_miss", "a constant-cache miss"},
    {"no_instruction", "an instruction-cache miss"},
    {"branch_resolving", "resolving a branch target"},
    {"sleeping", "sleeping (__nanosleep)"},
    {"tex_throttle", "the texture queue is full"},
};

/* The fields of one CSV line, in place (quotes removed; a quoted field may hold commas). */
static int csv_fields(char *line, char **field, int max)
{
    int n = 0;
    for (char *c = line; *c && n < max;) {
        if (*c == '"') {
            field[n++] = ++c;
            char *w = c;
            while (*c && !(*c == '"' && c[1] != '"')) *w++ = *c == '"' ? *++c : *c, c++;
            if (*c) c++;
            *w = '\0';
            if (*c == ',') c++;
        } else {
            field[n++] = c;
            c += strcspn(c, ",");
            if (*c) *c++ = '\0';
        }
    }
    return n;
}

double ncu_recorded(const char *text, int kernel, const char *metric)
{
    if (!text) return NAN;
    char want[32];
    snprintf(want, sizeof want, "kernel %d ", kernel);
    const char *at = strstr(text, want);
    while (at && at != text && at[-1] != '\n') at = strstr(at + 1, want);
    if (!at) return NAN;
    const char *end = strstr(at + 1, "\nkernel ");
    size_t len = strcspn(metric, "|"); /* recorded by its first name */
    for (const char *l = strchr(at, '\n'); l && (!end || l < end); l = strchr(l + 1, '\n'))
        if (!strncmp(l + 1, metric, len) && l[1 + len] == ' ') return atof(l + 1 + len);
    return NAN;
}


/* A figure as ncu prints it, thousands separated or not ("1,234.5"). */
static double number(const char *text)
{
    char digits[64];
    size_t n = 0;
    for (const char *c = text; *c && n + 1 < sizeof digits; c++)
        if (*c != ',') digits[n++] = *c;
    digits[n] = '\0';
    return atof(digits);
}

/* Is `head` the metric `names`, or one of its alternatives ("a|b": ncu's name differs by version)? */
static int metric_is(const char *head, const char *names)
{
    size_t len = strlen(head);
    for (const char *n = names; n; n = strchr(n, '|') ? strchr(n, '|') + 1 : NULL)
        if (!strncmp(n, head, len) && (n[len] == '\0' || n[len] == '|')) return 1;
    return 0;
}

/* Microseconds in one `unit` of a duration, as ncu names it ("ns" or "nsecond" by version). */
static double unit_us(const char *unit)
{
    return !strcmp(unit, "ns") || !strcmp(unit, "nsecond") ? 1e-3
           : !strcmp(unit, "ms") || !strcmp(unit, "msecond") ? 1e3
           : !strcmp(unit, "s") || !strcmp(unit, "second")   ? 1e6
                                                             : 1;
}

/* The columns a page may have: ncu 2025.3's four sections and three metrics make 569. */
#define NCU_COLUMNS 4096

int ncu_read(const char *csv, ncu_kernel *out, int max)
{
    char *text = xstrdup(csv ? csv : ""), *save = NULL, empty[] = "";
    char **head = xmalloc(3 * NCU_COLUMNS * sizeof *head), **unit = head + NCU_COLUMNS, **row = unit + NCU_COLUMNS;
    int nh = 0, n = 0, units = 0, name = -1;
    for (int i = 0; i < NCU_COLUMNS; i++) unit[i] = empty;
    for (char *line = strtok_r(text, "\n", &save); line && n < max; line = strtok_r(NULL, "\n", &save)) {
        if (!nh) { /* the header names "Kernel Name" */
            if (strstr(line, "\"Kernel Name\"")) nh = csv_fields(line, head, NCU_COLUMNS);
            for (int i = 0; i < nh; i++) name = !strcmp(head[i], "Kernel Name") ? i : name;
            continue;
        }
        if (line[0] != '"' || csv_fields(line, row, NCU_COLUMNS) != nh) continue;
        if (!row[0][0] && !units) { /* the units line: no ID */
            memcpy(unit, row, (size_t)nh * sizeof *row);
            units = 1;
            continue;
        }
        ncu_kernel *k = &out[n++];
        snprintf(k->name, sizeof k->name, "%s", name >= 0 ? row[name] : "?");
        for (int m = 0; m < NCU_SHOWN; m++) {
            k->value[m] = NAN;
            for (int i = 0; i < nh && isnan(k->value[m]); i++) {
                if (!metric_is(head[i], ncu_shown[m].name) || !row[i][0]) continue;
                double v = number(row[i]);
                if (!strcmp(ncu_shown[m].unit, "us")) v *= unit_us(unit[i]); /* ncu says ns, us or ms by size */
                k->value[m] = v;
            }
        }
        for (int t = 0; t < 3; t++) k->stall[t] = -1, k->stall_cycles[t] = -1;
        for (int st = 0; st < NCU_STALLS; st++) {
            char want[160];
            snprintf(want, sizeof want, "smsp__average_warps_issue_stalled_%s_per_issue_active.ratio", ncu_stalls[st].reason);
            for (int i = 0; i < nh; i++) {
                if (strcmp(head[i], want) || !row[i][0]) continue;
                double v = number(row[i]);
                for (int t = 0; t < 3; t++)
                    if (v > k->stall_cycles[t]) {
                        for (int u = 2; u > t; u--) k->stall[u] = k->stall[u - 1], k->stall_cycles[u] = k->stall_cycles[u - 1];
                        k->stall[t] = st, k->stall_cycles[t] = v;
                        break;
                    }
            }
        }
    }
    free(text);
    free(head);
    return n;
}
