/* emu_wmma.h - nvcuda::wmma (<mma.h>) on the CPU, for scripts/emu (lab 07), after emu.h: 16 x 16 x 16
 * fragments of half inputs and float or half accumulators, their loads, products and stores.
 *
 * A fragment is the warp's, spread over its 32 lanes as on the GPU, not a copy in each lane: lane l
 * (g = l / 4, t = l % 4) holds element i (of num_elements: 8 for an accumulator; 16 for A and B,
 * as PTX's wmma fragments have, the last 8 here a repeat of the first 8) at
 *   accumulator and matrix_a: row g + 8 (i / 2 % 2), column 2 t + i % 2 + 8 (i / 4 % 2)
 *   matrix_b: row (k) 2 t + i % 2 + 8 (i / 2 % 2), column (n) g + 8 (i / 4 % 2)
 * (mma.sync.m16n8k16's layouts, two 16 x 8 halves side by side: the instruction WMMA compiles to
 * on sm_80 and later. CUDA leaves the layout unspecified, so code must not rely on it; an
 * element-wise loop over x[0 .. num_elements) is right here as there.)
 * Why spread, not a whole copy in each lane: a copy per lane would make a warp's call right even
 * when lanes pass different pointers (a kernel that gives each lane a tile of its own), or when
 * only some lanes call, and both are wrong on a GPU.
 * Here each lane loads, multiplies and stores its own part, and every load, mma and store is a
 * meeting of the warp (emu_warp.h) that stops, naming the lanes, when the 32 lanes come apart or
 * with different pointers or leading dimensions. A fragment starts as NaN, as nothing clears a
 * GPU's registers: an accumulator never filled shows.
 *
 * Products of halves are exact in float; an accumulator of floats sums them in float, one of
 * halves sums each mma_sync's 16 products in float and rounds the result to half (11 bits, what
 * a tensor core's fp16 accumulation keeps). Pointers must be 32-byte aligned and ldm a multiple
 * of 16 bytes, as CUDA asks; a fragment in shared memory must lie inside its array. */
#ifndef EMU_WMMA_H
#define EMU_WMMA_H
#include "emu_half.h"
#include "emu_warp.h"
#include <type_traits>

namespace nvcuda
{
namespace wmma
{
struct matrix_a {
};
struct matrix_b {
};
struct accumulator {
};
struct row_major {
};
struct col_major {
};
enum layout_t { mem_row_major, mem_col_major };

template <class Use, int m, int n, int k, class T, class Layout = void> struct fragment {
    static_assert(m == 16 && n == 16 && k == 16, "the emulator (scripts/emu) has WMMA's 16 x 16 x 16 fragments only");
    static constexpr bool acc = std::is_same<Use, accumulator>::value;
    static_assert(acc || std::is_same<Use, matrix_a>::value || std::is_same<Use, matrix_b>::value,
                  "a fragment is matrix_a, matrix_b or accumulator");
    static_assert(std::is_same<T, __half>::value || (acc && std::is_same<T, float>::value),
                  "the emulator (scripts/emu) has half inputs and float or half accumulators only");
    static_assert(
        acc ? std::is_void<Layout>::value
            : std::is_same<Layout, row_major>::value || std::is_same<Layout, col_major>::value,
        "matrix_a and matrix_b take row_major or col_major; an accumulator no layout (its loads and stores say it)");
    enum { num_elements = acc ? 8 : 16 };
    typedef T element_type;
    typedef T storage_element_type;
    T x[num_elements];
    fragment()
    {
        for (auto &e : x) e = T(NAN);
    }
};

/* Where lane `lane`'s element i lies in the 16 x 16 tile (the table at the top). */
static inline void emu_rc(int lane, int i, int *r, int *c) /* accumulator, matrix_a: row, column */
{
    *r = lane / 4 + 8 * (i / 2 % 2), *c = 2 * (lane % 4) + i % 2 + 8 * (i / 4 % 2);
}
static inline void emu_kn(int lane, int i, int *k, int *n) /* matrix_b: row k, column n */
{
    *k = 2 * (lane % 4) + i % 2 + 8 * (i / 2 % 2), *n = lane / 4 + 8 * (i / 4 % 2);
}

/* Element (r, c) of a tile at p: row-major at p[r ldm + c], column-major at p[c ldm + r]. Before
 * any lane reads or writes: p 32-byte aligned, ldm 16 bytes' worth, and in shared memory the
 * whole tile inside p's array (alignment judged from the array's start: the emulator places
 * arrays as it likes, a GPU as their declarations ask). Checked after the lanes meet, so that lanes
 * with different pointers are named as such first. */
template <class T> static void emu_tile_check(const T *p, unsigned ldm, const char *call, const char *file, int line)
{
    emu_region r;
    bool shared = emu_region_of(p, &r);
    uintptr_t at = shared ? (uintptr_t)((const unsigned char *)p - r.base) : (uintptr_t)p;
    if (at % 32)
        emu_stop(
            1,
            "WMMA's loads and stores want 256-bit aligned pointers: a tile's start a multiple of 32 bytes (16 halves, "
            "8 floats) from an aligned array, and shared rows padded by a multiple of 16 bytes",
            "crashed (misaligned address: %s at %s:%d of a pointer %zu bytes past a multiple of 32)", call, file, line,
            (size_t)(at % 32));
    if (ldm * sizeof(T) % 16)
        emu_stop(1, "ldm must be a multiple of 16 bytes: 8 halves, 4 floats (pad shared rows by 8 halves, not 4)",
                 "crashed (%s at %s:%d with ldm %u, %zu bytes: not a multiple of 16)", call, file, line, ldm,
                 ldm * sizeof(T));
    size_t need = (15 * (size_t)ldm + 16) * sizeof(T);
    if (shared && (size_t)((const unsigned char *)p - r.base) + need > r.bytes)
        emu_stop(
            1, "",
            "crashed (%s at %s:%d: a 16 x 16 tile with ldm %u runs %zu bytes past the end of its shared array of %zu)",
            call, file, line, ldm, (size_t)((const unsigned char *)p - r.base) + need - r.bytes, r.bytes);
}
static const char emu_load_name[] = "wmma::load_matrix_sync", emu_store_name[] = "wmma::store_matrix_sync",
                  emu_mma_name[] = "wmma::mma_sync";
static inline const emu_post *emu_wmma_meet(const char *name, const void *p, unsigned ldm, int layout, const char *file,
                                            int line)
{
    emu_post mine = {};
    mine.name = name, mine.file = file, mine.line = line, mine.uniform = true, mine.p = p, mine.ldm = ldm,
    mine.layout = layout;
    return emu_meet(mine);
}

/* Each lane sets its own elements (no meeting: a lane that skips it keeps its NaNs). */
template <class Use, int m, int n, int k, class T, class L, class V>
static inline void fill_fragment(fragment<Use, m, n, k, T, L> &f, const V &v)
{
    for (T &e : f.x) e = T(v);
}

/* A multiplicand's tile: lane `lane`'s element i at (a, b) of the tile by `map` (emu_rc for
 * matrix_a, emu_kn for matrix_b), read row- or column-major; each held twice (x[i], x[i + 8]). */
template <class F>
static inline void emu_load_operand(F &f, const __half *p, unsigned ldm, bool row, void (*map)(int, int, int *, int *),
                                    const char *file, int line)
{
    emu_wmma_meet(emu_load_name, p, ldm, row, file, line);
    emu_tile_check(p, ldm, emu_load_name, file, line);
    int lane = emu_tid() % 32, a, b;
    for (int i = 0; i < 8; i++) {
        map(lane, i, &a, &b);
        f.x[i] = f.x[i + 8] = row ? p[(size_t)a * ldm + b] : p[(size_t)b * ldm + a];
    }
}
template <int m, int n, int k, class L>
static inline void load_matrix_sync(fragment<matrix_a, m, n, k, __half, L> &f, const __half *p, unsigned ldm,
                                    const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    emu_load_operand(f, p, ldm, std::is_same<L, row_major>::value, emu_rc, file, line);
}
template <int m, int n, int k, class L>
static inline void load_matrix_sync(fragment<matrix_b, m, n, k, __half, L> &f, const __half *p, unsigned ldm,
                                    const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    emu_load_operand(f, p, ldm, std::is_same<L, row_major>::value, emu_kn, file, line);
}
template <int m, int n, int k, class T>
static inline void load_matrix_sync(fragment<accumulator, m, n, k, T> &f, const T *p, unsigned ldm, layout_t layout,
                                    const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    emu_wmma_meet(emu_load_name, p, ldm, layout, file, line);
    emu_tile_check(p, ldm, emu_load_name, file, line);
    int lane = emu_tid() % 32, r, c;
    for (int i = 0; i < 8; i++) {
        emu_rc(lane, i, &r, &c);
        f.x[i] = layout == mem_row_major ? p[(size_t)r * ldm + c] : p[(size_t)c * ldm + r];
    }
}
template <int m, int n, int k, class T>
static inline void store_matrix_sync(T *p, const fragment<accumulator, m, n, k, T> &f, unsigned ldm, layout_t layout,
                                     const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    emu_wmma_meet(emu_store_name, p, ldm, layout, file, line);
    emu_tile_check(p, ldm, emu_store_name, file, line);
    int lane = emu_tid() % 32, r, c;
    for (int i = 0; i < 8; i++) {
        emu_rc(lane, i, &r, &c);
        (layout == mem_row_major ? p[(size_t)r * ldm + c] : p[(size_t)c * ldm + r]) = f.x[i];
    }
}

/* d = a b + c: each lane posts its 8 elements of a and of b, and from all 32 posts computes its
 * own 8 of d (d may be c). */
template <int m, int n, int k, class La, class Lb, class Td, class Tc>
static inline void mma_sync(fragment<accumulator, m, n, k, Td> &d, const fragment<matrix_a, m, n, k, __half, La> &a,
                            const fragment<matrix_b, m, n, k, __half, Lb> &b,
                            const fragment<accumulator, m, n, k, Tc> &c, bool satf = false,
                            const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    (void)satf;
    emu_post mine = {};
    mine.name = emu_mma_name, mine.file = file, mine.line = line;
    memcpy(mine.w, a.x, 16), memcpy(mine.w + 4, b.x, 16);
    const emu_post *posts = emu_meet(mine);
    float A[16][16], B[16][16];
    int r, col;
    for (int l = 0; l < 32; l++) {
        const __half *pa = (const __half *)posts[l].w, *pb = (const __half *)(posts[l].w + 4);
        for (int i = 0; i < 8; i++) {
            emu_rc(l, i, &r, &col), A[r][col] = pa[i];
            emu_kn(l, i, &r, &col), B[r][col] = pb[i];
        }
    }
    int lane = emu_tid() % 32;
    Td out[8];
    for (int i = 0; i < 8; i++) {
        emu_rc(lane, i, &r, &col);
        float s = c.x[i];
        for (int p = 0; p < 16; p++) s += A[r][p] * B[p][col];
        out[i] = Td(s);
    }
    for (int i = 0; i < 8; i++) d.x[i] = out[i];
}
} /* namespace wmma */
} /* namespace nvcuda */
#endif
