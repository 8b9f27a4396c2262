/* proto.c - see proto.h. */
#include "proto.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int msg_send_head(int fd, uint32_t kind, size_t bytes)
{
    msg_head h = {PROTO_MAGIC, kind, bytes};
    return write_all(fd, &h, sizeof h);
}

int msg_recv_head(int fd, uint32_t kind, size_t bytes)
{
    msg_head h;
    if (read_all(fd, &h, sizeof h)) return -1;
    return h.magic != PROTO_MAGIC || h.kind != kind || h.bytes != bytes ? -1 : 0;
}

int msg_send(int fd, uint32_t kind, const void *payload, size_t bytes)
{
    if (msg_send_head(fd, kind, bytes)) return -1;
    return bytes ? write_all(fd, payload, bytes) : 0;
}

int msg_recv(int fd, uint32_t kind, void *payload, size_t bytes)
{
    if (msg_recv_head(fd, kind, bytes)) return -1;
    return bytes ? read_all(fd, payload, bytes) : 0;
}

size_t elem_bytes(lab_type t) { return t == F16 ? 2 : t == F32 || t == I32 ? 4 : sizeof(double); }
size_t buf_elems(const lab_buf *b) { return b->rows * b->cols; }
size_t buf_bytes(const lab_buf *b) { return buf_elems(b) * elem_bytes(b->type); }

int is_sent(const lab_buf *b) { return b->role == ROLE_IN || b->role == ROLE_INOUT; }

static size_t bytes_where(const lab_problem *p, lab_shape s, int inout_too)
{
    lab_buf b[LAB_MAX_BUFS];
    size_t total = 0;
    p->layout(s, b);
    for (int i = 0; i < p->nbufs; i++)
        if (b[i].role == ROLE_IN || (inout_too && b[i].role == ROLE_INOUT)) total += buf_bytes(&b[i]);
    return total;
}

size_t inputs_bytes(const lab_problem *p, lab_shape s) { return bytes_where(p, s, 1); }
size_t back_bytes(const lab_problem *p, lab_shape s) { return bytes_where(p, s, 0); }

unsigned char guard_byte(const lab_buf *b) { return b->role == ROLE_IN ? GUARD_INPUT_BYTE : GUARD_OUTPUT_BYTE; }

size_t guards_bytes(const lab_problem *p) { return (size_t)p->nbufs * 2 * GUARD_DOUBLES * sizeof(double); }

double poison_value(unsigned call) { return call % 2 ? -3.25e30 : NAN; }

void poison_fill(void *p, lab_type t, size_t n, unsigned call)
{
    double v = poison_value(call);
    for (size_t i = 0; i < n; i++) elem_set(p, t, i, v);
}

double elem_get(const void *p, lab_type t, size_t i)
{
    switch (t) {
    case F16: return (double)((const _Float16 *)p)[i];
    case F32: return (double)((const float *)p)[i];
    case I32: return (double)((const int32_t *)p)[i];
    default: return ((const double *)p)[i];
    }
}

/* gpu_kernels.cu's store does the same on the device, bit for bit. */
int32_t to_i32(double v)
{
    if (isnan(v) || v >= 2147483647.0) return INT32_MAX;
    if (v <= -2147483648.0) return INT32_MIN;
    return (int32_t)nearbyint(v);
}

void elem_set(void *p, lab_type t, size_t i, double v)
{
    if (t == F16) ((_Float16 *)p)[i] = (_Float16)v;
    else if (t == F32) ((float *)p)[i] = (float)v;
    else if (t == I32) ((int32_t *)p)[i] = to_i32(v);
    else ((double *)p)[i] = v;
}

double elem_stored(lab_type t, double v)
{
    unsigned char one[8];
    elem_set(one, t, 0, v);
    return elem_get(one, t, 0);
}

/* splitmix64's finaliser: a bijection that mixes every bit into every bit. */
uint64_t digest_mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* x / quantum is computed as x * inverse where quantum is a power of two (the same number
 * exactly, and far faster); inverse is 0 otherwise. */
static inline double vary_scaled(uint64_t seed, uint64_t i, double lo, double hi, double quantum, double inverse)
{
    uint64_t z = digest_mix(seed ^ digest_mix(i + 0x9e3779b97f4a7c15ull));
    double x = lo + (hi - lo) * ((double)(z >> 11) * 0x1.0p-53);
    return quantum > 0 ? nearbyint(inverse > 0 ? x * inverse : x / quantum) * quantum : x;
}

static double exact_inverse(double quantum)
{
    int e;
    return quantum > 0 && frexp(quantum, &e) == 0.5 ? 1 / quantum : 0;
}

double vary_value(uint64_t seed, uint64_t i, double lo, double hi, double quantum)
{
    return vary_scaled(seed, i, lo, hi, quantum, 0);
}

/* Element by element from (seed, i), so in parallel where OpenMP is on (the scorer's copy: a GPU
 * lab's inputs are gigabytes; the runner's is built without it). */
void vary_fill(void *p, lab_type t, size_t n, uint64_t seed, double lo, double hi, double quantum)
{
    double inv = exact_inverse(quantum);
    if (t == F64) {
        double *d = p;
#pragma omp parallel for schedule(static) if (n > (1u << 20))
        for (size_t i = 0; i < n; i++) d[i] = vary_scaled(seed, i, lo, hi, quantum, inv);
    } else if (t == F32) {
        float *f = p;
#pragma omp parallel for schedule(static) if (n > (1u << 20))
        for (size_t i = 0; i < n; i++) f[i] = (float)vary_scaled(seed, i, lo, hi, quantum, inv);
    } else if (t == I32) {
        int32_t *d = p;
#pragma omp parallel for schedule(static) if (n > (1u << 20))
        for (size_t i = 0; i < n; i++) d[i] = to_i32(vary_scaled(seed, i, lo, hi, quantum, inv));
    } else {
        _Float16 *h = p;
#pragma omp parallel for schedule(static) if (n > (1u << 20))
        for (size_t i = 0; i < n; i++) h[i] = (_Float16)vary_scaled(seed, i, lo, hi, quantum, inv);
    }
}

double vary_sum(lab_type t, size_t n, uint64_t seed, double lo, double hi, double quantum)
{
    double inv = exact_inverse(quantum), sum = 0;
    /* `simd` lets the sum be reordered: exact for multiples of a quantum (every partial sum is),
     * and far inside any bound otherwise */
    if (t == F64) {
#pragma omp parallel for simd schedule(static) reduction(+ : sum) if (n > (1u << 20))
        for (size_t i = 0; i < n; i++) sum += vary_scaled(seed, i, lo, hi, quantum, inv);
    } else if (t == F32) {
#pragma omp parallel for simd schedule(static) reduction(+ : sum) if (n > (1u << 20))
        for (size_t i = 0; i < n; i++) sum += (double)(float)vary_scaled(seed, i, lo, hi, quantum, inv);
    } else if (t == I32) {
#pragma omp parallel for simd schedule(static) reduction(+ : sum) if (n > (1u << 20))
        for (size_t i = 0; i < n; i++) sum += (double)to_i32(vary_scaled(seed, i, lo, hi, quantum, inv));
    } else {
#pragma omp parallel for simd schedule(static) reduction(+ : sum) if (n > (1u << 20))
        for (size_t i = 0; i < n; i++) sum += (double)(_Float16)vary_scaled(seed, i, lo, hi, quantum, inv);
    }
    return sum;
}

uint64_t digest_word(const unsigned char *p, size_t bytes, size_t q)
{
    uint64_t w = 0;
    size_t at = q * 8;
    if (at + 8 <= bytes) memcpy(&w, p + at, 8);
    else if (at < bytes) memcpy(&w, p + at, bytes - at);
    return w;
}

uint64_t digest_chunk(const unsigned char *p, size_t bytes, size_t chunk, uint64_t key)
{
    size_t words = (bytes + 7) / 8;
    uint64_t g = digest_mix(key ^ chunk);
    for (unsigned lane = 0; lane < DIGEST_LANES; lane++) {
        uint64_t h = digest_mix(key + chunk * DIGEST_LANES + lane);
        for (size_t t = 0; t < DIGEST_CHUNK / DIGEST_LANES; t++) {
            size_t q = chunk * DIGEST_CHUNK + t * DIGEST_LANES + lane;
            if (q < words) h = digest_mix(h ^ digest_word(p, bytes, q));
        }
        g = digest_mix(g ^ h);
    }
    return g;
}

uint64_t digest_chain(const uint64_t *chunk_hash, size_t nchunks, uint64_t key)
{
    uint64_t h = digest_mix(key);
    for (size_t c = 0; c < nchunks; c++) h = digest_mix(h ^ chunk_hash[c]);
    return h;
}

/* The chunks hashed in parallel where OpenMP is on (the scorer checks outputs of hundreds of
 * megabytes; the runner's copy is built without it). */
uint64_t digest_bytes(const void *p, size_t bytes, uint64_t key)
{
    size_t nchunks = (bytes + 8 * DIGEST_CHUNK - 1) / (8 * DIGEST_CHUNK);
    uint64_t *h = malloc(nchunks * sizeof *h + 1), out;
#pragma omp parallel for schedule(static) if (nchunks > 8)
    for (size_t c = 0; c < nchunks; c++) h[c] = digest_chunk(p, bytes, c, key);
    out = digest_chain(h, nchunks, key);
    free(h);
    return out;
}

int digest_in_done(const lab_problem *p, size_t out_bytes)
{
    return !(p->ceiling == CEIL_PIPELINE && out_bytes > DIGEST_HOST_MAX);
}
