/* ncu.h - what `make profile` shows of a GPU kernel, read from Nsight Compute's raw CSV page (a
 * header line naming each metric, a units line, a row a profiled kernel): the figures that explain
 * a kernel's speed, each with a line on what it means, and the three largest warp-stall reasons.
 * Pure: text in, figures out (bench.c runs ncu and prints them). */
#ifndef NCU_H
#define NCU_H

/* A metric shown: its name in the raw page ("a|b": either, by ncu version; recorded by the first),
 * its label, the unit printed, what it means. */
typedef struct ncu_metric {
    const char *name, *label, *unit, *meaning;
} ncu_metric;
enum { NCU_SHOWN = 9, NCU_STALLS = 17, NCU_KERNELS_MAX = 16 };
extern const ncu_metric ncu_shown[NCU_SHOWN];
/* A stall reason (smsp__average_warps_issue_stalled_<reason>_per_issue_active.ratio: cycles a warp
 * spent so per instruction issued) and what it means. */
typedef struct ncu_stall {
    const char *reason, *meaning;
} ncu_stall;
extern const ncu_stall ncu_stalls[NCU_STALLS];

/* One profiled kernel: its name, ncu_shown's values (NAN where the page has none; durations in
 * microseconds whatever unit the page used), and the three largest stalls (indices into ncu_stalls,
 * -1 past the last found) with their cycles. */
typedef struct ncu_kernel {
    char name[256];
    double value[NCU_SHOWN];
    int stall[3];
    double stall_cycles[3];
} ncu_kernel;

/* The kernels of ncu's `--csv --page raw` output `csv` (NULL: none), at most `max`; their count. */
int ncu_read(const char *csv, ncu_kernel *out, int max);
/* A recorded profile (grading/NN-name/profile/<stage>.txt: "kernel <i> <name>" lines, each followed
 * by "<metric> <value>" lines): the value of `metric` for kernel i, or NAN. */
double ncu_recorded(const char *text, int kernel, const char *metric);

#endif
