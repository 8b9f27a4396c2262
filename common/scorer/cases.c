/* cases.c - see cases.h: a case's buffers, how they are filled, and the scorer's reference. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases.h"
#include "problems.h"
#include "proto.h"
#include "util.h"

uint64_t case_seed(uint64_t seed, int stage, int which, int trial)
{
    uint64_t key[4] = {seed, (uint64_t)stage, (uint64_t)which, (uint64_t)trial};
    return fnv1a(key, sizeof key, 0);
}


void bufset_init(bufset *s, const lab_problem *p, lab_shape shape)
{
    memset(s, 0, sizeof *s);
    s->p = p;
    p->layout(shape, s->b);
    s->packed_bytes = inputs_bytes(p, shape);
    s->packed = big_take(s->packed_bytes + 1);
    unsigned char *q = s->packed;
    for (int i = 0; i < p->nbufs; i++) {
        if (!is_sent(&s->b[i])) continue;
        s->buf[i] = q;
        q += buf_bytes(&s->b[i]);
    }
    s->nout = buf_elems(&s->b[p->out]);
    s->recv = xmalloc(buf_bytes(&s->b[p->out]));
    s->got = xmalloc(s->nout * sizeof(double));
    s->ref = xmalloc(s->nout * sizeof(double));
    s->bound = xmalloc(s->nout * sizeof(double));
}

/* Buffer i of a case filled from `seed` with the problem's distribution (proto.c's vary_fill, the
 * same function the runner derives a timed call's input with). */
void fill_buf(bufset *s, int i, uint64_t seed)
{
    vary_fill(s->buf[i], s->b[i].type, buf_elems(&s->b[i]), seed, s->p->lo, s->p->hi, s->p->quantum);
}

void bufset_fill(bufset *s, uint64_t seed)
{
    s->seed = seed;
    for (int i = 0; i < s->p->nbufs; i++)
        if (is_sent(&s->b[i])) fill_buf(s, i, seed + (uint64_t)i);
}

void bufset_free(bufset *s)
{
    big_give(s->packed);
    free(s->recv);
    free(s->got);
    free(s->ref);
    free(s->bound);
}

void shape_text(const lab_problem *p, lab_shape s, char *buf, size_t len)
{
    if (p && p->dim_names[0])
        snprintf(buf, len, "n=%d %s=%d %s=%d", s.n, p->dim_names[0], s.m, p->dim_names[2], s.k);
    else if (s.k) snprintf(buf, len, "m=%d n=%d k=%d", s.m, s.n, s.k);
    else if (s.m) snprintf(buf, len, "m=%d n=%d", s.m, s.n);
    else snprintf(buf, len, "n=%d", s.n);
}

void cublas_note(lab_run *r, const lab_problem *p)
{
    snprintf(r->blas_note, sizeof r->blas_note, "cuBLAS %s%s", p->blas,
             strcmp(p->blas, "sgemm") ? ", fp16 in, fp32 accumulate" : ", FP32 without TF32");
}

/* A vendor-library rate measured in this run at shape s (OpenBLAS or cuBLAS), kept for its ceiling. */
void remember_blas(lab_run *r, lab_shape s, double gflops)
{
    for (int i = 0; i < r->nblas; i++)
        if (!memcmp(&r->blas[i].s, &s, sizeof s)) return; /* the first measurement judges every stage */
    if (r->nblas >= (int)(sizeof r->blas / sizeof r->blas[0])) return;
    r->blas[r->nblas].s = s;
    r->blas[r->nblas++].gflops = gflops;
}

static int probe_checks(const lab_problem *p, lab_shape shape)
{
    return LAB.gpu && p->blas && p->probe_flops > 0 && p->flops(shape) > p->probe_flops;
}

/* A correctness case whose reference costs the scorer a second or so (a gigaflop and more, or
 * cuBLAS): its inputs are the same in every stage, and its reference computed once. */
#define COSTLY_FLOPS 1e9
int costly(const lab_problem *p, lab_shape shape)
{
    return probe_checks(p, shape) || p->flops(shape) >= COSTLY_FLOPS;
}

static void probe_reference(grader *g, bufset *s, lab_shape shape);

/* The exact result for the case's inputs, with its bound: the problem's own reference, or for a
 * large GPU gemm, cuBLAS on the same inputs through the GPU probe, which also times cuBLAS at
 * this shape (the ceiling of this run). cuBLAS and the student each meet the float bound, so
 * they may differ by twice it. */
void reference(grader *g, bufset *s, lab_shape shape)
{
    const lab_problem *p = s->p;
    if (!s->shared) {
        if (probe_checks(p, shape)) probe_reference(g, s, shape);
        else p->reference(shape, s->buf, s->ref, s->bound);
        return;
    }
    /* Every stage of the lab sees these inputs (run_correctness): the reference runs once for them. */
    static struct {
        const lab_problem *p;
        lab_shape s;
        uint64_t seed;
        double *ref, *bound;
    } kept[8];
    static int nkept;
    size_t vec = s->nout * sizeof(double);
    for (int i = 0; i < nkept; i++)
        if (kept[i].p == p && !memcmp(&kept[i].s, &shape, sizeof shape) && kept[i].seed == s->seed) {
            memcpy(s->ref, kept[i].ref, vec);
            memcpy(s->bound, kept[i].bound, vec);
            return;
        }
    if (!probe_checks(p, shape)) p->reference(shape, s->buf, s->ref, s->bound);
    else probe_reference(g, s, shape);
    if (nkept < (int)(sizeof kept / sizeof kept[0])) {
        kept[nkept].p = p, kept[nkept].s = shape, kept[nkept].seed = s->seed;
        kept[nkept].ref = xmalloc(vec), kept[nkept].bound = xmalloc(vec);
        memcpy(kept[nkept].ref, s->ref, vec);
        memcpy(kept[nkept++].bound, s->bound, vec);
    }
}

/* cuBLAS on the case's inputs through the GPU probe, which also times cuBLAS at this shape. */
static void probe_reference(grader *g, bufset *s, lab_shape shape)
{
    const lab_problem *p = s->p;
    char probe[1024];
    snprintf(probe, sizeof probe, "%s/common/gpu-probe", g->run->build_dir);
    float *out = xmalloc(2 * s->nout * sizeof *out);
    double gf = gpu_gemm(probe, g->scratch, p->blas, shape.m, shape.n, shape.k, p->alpha, p->beta, s->packed,
                         s->packed_bytes, out);
    if (gf <= 0) die("could not run cuBLAS for the reference (see %s/gemm-probe.txt)", g->scratch);
    double twice = strcmp(p->blas, "hgemm") ? 2 : 4; /* hgemm: tensor cores may truncate (problems.h) */
    for (size_t i = 0; i < s->nout; i++) {
        s->ref[i] = out[i];
        s->bound[i] = twice * fp32_gemm_bound(shape.k, out[s->nout + i]);
    }
    remember_blas(g->run, shape, gf);
    cublas_note(g->run, p);
    free(out);
}

/* The reference at positions at[0..count) of the current inputs: the problem's reference_at, or
 * (a problem with none) the whole reference. */
void reference_at(grader *g, bufset *s, lab_shape shape, const uint64_t *at, size_t count)
{
    if (s->p->reference_at) s->p->reference_at(shape, s->buf, at, count, s->ref, s->bound);
    else reference(g, s, shape);
}
