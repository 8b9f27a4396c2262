/* expect: audit
 * threats: 14 (rows of ../shared/GRADER_THREATS.md)
 * Hands the scan to CUB (cub::DeviceScan::ExclusiveSum, a decoupled look-back scan), its temporary
 * storage carved from work. CUB is templates compiled into the student's own file, so no library
 * missing from the link line stops it; the build does, refusing any header of CUB (as of Thrust,
 * CUTLASS and CuTe: common/audit/build.c, kernel_library). Past that rule, its headers would still
 * bring a static constructor (.init_array) and calls outside allow_calls (cudaSetDevice and
 * cudaGetDeviceCount among its device queries); lab 04's cub_block_reduce.cu, a block-level
 * template, brings neither. */
#include "scan.h"

#include <cub/device/device_scan.cuh>

static void sc(int n, const int *in, int *out, int *work)
{
    size_t bytes = (size_t)n / 2 + 4096; /* work's n / 8 + 1024 ints */
    cub::DeviceScan::ExclusiveSum(work, bytes, in, out, n);
}
#include "planted/entry_points.h"
