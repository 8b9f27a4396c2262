/* expect: input-modified
 * threats: 15 (rows of ../shared/GRADER_THREATS.md)
 * A correct scan that then zeroes the input's first element (casting the const away), as if in
 * were its own scratch space. Inputs are compared after every call. */
#include "planted/base.h"

static __global__ void scribble(int *in) { in[0] = 0; }

static void scan_then_scribble(int n, const int *in, int *out, int *work)
{
    sc(n, in, out, work);
    scribble<<<1, 1>>>(const_cast<int *>(in));
}
#define sc scan_then_scribble
#include "planted/entry_points.h"
