/* emu_warp.h - what scripts/emu's warp-wide operations of lab 07 (emu_wmma.h's WMMA, emu_ptx.h's
 * ldmatrix and mma.sync) stand on, after emu.h:
 *  - the shared window: 32-bit shared-memory addresses, as __cvta_generic_to_shared gives and
 *    PTX's .shared operands take, mapped to and from the running block's own copies of its shared
 *    arrays, every use checked to lie inside one, with the alignment PTX asks;
 *  - a meeting of a warp's 32 lanes at each warp-collective call, where each lane posts what it
 *    brings (its arguments, its part of a fragment) and reads the others' posts. A meeting also
 *    checks that all 32 lanes came to the same call with the same arguments, and names the lanes
 *    when they did not, or when some never come: on a GPU such a call hangs or gives garbage;
 *  - emu_stop: a stop with the stage and size, for what on a GPU would fault or hang. */
#ifndef EMU_WARP_H
#define EMU_WARP_H
#include <cerrno>
#include <cstdarg>
#include <ctime>

/* ---------------------------------------------------------------- stopping */

/* A message ("emu: <what> in stage S at size Z", then `why` on its own line) and exit(status). */
[[noreturn]] static void emu_stop(int status, const char *why, const char *what, ...)
{
    if (__atomic_exchange_n(&emu_stopping, 1, __ATOMIC_SEQ_CST))
        for (;;) pause();
    char line[1024];
    va_list ap;
    va_start(ap, what);
    vsnprintf(line, sizeof line - 200, what, ap);
    va_end(ap);
    size_t n = strlen(line);
    snprintf(line + n, sizeof line - n, " in %s\n", emu_where);
    emu_say("\nemu: ");
    emu_say(line);
    if (why && *why) {
        emu_say("  ");
        emu_say(why);
        emu_say("\n");
    }
    emu_said_flush();
    _exit(status);
}

/* ---------------------------------------------------------------- the shared window */

/* A block's shared arrays as the window sees them: each has an id, and its bytes lie at
 * (id << 24) + offset, so that a 32-bit address names the array and a byte of it, and an address
 * that walks off an array's end (or below its start) is caught as such, rather than landing in
 * the next array.
 * Id 1 is the launch's dynamic shared memory; id k + 2 emu.h's k-th __shared__ declaration. */
struct emu_region {
    unsigned char *base; /* the running block's copy */
    size_t bytes;
    unsigned id;
};
static bool emu_region_of_id(unsigned id, emu_region *r)
{
    unsigned n = emu_shared_count < 254 ? emu_shared_count : 254;
    if (id == 1 && emu_dynamic_bytes)
        *r = {emu_dynamic_base[emu_slot], emu_dynamic_bytes, 1};
    else if (id >= 2 && id - 2 < n)
        *r = {emu_shared_list[id - 2].base + emu_slot * emu_shared_list[id - 2].each, emu_shared_list[id - 2].each, id};
    else
        return false;
    return true;
}
/* The shared array of the running block that p points into (or one past). */
static bool emu_region_of(const void *p, emu_region *r)
{
    const unsigned char *c = (const unsigned char *)p;
    unsigned n = emu_shared_count < 254 ? emu_shared_count : 254;
    for (int end = 0; end < 2; end++) /* inside an array first; then the end of one */
        for (unsigned id = 1; id < n + 2; id++)
            if (emu_region_of_id(id, r) && c >= r->base && (end ? c == r->base + r->bytes : c < r->base + r->bytes))
                return true;
    return false;
}
/* __cvta_generic_to_shared: the window address of a generic pointer into shared memory. */
static unsigned emu_window_address(const void *p, const char *what)
{
    emu_region r;
    if (!emu_region_of(p, &r))
        emu_stop(
            1,
            "it takes a pointer into a __shared__ array or the launch's dynamic shared memory: anything else has no "
            "shared address",
            "crashed (%s of %p, which points into no shared array of the block)", what, p);
    return (unsigned)(r.id << 24) + (unsigned)((const unsigned char *)p - r.base);
}
/* The bytes [addr, addr + bytes) of the window, if all in one shared array and addr a multiple of
 * `align`; else NULL. */
static inline unsigned char *emu_window_try(unsigned long long addr, size_t bytes, size_t align)
{
    emu_region r;
    unsigned long long off = addr & 0xffffff;
    if (addr >> 32 || !emu_region_of_id((unsigned)(addr >> 24), &r) || off + bytes > r.bytes || off % align)
        return NULL;
    return r.base + off;
}
/* The same, which `what` (at file:line) reads or writes: a stop that says why where it is not. */
static unsigned char *emu_window_pointer(unsigned long long addr, size_t bytes, size_t align, const char *what,
                                         const char *file, int line)
{
    emu_region r;
    unsigned long long off = addr & 0xffffff;
    if (addr >> 32 || !emu_region_of_id((unsigned)(addr >> 24), &r))
        emu_stop(
            1,
            "a shared address comes from __cvta_generic_to_shared (or cvta.to.shared) of a pointer into a __shared__ "
            "array, plus an offset that stays inside it",
            "crashed (%s at %s:%d: 0x%llx is no shared-memory address of the block)", what, file, line, addr);
    if (off + bytes > r.bytes)
        emu_stop(1, "", "crashed (%s at %s:%d: bytes %llu..%llu of a shared array of %zu bytes: past its end)", what,
                 file, line, off, off + bytes - 1, r.bytes);
    if (off % align)
        emu_stop(1, "",
                 "crashed (misaligned address: %s at %s:%d wants a multiple of %zu bytes, and got byte %llu of its "
                 "shared array)",
                 what, file, line, align, off);
    return r.base + off;
}

/* ---------------------------------------------------------------- a warp's lanes meeting */

/* What a lane brings to a warp-collective call. `name` says which call (and its shape: the same
 * text for the same instruction); where `uniform`, p, ldm and layout must be the same in all 32
 * lanes (WMMA's pointer and leading dimension); w[] is the lane's data (its part of a fragment,
 * or ldmatrix's row address). */
struct emu_post {
    unsigned seq; /* the lane's count of warp-collective calls in this block */
    const char *name, *file;
    int line;
    bool uniform;
    const void *p;
    unsigned ldm;
    int layout;
    uint32_t w[8];
};
/* A warp's meeting place: a barrier of 32 that gives up (and says who is missing) after a while,
 * and two sets of posts, used by turns (call n the set n % 2): a lane can post its call n + 2
 * only after every lane has met at call n + 1, so past having read call n's posts. */
struct emu_meeting {
    pthread_mutex_t m;
    pthread_cond_t c;
    unsigned arrived, generation;
};
static emu_meeting emu_meetings[EMU_SLOTS][32];
static emu_post emu_posts[EMU_SLOTS][32][2][32];
static bool emu_meetings_init()
{
    for (auto &slot : emu_meetings)
        for (auto &m : slot)
            pthread_mutex_init(&m.m, NULL), pthread_cond_init(&m.c, NULL), m.arrived = m.generation = 0;
    return true;
}
/* Which block of which launch a thread plays now: per-lane state starts afresh at a new one. */
static inline unsigned long long emu_block_key()
{
    return (unsigned long long)emu_launches << 32 | (blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z));
}
static thread_local unsigned long long emu_lane_block = ~0ull;
static thread_local unsigned emu_lane_seq;

/* "0-15, 17, 20-31": the lanes of a mask. */
static void emu_lanes(unsigned mask, char *out, size_t size)
{
    size_t n = 0;
    out[0] = 0;
    for (int l = 0; l < 32; l++) {
        if (!(mask >> l & 1) || (l > 0 && mask >> (l - 1) & 1)) continue;
        int e = l;
        while (e < 31 && mask >> (e + 1) & 1) e++;
        n += snprintf(out + n, n < size ? size - n : 0, n ? ", %d" : "%d", l);
        if (e > l) n += snprintf(out + n, n < size ? size - n : 0, "-%d", e);
    }
}
static const char *const emu_together =
    "every lane of a warp must make each warp-collective call (wmma's load_matrix_sync, mma_sync, store_matrix_sync; "
    "ldmatrix, mma.sync) together and with the same pointer and leading dimension: a lane that returns early, takes "
    "another branch or another number of loop trips, or computes its own tile, meets nobody there (on a GPU: a hang "
    "or garbage). Keep such tests warp-uniform (warp = threadIdx.x / 32)";

/* Some lanes never came (timed out while waiting): the lanes that did, and where. */
[[noreturn]] static void emu_stranded(const emu_post *posts, unsigned seq, int warp)
{
    unsigned here = 0;
    for (int l = 0; l < 32; l++)
        if (posts[l].seq == seq && posts[l].name) here |= 1u << l;
    char in[160], out[160];
    emu_lanes(here, in, sizeof in), emu_lanes(~here, out, sizeof out);
    int l0 = __builtin_ctz(here), one = __builtin_popcount(~here) == 1;
    emu_stop(
        1, emu_together,
        "did not finish in time: lane%s %s of warp %d (block %u,%u,%u) wait%s in %s (%s:%d) for lane%s %s, which never "
        "come%s to it,",
        __builtin_popcount(here) == 1 ? "" : "s", in, warp, blockIdx.x, blockIdx.y, blockIdx.z,
        __builtin_popcount(here) == 1 ? "s" : "", posts[l0].name, posts[l0].file, posts[l0].line, one ? "" : "s", out,
        one ? "s" : "");
}
/* The lanes met, but not at one call, or not with one set of arguments: each group of lanes and
 * what it brought. */
[[noreturn]] static void emu_diverged(const emu_post *posts, unsigned seq, int warp)
{
    char text[1600], lanes[160];
    size_t n = 0;
    unsigned left = 0xffffffffu;
    while (left && n < sizeof text - 600) {
        const emu_post &a = posts[__builtin_ctz(left)];
        unsigned same = 0;
        for (int l = 0; l < 32; l++) {
            const emu_post &b = posts[l];
            if ((left >> l & 1) && b.seq == a.seq && b.name == a.name && b.line == a.line && b.file == a.file &&
                (!a.uniform || (b.p == a.p && b.ldm == a.ldm && b.layout == a.layout)))
                same |= 1u << l;
        }
        left &= ~same;
        emu_lanes(same, lanes, sizeof lanes);
        if (a.seq != seq) /* a post of an earlier call: these lanes are at another one */
            n += snprintf(text + n, sizeof text - n, "\n  lanes %s: at another call (their last post: %s, %s:%d)",
                          lanes, a.name ? a.name : "none", a.file ? a.file : "-", a.line);
        else if (a.uniform)
            n += snprintf(text + n, sizeof text - n, "\n  lanes %s: %s (%s:%d), pointer %p, ldm %u", lanes, a.name,
                          a.file, a.line, a.p, a.ldm);
        else
            n += snprintf(text + n, sizeof text - n, "\n  lanes %s: %s (%s:%d)", lanes, a.name, a.file, a.line);
    }
    snprintf(text + n, sizeof text - n, "\n  %s", emu_together);
    emu_stop(1, text + 3, "crashed (the lanes of warp %d of block %u,%u,%u came to a warp-collective call apart)", warp,
             blockIdx.x, blockIdx.y, blockIdx.z);
}
/* The warp-collective call `mine` describes: this lane posts it, waits for the other 31, checks
 * they all came to the same call, and gets the 32 posts (valid until its next call but one). */
static const emu_post *emu_meet(emu_post mine)
{
    static bool ready = emu_meetings_init();
    (void)ready;
    int t = emu_tid(), warp = t / 32, lane = t % 32;
    unsigned n = blockDim.x * blockDim.y * blockDim.z;
    if (n - 32 * warp < 32)
        emu_stop(1, "WMMA, ldmatrix and mma.sync need all 32 lanes of a warp: give the block a multiple of 32 threads",
                 "crashed (%s (%s:%d) in warp %d of a block of %u threads, which has %u lanes)", mine.name, mine.file,
                 mine.line, warp, n, n - 32 * warp);
    if (emu_lane_block != emu_block_key()) emu_lane_block = emu_block_key(), emu_lane_seq = 0;
    mine.seq = ++emu_lane_seq;
    emu_post *posts = emu_posts[emu_slot][warp][mine.seq & 1];
    posts[lane] = mine;
    emu_meeting &m = emu_meetings[emu_slot][warp];
    pthread_mutex_lock(&m.m);
    unsigned gen = m.generation;
    if (++m.arrived == 32) {
        m.arrived = 0, m.generation++;
        pthread_cond_broadcast(&m.c);
    } else {
        /* A quarter of the call's time (EMU_TIMEOUT), a second at least: lanes of one warp that
         * all run reach a call within milliseconds of each other, so this waits only for lanes
         * that are elsewhere for good, and says so before the call's own alarm. */
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += emu_timeout / 4 > 1 ? emu_timeout / 4 : 1;
        while (gen == m.generation)
            if (pthread_cond_timedwait(&m.c, &m.m, &until) == ETIMEDOUT && gen == m.generation) {
                pthread_mutex_unlock(&m.m);
                emu_stranded(posts, mine.seq, warp);
            }
    }
    pthread_mutex_unlock(&m.m);
    for (int l = 0; l < 32; l++) {
        const emu_post &o = posts[l];
        if (o.seq != mine.seq || o.name != mine.name || o.line != mine.line || o.file != mine.file ||
            (mine.uniform && (o.p != mine.p || o.ldm != mine.ldm || o.layout != mine.layout)))
            emu_diverged(posts, mine.seq, warp);
    }
    return posts;
}
#endif
