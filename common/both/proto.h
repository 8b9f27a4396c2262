/* proto.h - the private channel between the scorer and the runner.
 *
 * The scorer writes to the runner's fd 3 and reads the runner's fd 4; the student's stdout and
 * stderr go to a capped file that nobody parses. Every message is a header and a payload.
 *
 * One runner serves a session: every case of one stage, one after another. A case starts with
 * CASE (a job). Correctness: per trial INPUT, answered by OUTPUT, GUARDS and INPUTS. Timed: INPUT
 * (the inputs that stay; for a stage on a device, their seed instead, from which the runner
 * makes them there), answered by READY; then per call SEED (the call's secret: the varying
 * input is derived from it, so nothing can be computed before it is revealed; with it the key of
 * the call's digest, drawn apart from it), answered by STAGED; GO, answered by DONE (the runner's own time and a digest of the whole output, which
 * commits it before any position is chosen); FETCH (positions chosen by the scorer after the
 * call, or the whole output), answered by SAMPLES or OUTPUT (or, where the scorer gave the
 * runner an output window, PROTO_WINDOW_FD, by OUTPUT_WINDOW: the output is there, and the scorer
 * copies it out once before reading any of it). The scorer's clock runs from GO to
 * the answer to FETCH, so a call is over, for the scorer, only when its results are in hand.
 * FINISH ends the timed calls: GUARDS, INPUTS and, in a traced lab, TRACE. Every case ends with
 * CASE_DONE. A timed case starts in a fresh runner, and its first calls are empty (the runner does
 * everything but call the student's code): their round trip, timed before any student code has
 * run in that process, is how far below the scorer's own time a runner's figure may be believed;
 * more empty calls after the timed ones can only lower that figure (the lower of the two is used).
 * Every seed reaches the runner only in its secret cell (runner.c), wiped with the stack before
 * the student's code runs. Nothing the runner says is believed unchecked: the runner's time is used only where
 * it agrees with the scorer's, and a digest that does not match the output fetched later means
 * the call said it was done before its result existed. */
#ifndef PROTO_H
#define PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "lab.h"
#include "runner_exit.h" /* how a runner that stops on its own says why */

#define PROTO_MAGIC 0x4c425731u /* "1WBL" */
#define PROTO_IN_FD 3
#define PROTO_OUT_FD 4
/* A timed case's output window, where the scorer made one (sandbox.c, runner_start): a shared
 * memory file of exactly the output's size, which the runner writes a whole output into instead of
 * the channel (a pipe moved 512 MiB at 1.6-1.8 GB/s on an H200's host: 0.3 s a fetch). */
#define PROTO_WINDOW_FD 7
/* Guard zone on each side of every buffer, in doubles (one page), every byte guard_byte(b). */
#define GUARD_DOUBLES 512


enum msg_kind {
    MSG_CASE = 1, MSG_INPUT, MSG_SEED, MSG_GO, MSG_FETCH, MSG_FINISH,                 /* scorer -> runner */
    MSG_READY, MSG_STAGED, MSG_DONE, MSG_OUTPUT, MSG_SAMPLES, MSG_GUARDS, MSG_INPUTS, /* runner -> scorer */
    MSG_TRACE, MSG_CASE_DONE,
    MSG_OUTPUT_WINDOW, /* runner -> scorer, no payload: the whole output is in the window */
};

typedef struct msg_head {
    uint32_t magic, kind;
    uint64_t bytes;
} msg_head;

typedef struct job {
    uint32_t stage;
    lab_shape s;
    uint32_t timed;   /* 0: `trials` calls, each on fresh inputs; 1: timed calls, one SEED each */
    uint32_t trials;  /* correctness trials */
    int32_t vary;     /* the input derived from each timed call's SEED (the problem's, or -1: none) */
    int32_t threads;  /* OpenMP threads for this case (0: leave as started) */
    uint32_t seeded;  /* timed, device stage: INPUT carries a seed s (8 bytes), and the runner makes */
    uint32_t pad;     /* buffer i as vary_fill(s + i) on the device; INPUTS carries a digest per buffer */
    uint64_t digest_key; /* ... keyed with this, drawn apart from s (which the runner wipes once used) */
} job;

/* SEED: the call's secret (its varying input is vary_fill(secret)), the key of the output's digest
 * in DONE, and whether the call is empty (everything but the student's code, for the round trip). */
typedef struct seed_msg {
    uint64_t secret, key;
    uint32_t empty, pad;
} seed_msg;

/* DONE: how long the runner says the call took, and the digest of the whole output. */
typedef struct done_msg {
    double seconds;
    uint64_t digest;
} done_msg;

/* FETCH: the whole output (whole = 1, count = 0), or `count` positions following the header. */
typedef struct fetch_msg {
    uint32_t whole, count;
} fetch_msg;
#define FETCH_MAX 65536

/* The TRACE message: how many of the events are filled in. */
typedef struct trace_msg {
    int32_t count, pad;
    trace_event ev[TRACE_MAX];
} trace_msg;

/* Send a message; 0 on success. */
int msg_send(int fd, uint32_t kind, const void *payload, size_t bytes);
/* Receive a message of the expected kind and size into payload; 0 on success, -1 otherwise. */
int msg_recv(int fd, uint32_t kind, void *payload, size_t bytes);
/* The header alone, of a message whose payload the caller then moves in pieces (write_all or
 * read_all of each): a matrix of a gigabyte goes straight from or into its buffer. */
int msg_send_head(int fd, uint32_t kind, size_t bytes);
int msg_recv_head(int fd, uint32_t kind, size_t bytes);

/* Sizes in bytes: an element, a buffer, all inputs of a problem, and the guards of all buffers. */
size_t elem_bytes(lab_type t);
size_t buf_elems(const lab_buf *b);
size_t buf_bytes(const lab_buf *b);
size_t inputs_bytes(const lab_problem *p, lab_shape s); /* what the scorer sends: IN and INOUT */
size_t back_bytes(const lab_problem *p, lab_shape s);   /* what comes back to be compared: IN */
/* Does the scorer send this buffer's contents? */
int is_sent(const lab_buf *b);
/* The guard zones' byte of a buffer. An input's is 0xff, a NaN as a double, a float and a half, so
 * a read past its end (j <= n) spoils the result it enters. An output's is 0xa5 (-1.4e-127 as a
 * double), which any store changes, even `+=` (a NaN guard would stay the same NaN). */
#define GUARD_INPUT_BYTE 0xff
#define GUARD_OUTPUT_BYTE 0xa5
unsigned char guard_byte(const lab_buf *b);
size_t guards_bytes(const lab_problem *p);

/* Element i of the input derived from a timed call's secret: uniform in [lo, hi), rounded to a
 * multiple of quantum when it is > 0. A function of (seed, i) alone, so the runner (or the GPU)
 * fills the buffer and the scorer computes just the elements its checks need. */
double vary_value(uint64_t seed, uint64_t i, double lo, double hi, double quantum);
void vary_fill(void *p, lab_type t, size_t n, uint64_t seed, double lo, double hi, double quantum);
/* The sum, in double, of the n elements vary_fill writes (each rounded to t first), without
 * writing them: a reduction's reference over gigabytes at the cost of the arithmetic alone. */
double vary_sum(lab_type t, size_t n, uint64_t seed, double lo, double hi, double quantum);

/* The digest of an output of `bytes` bytes (read as 64-bit little-endian words, the last one
 * zero-padded): each chunk of DIGEST_CHUNK words is hashed as 32 interleaved lanes (so a warp
 * reads it coalesced), the lanes chained in order, and the chunks chained in order. The GPU
 * computes the chunk hashes the same way (gpu_kernels.cu). */
#define DIGEST_LANES 32
#define DIGEST_CHUNK 16384
uint64_t digest_mix(uint64_t x);
uint64_t digest_word(const unsigned char *p, size_t bytes, size_t q);
uint64_t digest_chunk(const unsigned char *p, size_t bytes, size_t chunk, uint64_t key);
uint64_t digest_chain(const uint64_t *chunk_hash, size_t nchunks, uint64_t key);
uint64_t digest_bytes(const void *p, size_t bytes, uint64_t key);

/* Is the output's digest part of DONE (computed before the runner says the call is done)? Yes,
 * except for a large output in host memory (a pipeline lab's), where hashing it would take longer
 * than the call: there the call's end is the DONE itself, unproven. Both sides apply this rule. */
#define DIGEST_HOST_MAX (16u << 20)
int digest_in_done(const lab_problem *p, size_t out_bytes);

/* The value written over an output before call number `call`: NaN and a large finite garbage
 * value alternate, so code that reads its output before writing it fails either way. */
double poison_value(unsigned call);
/* Fill n elements of type t with poison_value(call). */
void poison_fill(void *p, lab_type t, size_t n, unsigned call);
/* Element i of a typed array, as a double; and set it, rounded to the type. */
double elem_get(const void *p, lab_type t, size_t i);
void elem_set(void *p, lab_type t, size_t i, double v);
/* v as an element of type t holds it (rounded, or for I32 clamped: NaN as INT32_MAX). */
double elem_stored(lab_type t, double v);
int32_t to_i32(double v);

#endif
