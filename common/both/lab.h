/* lab.h - what a lab tells the harness: its problems, its stages, its references and its sizes.
 *
 * A lab is one file, grading/NN-name/lab.c, defining `const lab LAB`. It is compiled twice:
 * into the scorer (which generates inputs, computes the reference and decides the score) and,
 * with LAB_RUNNER defined, into the runner (the only process that calls student code). The stage
 * table is the one list of a lab's stages: the grader, the bench and --list all read it. */
#ifndef LAB_H
#define LAB_H

#include <stddef.h>
#include <stdint.h>

#include "rng.h"

#define LAB_MAX_BUFS 6
#define LAB_MAX_CASES 64

/* Problem dimensions; a problem uses the ones it needs (matvec: m x n; a sum: n). */
typedef struct lab_shape { int m, n, k; } lab_shape;

/* ROLE_INOUT: an output with initial contents (C += A B), restored before each call instead of
 * poisoned. ROLE_SCRATCH: workspace the student's code may use; poisoned before each call, never
 * checked. */
typedef enum { ROLE_IN, ROLE_OUT, ROLE_INOUT, ROLE_SCRATCH } lab_role;
/* F16: IEEE binary16 (C's _Float16, CUDA's __half). I32: int32_t, for exact results (a scan); a value
 * stored into it is rounded to the nearest integer and clamped, NaN stored as INT32_MAX (proto.c). */
typedef enum { F64, F32, F16, I32 } lab_type;

/* One array the student's function reads or writes: rows x cols elements, row-major. */
typedef struct lab_buf {
    const char *name;
    lab_role role;
    lab_type type;
    size_t rows, cols;
} lab_buf;

/* What a stage adaptor sees in the runner: the shape, the host buffers in layout order, and a
 * private pointer for state built by setup (separately allocated rows, device copies). */
typedef struct lab_problem lab_problem;
typedef struct lab_call {
    const lab_problem *p;
    lab_shape s;
    void *buf[LAB_MAX_BUFS];
    void *ctx;
    double poison;       /* the value the output is poisoned with before this call */
    int seeded;          /* device stages of a timed case: the inputs are not in buf[] but made on
                            the device, buffer i as vary_fill(s + i), s read from the runner's
                            secret cell (lab_timer's `secret`) while setup runs, wiped after */
} lab_call;

/* One size to grade. Timed cases are also checked. */
typedef struct lab_case {
    lab_shape s;
    int timed;
} lab_case;

/* A problem: its buffers, its work, its reference and its sizes. Stages of a lab share problems. */
struct lab_problem {
    const char *name; /* "matvec" */
    /* What m, n and k mean where not "m", "n", "k" (lab 05: "streams", "n", "chunks"), for messages. */
    const char *dim_names[3];
    int nbufs;
    int out;  /* index of the output buffer */
    int vary; /* an input redrawn before every timed call (so results can't be cached), or -1 */
    void (*layout)(lab_shape s, lab_buf *b);
    /* Work and compulsory memory traffic of one call, for GFLOP/s, GB/s and the roofline. */
    double (*flops)(lab_shape s);
    double (*bytes)(lab_shape s);
    /* Scorer only: the exact result (in higher precision) and a per-element error bound. The
     * inputs are typed as the layout says; ref and bound have one double per output element. */
    void (*reference)(lab_shape s, void *const *buf, double *ref, double *bound);
    /* Optional, for a costly reference with a varying input: only output positions at[0..count),
     * into ref[at[k]] and bound[at[k]]; timed calls between the first and last are checked there. */
    void (*reference_at)(lab_shape s, void *const *buf, const uint64_t *at, size_t count, double *ref, double *bound);
    /* Optional, for a reduction of a varying input of gigabytes: the reference of a timed call
     * straight from the seed its varying input is made from (proto.h's vary_sum), the input never
     * written on the scorer's side (filling and reading it back cost more than the sum). */
    void (*reference_seeded)(const struct lab_problem *p, lab_shape s, uint64_t seed, double *ref, double *bound);
    /* The roofline ceiling a stage is judged against: the stream bandwidth measured in the run
     * (CPU triad or GPU device copy) times the intensity, or the vendor library measured in the
     * run at the same shape (a practical compute ceiling): OpenBLAS dgemm at the lab's thread
     * count on the CPU, cuBLAS `blas` ("sgemm": FP32, no TF32; "hgemm": fp16 in, fp32 out) on a GPU;
     * or (CEIL_PIPELINE, data in host memory) the work over the ideal overlapped time: the longest of
     * pinned host-to-device copy, the probe's own kernel and device-to-host copy, measured in the run. */
    enum { CEIL_STREAM, CEIL_BLAS, CEIL_PIPELINE } ceiling;
    /* CEIL_STREAM on a GPU, where the work may be bound by arithmetic instead (a convolution with a
     * large filter): the ceiling is the lower of the memory roof and the device's FP32 peak, an FFMA
     * kernel's rate measured in the same run by the probe (two flops an FFMA). */
    int fp32_capped;
    /* GPU: the vendor library's routine for this problem, which `make bench` times beside the stages
     * at each size (common/probes/gpu_probe.cu --vendor: "cub-scan", "cublas-transpose"); NULL: none. */
    const char *vendor;
    const char *blas;
    /* GPU gemm problems: C = alpha A B + beta C. Shapes above `probe_flops` are checked against
     * cuBLAS run by the GPU probe on the same inputs (a CPU reference would take minutes). */
    double alpha, beta, probe_flops;
    /* CEIL_PIPELINE: the probe's kernel is Horner's rule of this degree in float, one element each;
     * or, where matvec_pipeline is set, y = A x in double, A (m x n) and x in, y out. */
    int poly_degree, matvec_pipeline;
    /* Input values: uniform in [lo, hi), rounded to the nearest multiple of `quantum` when it is > 0. */
    double lo, hi, quantum;
    /* The sizes graded this run, drawn from r; timed ones are sized from the machine. */
    int (*cases)(rng *r, size_t llc_bytes, lab_case *out);
    /* The sizes of `make bench`. */
    int (*bench_cases)(size_t llc_bytes, lab_case *out);
};

typedef struct lab_stage {
    const char *name;     /* id used in tables, thresholds.conf and results: "unrolled" */
    const char *function; /* the student's function: "matvec_unrolled" (or several, space separated) */
    const char *what;     /* one line describing the stage */
    const lab_problem *problem;
    void (*setup)(lab_call *c);    /* optional, untimed, once per input set: private copies */
    void (*pre)(lab_call *c);      /* optional, untimed, before every call: e.g. upload the poisoned output */
    void (*run)(lab_call *c);      /* timed: call the student's function once */
    void (*post)(lab_call *c);     /* optional, untimed, after every call: e.g. download the output */
    void (*teardown)(lab_call *c); /* optional, untimed: copy back what the grader checks, free */
    /* Optional, where the stage's buffers live on a device (GPU_STAGE); NULL: the host buffers.
     * vary: write a timed call's varying input (buffer `buf`) where run reads it, from the secret
     * in the runner's secret cell (read there, never passed by value: it is wiped after);
     * digest: buffer `buf`'s digest (digest_bytes) where it is; gather: the output's elements
     * at[0..n). */
    void (*vary)(lab_call *c, int buf);
    uint64_t (*digest)(lab_call *c, int buf, uint64_t key);
    void (*gather)(lab_call *c, const uint64_t *at, size_t n, void *dst);
    /* The buffers live on the device and the hooks above are set (GPU_STAGE): a timed case's inputs
     * are then made there from a seed and come back as digests, not sent through the channel. */
    int on_device;
    /* A stage whose loop is one chain of dependent adds (lab 01's first two: every add waits for
     * the last), the FLOPs each add carries; 0 for none. Its ceiling is then the lower of the
     * problem's and this times the one-chain add rate measured in the run (calib.h): the rate such
     * a loop runs at however fast memory is, which differs from machine to machine. */
    int chain;
    /* ... and a stage whose loop is written as this many independent chains (lab 01's third): judged
     * against memory, it needs no more than `<stage>_over_chain` (thresholds.conf) times one chain's
     * rate where that is lower than its fraction: its point is to break the chain. */
    int chains;
} lab_stage;

/* One operation the student's code queued during a traced call (lab_trace). */
typedef struct trace_event {
    int32_t stream; /* 0: the default stream; 1, 2, ...: the others, numbered as first seen */
    int32_t kind;   /* TRACE_H2D, ... */
    double t0, t1;  /* seconds from the start of the call */
} trace_event;
enum { TRACE_H2D, TRACE_KERNEL, TRACE_D2H, TRACE_OTHER };
#define TRACE_MAX 1024

/* A lab that shows what ran on which stream: after the timed calls, the runner brackets one more
 * call with begin/end and sends the events to the scorer for the report's timeline. */
typedef struct lab_trace {
    void (*begin)(void);
    int (*end)(trace_event *out, int max); /* events recorded since begin, at most max */
} lab_trace;

/* How the runner times one call; NULL in a lab means the CPU clock. GPU labs use gpu_timer. */
typedef struct lab_timer {
    int (*init)(void);                          /* before the sandbox closes; 0 on success */
    double (*time)(void (*run)(lab_call *), lab_call *c); /* seconds, all the call's work included */
    void (*prepare)(void); /* optional, untimed, before the scorer's GO: e.g. flush the L2 cache */
    /* Optional: where the runner receives every seed (SECRET_CELL_BYTES, made by init; a GPU lab's
     * is mapped host memory its kernels read the seed from, so the seed is never a kernel argument
     * the driver would copy). NULL: a static cell in the runner. */
    uint64_t *(*secret)(void);
} lab_timer;
#define SECRET_CELL_BYTES 32

typedef struct lab {
    const char *id;     /* "01-cpu-matvec": the name shared by labs/, solutions/, grading/, handouts/ */
    const char *title;  /* "Matrix-vector product on one core" */
    const char *source; /* the file the student edits, relative to the lab folder: "matvec.c" */
    int threads;        /* threads the lab is timed (and the ceiling measured) with; 0: all the machine's
                           cores. OMP_NUM_THREADS says it to the student's code. */
    int gpu;            /* a CUDA lab: skipped where there is no device or no toolkit */
    const lab_stage *stages;
    int nstages;
    int ranked; /* the first `ranked` stages are variants of one idea: the report ranks them by speed */
    const lab_timer *timer;
    int traced;               /* the runner sends a timeline of one call of each timed stage ... */
    const lab_trace *trace;   /* ... recorded with these (runner only) */
} lab;

extern const lab LAB;

/* In the scorer the stage adaptors (which call student code) are left out: RUNNER_ONLY(f) is NULL. */
#ifdef LAB_RUNNER
#define RUNNER_ONLY(f) f
#else
#define RUNNER_ONLY(f) NULL
#endif

/* A GPU lab's `lab` fields but its names (and `ranked`): run on one host thread, timed by the
 * device's events (gpu_timer, common/runner/gpu.h), its stages the table `t`. Lab 05, which times and
 * traces its calls its own way, sets its fields itself. */
#define GPU_LAB_FIELDS(t) \
    .threads = 1, .gpu = 1, .stages = t, .nstages = sizeof t / sizeof t[0], .timer = RUNNER_ONLY(&gpu_timer)

/* A GPU lab's stage: its buffers staged on the device the standard way (common/runner/gpu.h, which the
 * lab includes when LAB_RUNNER is defined), and `run` calling the student's function. */
#define GPU_STAGE(id, fn, what, problem, run) \
    {id, fn, what, &problem, RUNNER_ONLY(gpu_setup), RUNNER_ONLY(gpu_pre), RUNNER_ONLY(run), RUNNER_ONLY(gpu_post), \
     RUNNER_ONLY(gpu_teardown), RUNNER_ONLY(gpu_vary), RUNNER_ONLY(gpu_digest), RUNNER_ONLY(gpu_gather), 1}

#endif
