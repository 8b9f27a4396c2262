/* emu_ptx.h - the inline PTX of lab 07 on the CPU, for scripts/emu, after emu.h. cu2cpp.py rewrites
 * each `asm volatile("...")` into calls of the functions here, one an instruction, chosen by the
 * instruction's text (output operands passed as references, inputs as values):
 *   cp.async.ca/.cg.shared.global [dst], [src], cp-size[, src-size]   emu_ptx_cp_async
 *   cp.async.commit_group, cp.async.wait_group N, cp.async.wait_all     emu_ptx_commit, emu_ptx_wait
 *   ldmatrix.sync.aligned.m8n8.x1/.x2/.x4[.trans].shared.b16            emu_ptx_ldmatrix
 *   mma.sync.aligned.m16n8k16 and .m16n8k8 .row.col.f32.f16.f16.f32     emu_ptx_mma
 * and any other instruction into emu_ptx_unknown, which stops with its text when it runs. Also
 * cuda_pipeline.h's __pipeline_memcpy_async, __pipeline_commit and __pipeline_wait_prior (what
 * they compile to: cp.async and its groups), and __cvta_generic_to_shared (emu_warp.h's window).
 *
 * cp.async is emulated as deferred: the bytes are read from global memory when the copy is issued
 * and land in shared memory only when the cp.async.wait_group that completes its group runs (wait
 * N: every group but the newest N of this thread's committed groups). A copy whose wait is missing,
 * or too lenient, leaves its destination as it was (NaN, as each block's shared memory starts), so
 * the stage is wrong here, where on a GPU it would be right or wrong by the timing of the copies.
 * Copies still in flight when the block ends are dropped.
 *
 * ldmatrix and mma.sync are warp-collective: the 32 lanes meet (emu_warp.h), each posting its
 * operands, and each takes its part of the result in the layouts of the PTX ISA ("Matrix Fragments
 * for mma.m16n8k16" and "m16n8k8", and ldmatrix's): with g = lane / 4, t = lane % 4,
 *   A (16 x 16): a0 = A[g][2t..2t+1], a1 = A[g+8][2t..], a2 = A[g][2t+8..], a3 = A[g+8][2t+8..]
 *   A (16 x 8, k8): a0 = A[g][2t..2t+1], a1 = A[g+8][2t..2t+1]
 *   B (16 x 8): b0 = B[2t..2t+1][g], b1 = B[2t+8..2t+9][g]   (k8: b0 only)
 *   C, D (16 x 8): c0, c1 = C[g][2t], C[g][2t+1]; c2, c3 = C[g+8][2t], C[g+8][2t+1]
 * (a register's low 16 bits the lower index); ldmatrix's matrix q has its 8 rows of 16 bytes at
 * the addresses lanes 8q .. 8q + 7 give, and lane l gets in register q row l / 4, halves 2t, 2t+1,
 * or with .trans column l / 4, rows 2t, 2t+1. Products of halves are exact in float and summed in
 * float. */
#ifndef EMU_PTX_H
#define EMU_PTX_H
#include "emu_half.h"
#include "emu_warp.h"
#include <deque>
#include <type_traits>

static inline size_t __cvta_generic_to_shared(const void *p)
{
    return emu_window_address(p, "__cvta_generic_to_shared");
}
static inline size_t __cvta_generic_to_global(const void *p) { return (size_t)p; }

/* An operand that is an address: a pointer, or an integer holding one (a shared window address,
 * or a global address from __cvta_generic_to_global, which is the pointer itself here). */
template <class T> static inline unsigned long long emu_address(T v)
{
    if constexpr (std::is_pointer<T>::value)
        return (unsigned long long)(uintptr_t)v;
    else
        return (unsigned long long)v;
}

/* ---------------------------------------------------------------- cp.async, deferred */

struct emu_copy {
    unsigned char *dst;
    unsigned char bytes[16];
    int n;
};
/* This thread's copies: those issued since its last commit, and its committed groups, oldest
 * first; for the block it plays now (emu_block_key). */
struct emu_copies {
    unsigned long long block = ~0ull;
    std::vector<emu_copy> open;
    std::deque<std::vector<emu_copy>> groups;
};
static thread_local emu_copies emu_async;
static inline emu_copies &emu_my_copies()
{
    if (emu_async.block != emu_block_key())
        emu_async.block = emu_block_key(), emu_async.open.clear(), emu_async.groups.clear();
    return emu_async;
}
/* cp.async.{ca,cg}.shared.global [dst], [src], cp_size, src_size: src_size bytes of src, then
 * zeros to cp_size, into the shared window at dst, once the copy's group is waited for. */
template <class D, class S>
static inline void emu_ptx_cp_async(const char *file, int line, const char *kind, D dst, S src, long cp_size,
                                    long src_size)
{
    if (cp_size != 16 && (kind[1] == 'g' || (cp_size != 4 && cp_size != 8)))
        emu_stop(1, "cp.async.cg copies 16 bytes; cp.async.ca 4, 8 or 16",
                 "crashed (cp.async.%s at %s:%d of %ld bytes)", kind, file, line, cp_size);
    if (src_size < 0 || src_size > cp_size)
        emu_stop(1, "", "crashed (cp.async at %s:%d: src-size %ld is not between 0 and the cp-size, %ld)", file, line,
                 src_size, cp_size);
    unsigned long long from = emu_address(src);
    if (from % cp_size)
        emu_stop(1, "a cp.async's source is aligned to its size",
                 "crashed (misaligned address: cp.async at %s:%d of %ld bytes from %p)", file, line, cp_size,
                 (void *)(uintptr_t)from);
    emu_copy c;
    c.dst =
        emu_window_pointer(emu_address(dst), (size_t)cp_size, (size_t)cp_size, "cp.async's destination", file, line);
    c.n = (int)cp_size;
    memset(c.bytes, 0, sizeof c.bytes);
    if (src_size) memcpy(c.bytes, (const void *)(uintptr_t)from, (size_t)src_size);
    emu_my_copies().open.push_back(c);
}
static inline void emu_ptx_commit() /* cp.async.commit_group: a group, empty or not */
{
    emu_copies &q = emu_my_copies();
    q.groups.push_back(std::move(q.open));
    q.open.clear();
}
static inline void emu_ptx_wait(long newest_pending) /* cp.async.wait_group N: all but the newest N groups land */
{
    emu_copies &q = emu_my_copies();
    while ((long)q.groups.size() > (newest_pending < 0 ? 0 : newest_pending)) {
        for (const emu_copy &c : q.groups.front()) memcpy(c.dst, c.bytes, (size_t)c.n);
        q.groups.pop_front();
    }
}
static inline void emu_ptx_wait_all() { emu_ptx_commit(), emu_ptx_wait(0); }

/* cuda_pipeline.h's primitives: cp.async from a generic pointer into shared memory. */
static inline void __pipeline_memcpy_async(void *dst, const void *src, size_t size_and_align, size_t zfill = 0,
                                           const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    emu_ptx_cp_async(file, line, size_and_align == 16 ? "cg" : "ca",
                     emu_window_address(dst, "__pipeline_memcpy_async's destination"), src, (long)size_and_align,
                     (long)size_and_align - (long)zfill);
}
static inline void __pipeline_commit() { emu_ptx_commit(); }
static inline void __pipeline_wait_prior(size_t prior) { emu_ptx_wait((long)prior); }

/* ---------------------------------------------------------------- ldmatrix, mma.sync */

/* ldmatrix.sync.aligned.m8n8.xNUM[.trans].shared.b16 {r...}, [addr] */
template <int NUM, bool TRANS, class A, class... R>
static inline void emu_ptx_ldmatrix(const char *file, int line, A addr, R &...r)
{
    static_assert(sizeof...(R) == NUM, "ldmatrix .xN writes N registers");
    static_assert(((sizeof(R) == 4) && ...), "ldmatrix's destinations are 32-bit registers");
    static const char *const names[2][3] = {
        {"ldmatrix.m8n8.x1", "ldmatrix.m8n8.x2", "ldmatrix.m8n8.x4"},
        {"ldmatrix.m8n8.x1.trans", "ldmatrix.m8n8.x2.trans", "ldmatrix.m8n8.x4.trans"}};
    emu_post mine = {};
    mine.name = names[TRANS][NUM / 2], mine.file = file, mine.line = line;
    unsigned long long a = emu_address(addr);
    memcpy(mine.w, &a, sizeof a);
    const emu_post *posts = emu_meet(mine);
    int lane = emu_tid() % 32, g = lane / 4, t = lane % 4;
    const unsigned char *rows[32];
    for (int k = 0; k < 8 * NUM; k++) { /* every row the instruction reads, checked by every lane alike */
        unsigned long long ra;
        memcpy(&ra, posts[k].w, sizeof ra);
        if (!(rows[k] = emu_window_try(ra, 16, 16))) {
            char what[80];
            snprintf(what, sizeof what, "%s (the row address lane %d gives)", mine.name, k);
            emu_window_pointer(ra, 16, 16, what, file, line);
        }
    }
    uint32_t out[NUM];
    for (int q = 0; q < NUM; q++) {
        uint16_t lo, hi;
        if (!TRANS)
            memcpy(&lo, rows[8 * q + g] + 4 * t, 2), memcpy(&hi, rows[8 * q + g] + 4 * t + 2, 2);
        else
            memcpy(&lo, rows[8 * q + 2 * t] + 2 * g, 2), memcpy(&hi, rows[8 * q + 2 * t + 1] + 2 * g, 2);
        out[q] = (uint32_t)hi << 16 | lo;
    }
    int q = 0;
    ((memcpy(&r, &out[q++], 4)), ...);
}

/* mma.sync.aligned.m16n8k{16,8}.row.col.f32.f16.f16.f32: d = a b + c for one 16 x 8 tile of d.
 * a holds K / 4 registers (K = 16: a0..a3; 8: a0, a1), b K / 8 (b0, b1; b0). */
template <int K, class D>
static inline void emu_ptx_mma(const char *file, int line, D &d0, D &d1, D &d2, D &d3, const uint32_t (&a)[4],
                               const uint32_t (&b)[2], float c0, float c1, float c2, float c3)
{
    static_assert(sizeof(D) == 4 && std::is_floating_point<D>::value, "an .f32 accumulator is a float");
    emu_post mine = {};
    mine.name = K == 16 ? "mma.sync.m16n8k16.row.col.f32.f16.f16.f32" : "mma.sync.m16n8k8.row.col.f32.f16.f16.f32";
    mine.file = file, mine.line = line;
    memcpy(mine.w, a, 16), memcpy(mine.w + 4, b, 8);
    const emu_post *posts = emu_meet(mine);
    float A[16][16], B[16][8];
    auto half_of = [](uint32_t w, int hi) { return emu_half_float((uint16_t)(hi ? w >> 16 : w)); };
    for (int l = 0; l < 32; l++) {
        int g = l / 4, t = l % 4;
        const uint32_t *pa = posts[l].w, *pb = posts[l].w + 4;
        for (int h = 0; h < 2; h++) {
            A[g][2 * t + h] = half_of(pa[0], h), A[g + 8][2 * t + h] = half_of(pa[1], h);
            B[2 * t + h][g] = half_of(pb[0], h);
            if (K == 16) {
                A[g][2 * t + 8 + h] = half_of(pa[2], h), A[g + 8][2 * t + 8 + h] = half_of(pa[3], h);
                B[2 * t + 8 + h][g] = half_of(pb[1], h);
            }
        }
    }
    int lane = emu_tid() % 32, g = lane / 4, t = lane % 4;
    float c[4] = {c0, c1, c2, c3}, out[4];
    for (int e = 0; e < 4; e++) {
        int row = g + 8 * (e / 2), col = 2 * t + e % 2;
        float s = c[e];
        for (int k = 0; k < K; k++) s += A[row][k] * B[k][col];
        out[e] = s;
    }
    d0 = out[0], d1 = out[1], d2 = out[2], d3 = out[3];
}
template <class D>
static inline void emu_ptx_mma_m16n8k16(const char *file, int line, D &d0, D &d1, D &d2, D &d3, uint32_t a0,
                                        uint32_t a1, uint32_t a2, uint32_t a3, uint32_t b0, uint32_t b1, float c0,
                                        float c1, float c2, float c3)
{
    const uint32_t a[4] = {a0, a1, a2, a3}, b[2] = {b0, b1};
    emu_ptx_mma<16>(file, line, d0, d1, d2, d3, a, b, c0, c1, c2, c3);
}
template <class D>
static inline void emu_ptx_mma_m16n8k8(const char *file, int line, D &d0, D &d1, D &d2, D &d3, uint32_t a0, uint32_t a1,
                                       uint32_t b0, float c0, float c1, float c2, float c3)
{
    const uint32_t a[4] = {a0, a1, 0, 0}, b[2] = {b0, 0};
    emu_ptx_mma<8>(file, line, d0, d1, d2, d3, a, b, c0, c1, c2, c3);
}

/* Any other instruction: said, with where it is, when it runs (a stage that never runs it is
 * still checked); exit 2, as for anything the emulator cannot run. */
[[noreturn]] static inline void emu_ptx_unknown(const char *file, int line, const char *text)
{
    emu_stop(
        2,
        "it runs cp.async (.ca, .cg, commit_group, wait_group, wait_all), ldmatrix.sync.aligned.m8n8 (.x1, .x2, .x4, "
        ".trans, .shared.b16) and mma.sync.aligned.m16n8k16 and .m16n8k8 .row.col.f32.f16.f16.f32; write the rest in "
        "CUDA C++, or check it on a GPU",
        "the emulator does not run this PTX: `%s` (%s:%d)", text, file, line);
}
#endif
