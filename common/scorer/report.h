/* report.h - what a grading prints and writes (report.c): the table, a pipeline's timeline, the
 * results file. */
#ifndef REPORT_H
#define REPORT_H

#include <stdio.h>

#include "grade.h"

/* Whether a stage of this lab is judged against the lower of its memory roof and the FP32 peak
 * (lab_problem.fp32_capped). */
int lab_fp32_capped(void);
/* The stage table of the report, its notes and the run's ceilings, to f. */
void report_table(const lab_run *r, FILE *f);
/* A pipeline stage's times against the ideal, the per-stream timeline of its traced call, and how
 * long its copies were under way. */
void report_timeline(const stage_result *s, const char *stage, FILE *f);
/* The results file (JSON: the Gradescope-style tests and every stage's figures) at path; 0 when written. */
int report_json(const lab_run *r, const char *path);

#endif
