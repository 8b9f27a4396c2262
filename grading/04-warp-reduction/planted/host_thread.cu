/* expect: audit
 * threats: 6 (rows of ../shared/GRADER_THREATS.md)
 * Returns at once and leaves the launches to a host thread of its own, which would start the
 * kernels after the runner's timing had ended. pthread_create is not an allowed call. */
#include <pthread.h>

#include "reduce.h"
#include "planted/common_kernels.h"

struct job { int n; const float *in; float *out, *work; };

static void *later(void *p)
{
    job *j = (job *)p;
    honest_sum(j->n, j->in, j->out, j->work);
    return NULL;
}

static void sum(int n, const float *in, float *out, float *work)
{
    static job j;
    j = job{n, in, out, work};
    pthread_t t;
    pthread_create(&t, NULL, later, &j);
}

#include "planted/entry_points.h"
