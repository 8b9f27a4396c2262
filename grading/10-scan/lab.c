/* lab.c - lab 10: the exclusive prefix sum of n ints, from one block scanning tile after tile
 * (Hillis-Steele, Blelloch, warp shuffles) to many blocks (scan-then-propagate) and one pass with
 * decoupled look-back. Judged against the device's copy bandwidth measured in the same run. See
 * common/both/lab.h for the fields. */
#include <stdint.h>

#include "lab.h"
#include "scan.h"
#ifdef LAB_RUNNER
#include "gpu.h"
#endif

enum { SIN, SOUT, SWORK };

static void layout(lab_shape s, lab_buf *b)
{
    b[SIN] = (lab_buf){"in", ROLE_IN, I32, 1, (size_t)s.n};
    b[SOUT] = (lab_buf){"out", ROLE_OUT, I32, 1, (size_t)s.n};
    b[SWORK] = (lab_buf){"work", ROLE_SCRATCH, I32, 1, (size_t)s.n / 8 + 1024};
}

/* No arithmetic to speak of: the table's "GFLOP/s" counts elements (G elements/s). The ideal
 * reads each once and writes each once, 8 bytes, so the ceiling is copy bandwidth / 8; a scan that
 * reads its input twice (scan-then-propagate) pays for it against that ideal. */
static double elements(lab_shape s) { return (double)s.n; }
static double bytes(lab_shape s) { return 8.0 * s.n; }

/* Exact: integer sums, in 64 bits (every one fits in an int: see `lo` and `hi` below). */
/* On the scorer's cores, as the students' scans work: each core sums its part, the parts' sums are
 * scanned, then each core scans its part from its offset (a 2^28-element check after every call
 * fetched whole took 0.7 s on one core of an H100's host: docs/BENCHMARKS.md). */
#define REF_PARTS 64
static void reference(lab_shape s, void *const *buf, double *ref, double *bound)
{
    const int32_t *in = buf[SIN];
    size_t n = (size_t)s.n;
    int64_t offset[REF_PARTS + 1] = {0};
#pragma omp parallel for schedule(static) if (n > (1u << 20))
    for (int t = 0; t < REF_PARTS; t++) {
        int64_t sum = 0;
        for (size_t i = n * t / REF_PARTS; i < n * (t + 1) / REF_PARTS; i++) sum += in[i];
        offset[t + 1] = sum;
    }
    for (int t = 0; t < REF_PARTS; t++) offset[t + 1] += offset[t];
#pragma omp parallel for schedule(static) if (n > (1u << 20))
    for (int t = 0; t < REF_PARTS; t++) {
        int64_t sum = offset[t];
        for (size_t i = n * t / REF_PARTS; i < n * (t + 1) / REF_PARTS; i++) {
            ref[i] = (double)sum;
            bound[i] = 0;
            sum += in[i];
        }
    }
}

/* Tile sizes students choose run from 32 to a few thousand elements, so: one element, either side
 * of a warp, of 1024 and 2048 (a block's threads, or twice that), of 4096; a size with many tiles
 * and a ragged end; a random one. */
static const int small_sizes[] = {1, 2, 31, 32, 33, 1023, 1024, 1025, 2047, 2048, 2049, 4095, 4097, 100003};

/* One block walks the whole array: up to a few million elements, timed at 2^22 (16 MiB each way;
 * one block moves a few tens of GB/s at most, so a call takes milliseconds). */
static int one_block_cases(rng *r, size_t l2, lab_case *out)
{
    int n = 0;
    for (size_t i = 0; i < sizeof small_sizes / sizeof *small_sizes; i++) out[n++] = (lab_case){{0, small_sizes[i], 0}, 0};
    out[n++] = (lab_case){{0, rng_int(r, 1, 3000000), 0}, 0};
    out[n++] = (lab_case){{0, 1 << 22, 0}, 1};
    (void)l2;
    return n;
}

/* Many blocks: also 2^24 + 1 (more tiles than one tile of 4096 can hold totals of: a second level
 * of totals is not enough for tiles of up to 4096), and 2^26 timed: 256 MiB each way, five times
 * an H100's or H200's L2, whose prefixes pass 2^24 (a float offset is wrong there). Timed calls
 * check their outputs as cases do (every call the verdict counts is fetched whole and checked),
 * with inputs made on the device. It was 2^28 - 1 (1 GiB each way): the many-block stages then
 * spent 13-14 s each moving and checking outputs, and the reference's figures differ by 2 points
 * (docs/BENCHMARKS.md, "The twenty-eighth session"); a call of a quarter of a millisecond still
 * leaves the launches' few microseconds out of the figure. */
static int many_block_cases(rng *r, size_t l2, lab_case *out)
{
    int n = 0;
    for (size_t i = 0; i < sizeof small_sizes / sizeof *small_sizes; i++) out[n++] = (lab_case){{0, small_sizes[i], 0}, 0};
    out[n++] = (lab_case){{0, rng_int(r, 1, 30000000), 0}, 0};
    out[n++] = (lab_case){{0, (1 << 24) + 1, 0}, 0};
    out[n++] = (lab_case){{0, 1 << 26, 0}, 1};
    (void)l2;
    return n;
}

static int one_block_sweep(size_t l2, lab_case *out)
{
    for (int i = 0; i < 4; i++) out[i] = (lab_case){{0, 1 << (16 + 2 * i), 0}, 1};
    (void)l2;
    return 4;
}

/* From an array that fits in L2 to one far beyond it. */
static int many_block_sweep(size_t l2, lab_case *out)
{
    for (int i = 0; i < 6; i++) out[i] = (lab_case){{0, 1 << (18 + 2 * i), 0}, 1};
    (void)l2;
    return 6;
}

/* Inputs: integers from -6 to 7 (uniform in [-6, 7) rounded to the nearest). Their mean is 1/2,
 * so a prefix of 2^26 reaches about 2^25: past 2^24, where a float stops counting in ones (a scan
 * in float is wrong there); and 2^28 of them sum to at most 7 x 2^28 < 2^31: no int overflows. */
#define SCAN_PROBLEM(id, what, cases_fn, sweep_fn)                                                               \
    static const lab_problem id = {                                                                              \
        .name = what, .nbufs = 3, .out = SOUT, .vary = SIN, .layout = layout,         \
        .flops = elements, .bytes = bytes, .reference = reference, .lo = -6, .hi = 7, .quantum = 1,               \
        .cases = cases_fn, .bench_cases = sweep_fn, .vendor = "cub-scan",                                       \
    }
SCAN_PROBLEM(one_block, "scan", one_block_cases, one_block_sweep);
SCAN_PROBLEM(many_blocks, "scan", many_block_cases, many_block_sweep);

#ifdef LAB_RUNNER
#define RUN(name) \
    static void name##_run(lab_call *c) { scan_##name(c->s.n, gpu_buf(c, SIN), gpu_buf(c, SOUT), gpu_buf(c, SWORK)); }
RUN(hillis_steele)
RUN(blelloch)
RUN(warp)
RUN(multiblock)
RUN(lookback)
#endif

#define STAGE(id, problem, what) GPU_STAGE(#id, "scan_" #id, what, problem, id##_run)

static const lab_stage stages[] = {
    STAGE(hillis_steele, one_block, "one block, tile after tile: Hillis-Steele steps in shared memory"),
    STAGE(blelloch, one_block, "one block: the work-efficient up-sweep and down-sweep, padded against bank conflicts"),
    STAGE(warp, one_block, "one block: warp-shuffle scans, then the warps' totals"),
    STAGE(multiblock, many_blocks, "many blocks: scan the tiles, scan their totals, add each tile's offset"),
    STAGE(lookback, many_blocks, "one pass: each tile's offset from its predecessors (decoupled look-back)"),
};

const lab LAB = {
    .id = "10-scan",
    .title = "CUDA: exclusive prefix sum, from one block to one pass",
    .source = "scan.cu",
    GPU_LAB_FIELDS(stages),
    .ranked = 5,
};
