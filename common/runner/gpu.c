/* gpu.c - see gpu.h. Linked only into GPU labs' runners. */
#define _GNU_SOURCE
#include "gpu.h"
#include "cuda_check.h"
#include "proto.h"
#include "runner_exit.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>


typedef struct gpu_bufs {
    void *d[LAB_MAX_BUFS];
    lab_buf b[LAB_MAX_BUFS];
    void *initial; /* an INOUT output's initial contents, restored before each call */
} gpu_bufs;

static void *flush_buf;
static size_t flush_bytes;
static unsigned flushes;
/* Under compute-sanitizer (SANITIZE=1): each buffer allocated alone, at its exact size, with no
 * guard zones, so that memcheck itself sees a write past either end and names its line; read once,
 * before the sandbox (the runner's environment is the scorer's, fixed). */
static size_t guard_bytes = GUARD_DOUBLES * sizeof(double);

/* gpu_kernels.cu */
void wb_gpu_timer_init(void);
double wb_gpu_time(void (*f)(void *), void *arg);
void wb_gpu_vary(void *d, int type, size_t n, uint64_t add, double lo, double hi, double quantum);
uint64_t *wb_gpu_secret(void);
void wb_gpu_fill(void *d, int type, size_t n, double v);
void wb_gpu_digest_chunks(const void *d, size_t bytes, uint64_t key, uint64_t *host, size_t nchunks);
void wb_gpu_gather(const void *d, size_t esz, const uint64_t *at, size_t n, void *host);

/* Before the sandbox: create the context, load every kernel (CUDA_MODULE_LOADING=EAGER is set
 * by the scorer), and make the timer's events and flag and the L2-flush buffer. */
static int gpu_init(void)
{
    int dev = 0, l2 = 0;
    const char *tool = getenv(CUDA_TOOL_ENV);
    if (tool && !strcmp(tool, "compute-sanitizer")) guard_bytes = 0;
    CUDA_CHECK(cudaSetDevice(dev));
    CUDA_CHECK(cudaFree(NULL));
    CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    flush_bytes = 4 * (size_t)(l2 > 0 ? l2 : 64 << 20);
    CUDA_CHECK(cudaMalloc(&flush_buf, flush_bytes));
    wb_gpu_timer_init();
    return 0;
}

/* Before the scorer's GO (untimed): the L2 cache flushed by overwriting four times its size. */
static void gpu_prepare(void)
{
    CUDA_CHECK(cudaMemset(flush_buf, (int)(flushes++ & 0xff), flush_bytes));
    CUDA_CHECK(cudaDeviceSynchronize());
}

typedef struct timed_run {
    void (*run)(lab_call *);
    lab_call *c;
} timed_run;

static void call_run(void *a)
{
    timed_run *t = a;
    t->run(t->c);
}

/* One call, timed on the device by wb_gpu_time (all its work on any stream inside). */
static double gpu_time(void (*run)(lab_call *), lab_call *c)
{
    double w0 = now_s();
    double t = wb_gpu_time(call_run, &(timed_run){run, c});
    double wall = now_s() - w0;
    /* The host clock brackets the events; if they disagree the other way, trust the host. */
    return t > wall ? wall : t;
}

const lab_timer gpu_timer = {gpu_init, gpu_time, gpu_prepare, wb_gpu_secret};

void *gpu_buf(const lab_call *c, int i) { return ((gpu_bufs *)c->ctx)->d[i]; }

/* Fresh device buffers, every byte poisoned (0xff: NaN in float and double), each between two
 * guard zones like the host's, inputs uploaded (or, for a seeded case, made here: buffer i as
 * vary_fill(s + i), the scorer's own fill, s in the secret cell). */
void gpu_setup(lab_call *c)
{
    gpu_bufs *g = xcalloc(1, sizeof *g);
    c->p->layout(c->s, g->b);
    for (int i = 0; i < c->p->nbufs; i++) {
        size_t bytes = buf_bytes(&g->b[i]);
        unsigned char *base;
        CUDA_CHECK(cudaMalloc((void **)&base, bytes + 2 * guard_bytes));
        if (guard_bytes) {
            CUDA_CHECK(cudaMemset(base, guard_byte(&g->b[i]), guard_bytes));
            CUDA_CHECK(cudaMemset(base + guard_bytes + bytes, guard_byte(&g->b[i]), guard_bytes));
        }
        g->d[i] = base + guard_bytes;
        CUDA_CHECK(cudaMemset(g->d[i], 0xff, bytes));
        if (is_sent(&g->b[i]) && c->seeded)
            wb_gpu_vary(g->d[i], (int)g->b[i].type, buf_elems(&g->b[i]), (uint64_t)i, c->p->lo, c->p->hi,
                        c->p->quantum);
        else if (is_sent(&g->b[i])) CUDA_CHECK(cudaMemcpy(g->d[i], c->buf[i], bytes, cudaMemcpyHostToDevice));
        if (g->b[i].role == ROLE_INOUT) {
            CUDA_CHECK(cudaMalloc(&g->initial, bytes));
            CUDA_CHECK(cudaMemcpy(g->initial, g->d[i], bytes, cudaMemcpyDeviceToDevice));
        }
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    c->ctx = g;
}

/* The output poisoned on the device with the call's poison value, or for an output with initial
 * contents those contents restored. */
void gpu_pre(lab_call *c)
{
    gpu_bufs *g = c->ctx;
    int o = c->p->out;
    if (g->b[o].role == ROLE_INOUT)
        CUDA_CHECK(cudaMemcpy(g->d[o], g->initial, buf_bytes(&g->b[o]), cudaMemcpyDeviceToDevice));
    else wb_gpu_fill(g->d[o], (int)g->b[o].type, buf_elems(&g->b[o]), c->poison);
    for (int i = 0; i < c->p->nbufs; i++)
        if (g->b[i].role == ROLE_SCRATCH) CUDA_CHECK(cudaMemset(g->d[i], 0xff, buf_bytes(&g->b[i])));
    CUDA_CHECK(cudaDeviceSynchronize());
}

void gpu_post(lab_call *c)
{
    gpu_bufs *g = c->ctx;
    int o = c->p->out;
    cuda_check_student();
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(c->buf[o], g->d[o], buf_bytes(&g->b[o]), cudaMemcpyDeviceToHost));
}

/* The inputs come back to the host buffers, so the scorer can compare them with what it sent
 * (seeded: the runner sends their digests instead, taken before this), and the device guard
 * zones over the host ones, so the scorer sees a write past either end. */
void gpu_teardown(lab_call *c)
{
    gpu_bufs *g = c->ctx;
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < c->p->nbufs; i++) {
        size_t bytes = buf_bytes(&g->b[i]);
        unsigned char *d = g->d[i], *h = c->buf[i];
        if (g->b[i].role == ROLE_IN && !c->seeded) CUDA_CHECK(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost));
        if (guard_bytes) { /* else the host's guards stay as the runner set them */
            CUDA_CHECK(cudaMemcpy(h - guard_bytes, d - guard_bytes, guard_bytes, cudaMemcpyDeviceToHost));
            CUDA_CHECK(cudaMemcpy(h + bytes, d + bytes, guard_bytes, cudaMemcpyDeviceToHost));
        }
        CUDA_CHECK(cudaFree(d - guard_bytes));
    }
    if (g->initial) CUDA_CHECK(cudaFree(g->initial));
    free(g);
    c->ctx = NULL;
}

void gpu_vary(lab_call *c, int buf)
{
    gpu_bufs *g = c->ctx;
    wb_gpu_vary(g->d[buf], (int)g->b[buf].type, buf_elems(&g->b[buf]), 0, c->p->lo, c->p->hi, c->p->quantum);
    CUDA_CHECK(cudaDeviceSynchronize());
}

static uint64_t digest_device(const void *d, size_t bytes, uint64_t key)
{
    size_t nchunks = (bytes + 8 * DIGEST_CHUNK - 1) / (8 * DIGEST_CHUNK);
    uint64_t *h = xmalloc(nchunks * sizeof *h + 1);
    wb_gpu_digest_chunks(d, bytes, key, h, nchunks);
    uint64_t out = digest_chain(h, nchunks, key);
    free(h);
    return out;
}

uint64_t gpu_digest(lab_call *c, int buf, uint64_t key)
{
    gpu_bufs *g = c->ctx;
    return digest_device(g->d[buf], buf_bytes(&g->b[buf]), key);
}

void gpu_gather(lab_call *c, const uint64_t *at, size_t n, void *dst)
{
    gpu_bufs *g = c->ctx;
    int o = c->p->out;
    wb_gpu_gather(g->d[o], elem_bytes(g->b[o].type), at, n, dst);
}
