/* emu_streams.h - the host side of CUDA that lab 05 uses, on the CPU (scripts/emu/check05.cpp), with
 * its work deferred as on a GPU, so that a missing synchronisation shows:
 *
 * - Device memory is host memory: cudaMalloc an aligned block poisoned with 0xff (NaN in float and
 *   double, so a read before any write shows), between guard zones a write past either end spoils.
 * - Each stream, and the legacy default stream 0, is a queue of operations (launches, copies,
 *   memsets, event records, waits). Nothing runs when issued: work runs when the host must see it
 *   (a stream, event or device synchronisation, a synchronous cudaMemcpy, a copy into pageable
 *   memory, cudaFree), each time the next operation whose dependencies are done taken at random
 *   (EMU_SEED replays it): a stream's operations in order, after the events its waits name, and
 *   the legacy stream ordered with every blocking stream (cudaStreamNonBlocking ones are exempt).
 *   So work on two streams with no event between them meets in any order, as on a GPU.
 * - Stream capture records instead of queueing, across the streams that join the capture by
 *   waiting on an event recorded in it (fork and join); cudaGraphLaunch queues the nodes with their
 *   dependencies, in any order those allow. A kernel's arguments are the lambda's copies
 *   (cu2cpp.py: [=]), made at capture.
 * - Every allocation, registration, stream, event, graph and executable graph is counted, so a
 *   stage's checker can name what destroy left behind, as the grader does (runner.c's words).
 * - A call that CUDA would refuse returns CUDA's error, and says so at once with where it was:
 *   the emulator counts it against the stage. A call this file does not know fails to compile,
 *   by name.
 * One host thread, as the grader's runner has: capture modes Global and ThreadLocal are the same. */
#pragma once
#define EMU_STREAMS /* emu.h leaves the error calls and a launch's stream to this file */
#include "emu.h"
#include <cstdarg>
#include <map>
#include <memory>
#include <set>
#include <type_traits>
#include <vector>

/* ---------------------------------------------------------------- names and errors */

enum : int { /* CUDA's own numbers, so a code printed as a number reads the same */
             cudaErrorInvalidValue = 1,
             cudaErrorMemoryAllocation = 2,
             cudaErrorInvalidConfiguration = 9,
             cudaErrorInvalidDevicePointer = 17,
             cudaErrorInvalidMemcpyDirection = 21,
             cudaErrorInvalidResourceHandle = 400,
             cudaErrorIllegalState = 401,
             cudaErrorNotReady = 600,
             cudaErrorHostMemoryAlreadyRegistered = 712,
             cudaErrorHostMemoryNotRegistered = 713,
             cudaErrorStreamCaptureUnsupported = 900,
             cudaErrorStreamCaptureInvalidated = 901,
             cudaErrorStreamCaptureUnmatched = 903,
             cudaErrorStreamCaptureUnjoined = 904,
             cudaErrorStreamCaptureIsolation = 905,
             cudaErrorStreamCaptureImplicit = 906,
};
static const struct {
    int code;
    const char *name, *text;
} emu_error_names[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {cudaErrorIllegalState, "cudaErrorIllegalState", "the operation cannot be performed in the present state"},
    {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
    {cudaErrorHostMemoryAlreadyRegistered, "cudaErrorHostMemoryAlreadyRegistered",
     "part or all of the requested memory range is already mapped"},
    {cudaErrorHostMemoryNotRegistered, "cudaErrorHostMemoryNotRegistered",
     "pointer does not correspond to a registered memory region"},
    {cudaErrorStreamCaptureUnsupported, "cudaErrorStreamCaptureUnsupported",
     "operation not permitted when stream is capturing"},
    {cudaErrorStreamCaptureInvalidated, "cudaErrorStreamCaptureInvalidated",
     "operation failed due to a previous error during capture"},
    {cudaErrorStreamCaptureUnmatched, "cudaErrorStreamCaptureUnmatched", "capture was not initiated in this stream"},
    {cudaErrorStreamCaptureUnjoined, "cudaErrorStreamCaptureUnjoined", "capturing stream has unjoined work"},
    {cudaErrorStreamCaptureIsolation, "cudaErrorStreamCaptureIsolation",
     "dependency created on uncaptured work in another stream"},
    {cudaErrorStreamCaptureImplicit, "cudaErrorStreamCaptureImplicit",
     "operation would make the legacy stream depend on a capturing blocking stream"},
};
static inline const char *cudaGetErrorName(cudaError_t e)
{
    for (auto &n : emu_error_names)
        if (n.code == e) return n.name;
    return "cudaErrorUnknown";
}
static inline const char *cudaGetErrorString(cudaError_t e)
{
    for (auto &n : emu_error_names)
        if (n.code == e) return n.text;
    return "unrecognized error code";
}

/* The last error a call returned (cudaGetLastError), and the errors of the stage now checked: every
 * refused call is said when made (the first few of a stage) and counted, for the checker. */
static cudaError_t emu_last_error;
static int emu_stage_errors, emu_errors_said;
static cudaError_t emu_error(cudaError_t code, const char *call, const char *fmt, ...)
{
    emu_last_error = code;
    emu_stage_errors++;
    if (emu_errors_said++ >= 5) return code; /* the first ones are the ones to chase */
    char why[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    printf("  emu: %s: %s returned %s: %s\n", emu_where, call, cudaGetErrorName(code), why);
    return code;
}
static inline cudaError_t cudaGetLastError()
{
    cudaError_t e = emu_last_error;
    emu_last_error = cudaSuccess;
    return e;
}
static inline cudaError_t cudaPeekAtLastError() { return emu_last_error; }

/* Calls a student may reach for that this file does not emulate: a compile error that names them
 * (at the student's line: g++'s "required from here"). */
#define EMU_NOT_EMULATED(name)                                                                                         \
    template <class... A> static inline cudaError_t name(A...)                                                         \
    {                                                                                                                  \
        static_assert(sizeof...(A) == 1000,                                                                            \
                      #name " is not emulated by make emulate LAB=05 (scripts/emu/emu_streams.h)");                    \
        return cudaSuccess;                                                                                            \
    }
EMU_NOT_EMULATED(cudaFuncSetAttribute)
EMU_NOT_EMULATED(cudaFuncGetAttributes)
EMU_NOT_EMULATED(cudaGetDeviceProperties)
EMU_NOT_EMULATED(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags)
EMU_NOT_EMULATED(cudaEventElapsedTime)
EMU_NOT_EMULATED(cudaEventRecordWithFlags)
EMU_NOT_EMULATED(cudaLaunchHostFunc)
EMU_NOT_EMULATED(cudaStreamAddCallback)
EMU_NOT_EMULATED(cudaMallocAsync)
EMU_NOT_EMULATED(cudaFreeAsync)
EMU_NOT_EMULATED(cudaMallocManaged)
EMU_NOT_EMULATED(cudaMemcpy2D)
EMU_NOT_EMULATED(cudaMemcpy2DAsync)
EMU_NOT_EMULATED(cudaMemcpyFromSymbol)
EMU_NOT_EMULATED(cudaHostGetDevicePointer)
EMU_NOT_EMULATED(cudaStreamCreateWithPriority)
EMU_NOT_EMULATED(cudaGraphCreate)
EMU_NOT_EMULATED(cudaGraphExecUpdate)
EMU_NOT_EMULATED(cudaGraphUpload)
EMU_NOT_EMULATED(cudaLaunchKernel)
EMU_NOT_EMULATED(cudaSetDevice)
EMU_NOT_EMULATED(cudaDeviceSetLimit)

/* ---------------------------------------------------------------- the queue of work */

/* One operation: a body (a kernel, a copy, a memset) or none (a marker: an event's record, a wait,
 * a graph's start or end), runnable once every operation it depends on is done. A stream's order
 * is a dependency on its previous operation; deps are dropped when done, so history is freed. */
struct emu_op {
    std::function<void()> body;
    std::vector<std::shared_ptr<emu_op>> deps;
    bool done = false;
};
typedef std::shared_ptr<emu_op> emu_op_p;
static std::vector<emu_op_p> emu_pending; /* queued, not run yet */
static uint64_t emu_pick = 1;             /* the order's generator (xorshift), seeded per checked size */
static unsigned emu_pick_next(unsigned n)
{
    emu_pick ^= emu_pick << 13, emu_pick ^= emu_pick >> 7, emu_pick ^= emu_pick << 17;
    return (unsigned)(emu_pick % n);
}
static bool emu_runnable(const emu_op_p &o)
{
    for (auto &d : o->deps)
        if (!d->done) return false;
    return true;
}
/* Run one queued operation whose dependencies are done, any of them: false when none can run. */
static bool emu_step()
{
    std::vector<size_t> ready;
    for (size_t i = 0; i < emu_pending.size(); i++)
        if (emu_runnable(emu_pending[i])) ready.push_back(i);
    if (ready.empty()) return false;
    size_t k = ready[emu_pick_next((unsigned)ready.size())];
    emu_op_p o = emu_pending[k];
    emu_pending.erase(emu_pending.begin() + (long)k);
    if (o->body) o->body();
    o->done = true;
    o->deps.clear();
    o->body = nullptr;
    return true;
}
/* Run queued work until `target` is done (null: until nothing is queued). */
static void emu_run_until(const emu_op_p &target)
{
    while (target ? !target->done : !emu_pending.empty())
        if (!emu_step()) {
            printf("  emu: %s: %zu queued operations wait on each other and can never run\n", emu_where,
                   emu_pending.size());
            emu_stage_errors++;
            emu_pending.clear();
            return;
        }
}

/* ---------------------------------------------------------------- streams and captures */

struct emu_capture;
struct emu_stream_s {
    bool blocking;                    /* ordered with the legacy stream (not cudaStreamNonBlocking) */
    emu_op_p tail;                    /* its last operation: done when all its work is */
    std::shared_ptr<emu_capture> cap; /* the capture it takes part in, if any */
    std::vector<int> frontier;        /* while capturing: the nodes its next node depends on */
};
typedef emu_stream_s *cudaStream_t;
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
enum { cudaStreamDefault = 0, cudaStreamNonBlocking = 1 };
static emu_stream_s emu_legacy = {false, nullptr, nullptr, {}}, emu_per_thread = {true, nullptr, nullptr, {}};
static std::set<emu_stream_s *> emu_live_streams;
static std::vector<emu_stream_s *> emu_blocking; /* the blocking streams, destroyed ones until their work is done */

/* A graph's node: what it does and the earlier nodes it follows. */
struct emu_node {
    std::function<void()> body;
    std::vector<int> deps;
};
enum cudaStreamCaptureMode {
    cudaStreamCaptureModeGlobal = 0,
    cudaStreamCaptureModeThreadLocal = 1,
    cudaStreamCaptureModeRelaxed = 2
};
enum cudaStreamCaptureStatus {
    cudaStreamCaptureStatusNone = 0,
    cudaStreamCaptureStatusActive = 1,
    cudaStreamCaptureStatusInvalidated = 2
};
struct emu_capture {
    std::vector<emu_node> nodes;
    emu_stream_s *origin;
    cudaStreamCaptureMode mode;
    bool invalid = false, ended = false;
    std::vector<emu_stream_s *> members; /* the origin and every stream that joined */
};
static std::vector<std::shared_ptr<emu_capture>> emu_captures; /* under way */

static emu_stream_s *emu_stream(cudaStream_t s, const char *call)
{
    if (s == nullptr || s == cudaStreamLegacy) return &emu_legacy;
    if (s == cudaStreamPerThread) {
        if (std::find(emu_blocking.begin(), emu_blocking.end(), &emu_per_thread) == emu_blocking.end())
            emu_blocking.push_back(&emu_per_thread);
        return &emu_per_thread;
    }
    if (emu_live_streams.count(s)) return s;
    emu_error(cudaErrorInvalidResourceHandle, call, "%p is no stream: destroyed already, or never created", (void *)s);
    return nullptr;
}

/* A capture that a call breaks: it goes on recording, and cudaStreamEndCapture fails. */
static void emu_invalidate_captures()
{
    for (auto &c : emu_captures) c->invalid = true;
}
/* A call that may not be made while a capture not begun in relaxed mode is under way (CUDA's
 * "potentially unsafe" calls: allocations, registrations, synchronous copies, waiting for the device). */
static bool emu_capture_forbids(const char *call)
{
    for (auto &c : emu_captures)
        if (c->mode != cudaStreamCaptureModeRelaxed) {
            emu_error(cudaErrorStreamCaptureUnsupported, call,
                      "not allowed while a stream is being captured (it breaks the capture)");
            emu_invalidate_captures();
            return true;
        }
    return false;
}
/* Work for the legacy stream while a blocking stream is captured would make it wait for that capture. */
static bool emu_legacy_forbidden(const char *call)
{
    for (auto &c : emu_captures)
        for (auto *m : c->members)
            if (m->blocking && c->mode != cudaStreamCaptureModeRelaxed) {
                emu_error(cudaErrorStreamCaptureImplicit, call,
                          "work for the legacy default stream (stream 0) while a blocking stream is being captured");
                emu_invalidate_captures();
                return true;
            }
    return false;
}

/* Queue `body` (none: a marker) on s after its previous work and `after`, or while s is captured add
 * it to the capture as a node. The operation queued, or null (captured, or refused). */
static emu_op_p emu_enqueue(emu_stream_s *s, std::function<void()> body, const char *call, emu_op_p after = nullptr)
{
    if (s->cap) {
        if (s->cap->invalid) {
            emu_error(cudaErrorStreamCaptureInvalidated, call,
                      "the capture this stream is in was broken by an earlier call");
            return nullptr;
        }
        if (body) {
            s->cap->nodes.push_back({body, s->frontier});
            s->frontier = {(int)s->cap->nodes.size() - 1};
        }
        return nullptr;
    }
    if (s == &emu_legacy && emu_legacy_forbidden(call)) return nullptr;
    auto o = std::make_shared<emu_op>();
    o->body = body;
    if (s->tail && !s->tail->done) o->deps.push_back(s->tail);
    if (after && !after->done) o->deps.push_back(after);
    if (s == &emu_legacy) { /* the legacy stream waits for every blocking stream's work so far */
        for (auto *b : emu_blocking)
            if (b->tail && !b->tail->done) o->deps.push_back(b->tail);
    } else if (s->blocking && emu_legacy.tail && !emu_legacy.tail->done) /* and they for its */
        o->deps.push_back(emu_legacy.tail);
    s->tail = o;
    emu_pending.push_back(o);
    return o;
}

static cudaError_t emu_stream_create(cudaStream_t *s, unsigned flags, const char *call)
{
    if (!s) return emu_error(cudaErrorInvalidValue, call, "a null pointer for the stream");
    if (flags > cudaStreamNonBlocking) return emu_error(cudaErrorInvalidValue, call, "flags %u", flags);
    *s = new emu_stream_s{!(flags & cudaStreamNonBlocking), nullptr, nullptr, {}};
    emu_live_streams.insert(*s);
    if ((*s)->blocking) emu_blocking.push_back(*s);
    return cudaSuccess;
}
static inline cudaError_t cudaStreamCreate(cudaStream_t *s) { return emu_stream_create(s, 0, "cudaStreamCreate"); }
static inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags)
{
    return emu_stream_create(s, flags, "cudaStreamCreateWithFlags");
}
/* Its queued work still runs (CUDA releases the stream when that is done); the handle is dead now. */
static inline cudaError_t cudaStreamDestroy(cudaStream_t s)
{
    if (s == nullptr || s == cudaStreamLegacy || s == cudaStreamPerThread || !emu_live_streams.count(s))
        return emu_error(cudaErrorInvalidResourceHandle, "cudaStreamDestroy",
                         "%p is no stream of yours: destroyed already, or never created", (void *)s);
    if (s->cap) {
        emu_error(cudaErrorStreamCaptureInvalidated, "cudaStreamDestroy", "the stream is being captured");
        s->cap->invalid = true;
    }
    emu_live_streams.erase(s);
    return cudaSuccess;
}
static inline cudaError_t cudaStreamSynchronize(cudaStream_t st)
{
    emu_stream_s *s = emu_stream(st, "cudaStreamSynchronize");
    if (!s) return emu_last_error;
    if (s->cap) {
        emu_invalidate_captures();
        return emu_error(cudaErrorStreamCaptureUnsupported, "cudaStreamSynchronize",
                         "the stream is being captured (nothing runs during a capture)");
    }
    /* the legacy stream's wait is for every blocking stream's work too: a marker queued there */
    emu_op_p until = s == &emu_legacy ? emu_enqueue(s, nullptr, "cudaStreamSynchronize") : s->tail;
    if (s == &emu_legacy && !until) return emu_last_error;
    if (until) emu_run_until(until);
    return cudaSuccess;
}
/* Not done yet: one step of the device's work, so that a loop that polls ends. */
static inline cudaError_t cudaStreamQuery(cudaStream_t st)
{
    emu_stream_s *s = emu_stream(st, "cudaStreamQuery");
    if (!s) return emu_last_error;
    if (s->cap) return emu_error(cudaErrorStreamCaptureUnsupported, "cudaStreamQuery", "the stream is being captured");
    if (!s->tail || s->tail->done) return cudaSuccess;
    emu_step();
    return s->tail->done ? cudaSuccess : cudaErrorNotReady;
}
static inline cudaError_t cudaDeviceSynchronize()
{
    if (emu_capture_forbids("cudaDeviceSynchronize")) return emu_last_error;
    emu_run_until(nullptr);
    return cudaSuccess;
}

/* ---------------------------------------------------------------- events */

enum { cudaEventDefault = 0, cudaEventBlockingSync = 1, cudaEventDisableTiming = 2, cudaEventInterprocess = 4 };
/* An event stands for its last record: a point of a stream (the marker queued there) or, recorded
 * in a capture, a point of the graph being built (the nodes a wait on it then depends on). */
struct emu_event_s {
    emu_op_p at;
    std::shared_ptr<emu_capture> cap;
    std::vector<int> frontier;
};
typedef emu_event_s *cudaEvent_t;
static std::set<emu_event_s *> emu_live_events;
static emu_event_s *emu_event(cudaEvent_t e, const char *call)
{
    if (emu_live_events.count(e)) return e;
    emu_error(cudaErrorInvalidResourceHandle, call, "%p is no event: destroyed already, or never created", (void *)e);
    return nullptr;
}
static cudaError_t emu_event_create(cudaEvent_t *e, unsigned flags, const char *call)
{
    if (!e) return emu_error(cudaErrorInvalidValue, call, "a null pointer for the event");
    if (flags > 7) return emu_error(cudaErrorInvalidValue, call, "flags %u", flags);
    *e = new emu_event_s{};
    emu_live_events.insert(*e);
    return cudaSuccess;
}
static inline cudaError_t cudaEventCreate(cudaEvent_t *e) { return emu_event_create(e, 0, "cudaEventCreate"); }
static inline cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags)
{
    return emu_event_create(e, flags, "cudaEventCreateWithFlags");
}
static inline cudaError_t cudaEventDestroy(cudaEvent_t e)
{
    if (!emu_live_events.erase(e))
        return emu_error(cudaErrorInvalidResourceHandle, "cudaEventDestroy",
                         "%p is no event: destroyed already, or never created", (void *)e);
    return cudaSuccess;
}
static inline cudaError_t cudaEventRecord(cudaEvent_t ev, cudaStream_t st = 0)
{
    emu_event_s *e = emu_event(ev, "cudaEventRecord");
    emu_stream_s *s = emu_stream(st, "cudaEventRecord");
    if (!e || !s) return emu_last_error;
    if (s->cap) {
        if (s->cap->invalid)
            return emu_error(cudaErrorStreamCaptureInvalidated, "cudaEventRecord",
                             "the capture was broken by an earlier call");
        e->at = nullptr, e->cap = s->cap, e->frontier = s->frontier;
        return cudaSuccess;
    }
    emu_op_p at = emu_enqueue(s, nullptr, "cudaEventRecord");
    if (!at) return emu_last_error;
    e->at = at, e->cap = nullptr, e->frontier.clear();
    return cudaSuccess;
}
/* Later work on s waits for the event's record as it is now. An event recorded in a capture draws s
 * into that capture (the fork), or adds to the nodes s's next one follows (the join). */
static inline cudaError_t cudaStreamWaitEvent(cudaStream_t st, cudaEvent_t ev, unsigned flags = 0)
{
    emu_event_s *e = emu_event(ev, "cudaStreamWaitEvent");
    emu_stream_s *s = emu_stream(st, "cudaStreamWaitEvent");
    if (!e || !s) return emu_last_error;
    (void)flags;
    if (e->cap) {
        if (e->cap->ended)
            return emu_error(
                cudaErrorStreamCaptureIsolation, "cudaStreamWaitEvent",
                "the event was last recorded in a capture that has ended (a point of that graph, not of a stream)");
        if (s->cap && s->cap != e->cap) {
            emu_invalidate_captures();
            return emu_error(cudaErrorStreamCaptureIsolation, "cudaStreamWaitEvent",
                             "the event was recorded in another capture");
        }
        if (s == &emu_legacy) {
            emu_invalidate_captures();
            return emu_error(cudaErrorStreamCaptureImplicit, "cudaStreamWaitEvent",
                             "the legacy stream cannot join a capture");
        }
        if (!s->cap) { /* work queued on s before it joined stays outside the graph, as in CUDA */
            s->cap = e->cap, s->frontier = e->frontier;
            e->cap->members.push_back(s);
        } else
            for (int n : e->frontier)
                if (std::find(s->frontier.begin(), s->frontier.end(), n) == s->frontier.end()) s->frontier.push_back(n);
        return cudaSuccess;
    }
    if (s->cap) {
        s->cap->invalid = true;
        return emu_error(cudaErrorStreamCaptureIsolation, "cudaStreamWaitEvent",
                         "a captured stream waits on an event recorded outside the capture");
    }
    if (!e->at || e->at->done) return cudaSuccess; /* never recorded, or passed: nothing to wait for */
    return emu_enqueue(s, nullptr, "cudaStreamWaitEvent", e->at) ? cudaSuccess : emu_last_error;
}
/* An event the host may wait on or query: a live one, not last recorded in a capture (NULL, the
 * error returned and said, otherwise). */
static emu_event_s *emu_event_to_wait_on(cudaEvent_t ev, const char *call)
{
    emu_event_s *e = emu_event(ev, call);
    if (e && e->cap) {
        emu_error(cudaErrorStreamCaptureUnsupported, call, "the event was last recorded in a capture");
        return NULL;
    }
    return e;
}
static inline cudaError_t cudaEventSynchronize(cudaEvent_t ev)
{
    emu_event_s *e = emu_event_to_wait_on(ev, "cudaEventSynchronize");
    if (!e) return emu_last_error;
    if (e->at) emu_run_until(e->at);
    return cudaSuccess;
}
static inline cudaError_t cudaEventQuery(cudaEvent_t ev)
{
    emu_event_s *e = emu_event_to_wait_on(ev, "cudaEventQuery");
    if (!e) return emu_last_error;
    if (!e->at || e->at->done) return cudaSuccess;
    emu_step();
    return e->at->done ? cudaSuccess : cudaErrorNotReady;
}

/* ---------------------------------------------------------------- memory */

/* A block of device or pinned host memory: `bytes` usable from the pointer handed out, EMU_GUARD
 * bytes of EMU_GUARD_BYTE either side. */
#define EMU_GUARD 256
#define EMU_GUARD_BYTE 0xa5
struct emu_block {
    size_t bytes;
    unsigned char *base;
};
static std::map<uintptr_t, emu_block> emu_device, emu_host_allocs; /* cudaMalloc; cudaMallocHost and cudaHostAlloc */
static std::map<uintptr_t, size_t> emu_registered;                 /* cudaHostRegister: start, bytes */
static std::set<uintptr_t> emu_freed;                              /* freed, not handed out again */

static void *emu_block_new(std::map<uintptr_t, emu_block> &m, size_t bytes)
{
    size_t total = (bytes + 2 * EMU_GUARD + 255) / 256 * 256;
    unsigned char *base = (unsigned char *)aligned_alloc(256, total);
    if (!base) return nullptr;
    memset(base, EMU_GUARD_BYTE, total);
    memset(base + EMU_GUARD, 0xff, bytes); /* NaN in float and double: a read of what nothing wrote shows */
    m[(uintptr_t)(base + EMU_GUARD)] = {bytes, base};
    emu_freed.erase((uintptr_t)(base + EMU_GUARD));
    return base + EMU_GUARD;
}
/* Bytes of the block's guard zones that a write past either end changed. */
static size_t emu_block_spoiled(uintptr_t p, const emu_block &b)
{
    size_t bad = 0, total = (b.bytes + 2 * EMU_GUARD + 255) / 256 * 256;
    for (size_t k = 0; k < EMU_GUARD; k++) bad += b.base[k] != EMU_GUARD_BYTE;
    for (size_t k = (size_t)((unsigned char *)p - b.base) + b.bytes; k < total; k++) bad += b.base[k] != EMU_GUARD_BYTE;
    return bad;
}
/* The block of m that holds address p, or m.end(). */
template <class M> static typename M::iterator emu_block_at(M &m, const void *p)
{
    auto it = m.upper_bound((uintptr_t)p);
    if (it == m.begin()) return m.end();
    --it;
    size_t bytes;
    if constexpr (std::is_same<typename M::mapped_type, size_t>::value)
        bytes = it->second;
    else
        bytes = it->second.bytes;
    return (uintptr_t)p < it->first + (bytes ? bytes : 1) ? it : m.end();
}
static bool emu_is_device(const void *p) { return emu_block_at(emu_device, p) != emu_device.end(); }
/* Host memory the copy engines reach directly: [p, p + n) within one registration or pinned block. */
static bool emu_is_pinned(const void *p, size_t n)
{
    auto r = emu_block_at(emu_registered, p);
    if (r != emu_registered.end() && (uintptr_t)p + n <= r->first + r->second) return true;
    auto h = emu_block_at(emu_host_allocs, p);
    return h != emu_host_allocs.end() && (uintptr_t)p + n <= h->first + h->second.bytes;
}
/* Is [p, p + n) device memory, within one cudaMalloc? Said (and false) where not. */
static bool emu_device_range(const char *call, const char *which, const void *p, size_t n)
{
    auto it = emu_block_at(emu_device, p);
    if (it == emu_device.end()) {
        emu_error(cudaErrorInvalidValue, call, "the %s %p is not device memory (no cudaMalloc holds it%s)", which, p,
                  emu_freed.count((uintptr_t)p) ? ": freed already" : "");
        return false;
    }
    if ((uintptr_t)p + n > it->first + it->second.bytes) {
        emu_error(cudaErrorInvalidValue, call,
                  "the %s, %zu bytes from byte %zu of a cudaMalloc of %zu bytes, runs %zu bytes past its end", which, n,
                  (size_t)((uintptr_t)p - it->first), it->second.bytes,
                  (size_t)((uintptr_t)p + n - it->first - it->second.bytes));
        return false;
    }
    return true;
}

static cudaError_t emu_malloc(void **p, size_t bytes)
{
    if (!p) return emu_error(cudaErrorInvalidValue, "cudaMalloc", "a null pointer for the result");
    if (emu_capture_forbids("cudaMalloc")) return emu_last_error;
    *p = emu_block_new(emu_device, bytes);
    return *p ? cudaSuccess : emu_error(cudaErrorMemoryAllocation, "cudaMalloc", "%zu bytes", bytes);
}
template <class T> static inline cudaError_t cudaMalloc(T **p, size_t bytes) { return emu_malloc((void **)p, bytes); }

/* Free a block of m: CUDA waits for the device first (cudaFree synchronises), so queued work that
 * uses the block runs before it goes. A write past either end is said here. */
static cudaError_t emu_block_free(std::map<uintptr_t, emu_block> &m, void *p, const char *call, const char *made_by)
{
    if (!p) return cudaSuccess;
    if (emu_capture_forbids(call)) return emu_last_error;
    emu_run_until(nullptr);
    auto it = m.find((uintptr_t)p);
    if (it == m.end()) {
        auto in = emu_block_at(m, p);
        if (in != m.end())
            return emu_error(cudaErrorInvalidValue, call, "%p is byte %zu of a block of %zu bytes, not its start", p,
                             (size_t)((uintptr_t)p - in->first), in->second.bytes);
        if (emu_freed.count((uintptr_t)p))
            return emu_error(cudaErrorInvalidValue, call, "%p was freed already (freed twice)", p);
        return emu_error(cudaErrorInvalidValue, call, "%p was not made by %s", p, made_by);
    }
    size_t spoiled = emu_block_spoiled(it->first, it->second);
    if (spoiled)
        emu_error(cudaErrorInvalidValue, call,
                  "%zu bytes just outside this block of %zu bytes were overwritten: a write past its end (or before "
                  "its start)",
                  spoiled, it->second.bytes);
    free(it->second.base);
    m.erase(it);
    emu_freed.insert((uintptr_t)p);
    return spoiled ? emu_last_error : cudaSuccess;
}
static inline cudaError_t cudaFree(void *p) { return emu_block_free(emu_device, p, "cudaFree", "cudaMalloc"); }

enum { cudaHostAllocDefault = 0, cudaHostAllocPortable = 1, cudaHostAllocMapped = 2, cudaHostAllocWriteCombined = 4 };
enum {
    cudaHostRegisterDefault = 0,
    cudaHostRegisterPortable = 1,
    cudaHostRegisterMapped = 2,
    cudaHostRegisterIoMemory = 4,
    cudaHostRegisterReadOnly = 8
};
static cudaError_t emu_host_alloc(void **p, size_t bytes, const char *call)
{
    if (!p) return emu_error(cudaErrorInvalidValue, call, "a null pointer for the result");
    if (emu_capture_forbids(call)) return emu_last_error;
    *p = emu_block_new(emu_host_allocs, bytes);
    return *p ? cudaSuccess : emu_error(cudaErrorMemoryAllocation, call, "%zu bytes", bytes);
}
template <class T> static inline cudaError_t cudaMallocHost(T **p, size_t bytes, unsigned = 0)
{
    return emu_host_alloc((void **)p, bytes, "cudaMallocHost");
}
template <class T> static inline cudaError_t cudaHostAlloc(T **p, size_t bytes, unsigned)
{
    return emu_host_alloc((void **)p, bytes, "cudaHostAlloc");
}
static inline cudaError_t cudaFreeHost(void *p)
{
    return emu_block_free(emu_host_allocs, p, "cudaFreeHost", "cudaMallocHost or cudaHostAlloc");
}

static inline cudaError_t cudaHostRegister(void *p, size_t bytes, unsigned flags)
{
    if (!p || !bytes || flags > 15)
        return emu_error(cudaErrorInvalidValue, "cudaHostRegister", "pointer %p, %zu bytes, flags %u", p, bytes, flags);
    if (emu_capture_forbids("cudaHostRegister")) return emu_last_error;
    auto next = emu_registered.lower_bound((uintptr_t)p);
    bool overlaps = emu_block_at(emu_registered, p) != emu_registered.end() ||
                    (next != emu_registered.end() && next->first < (uintptr_t)p + bytes);
    if (overlaps || emu_block_at(emu_host_allocs, p) != emu_host_allocs.end())
        return emu_error(
            cudaErrorHostMemoryAlreadyRegistered, "cudaHostRegister",
            "%zu bytes at %p: part or all already registered (an earlier destroy that did not unregister?)", bytes, p);
    emu_registered[(uintptr_t)p] = bytes;
    return cudaSuccess;
}
static inline cudaError_t cudaHostUnregister(void *p)
{
    if (emu_capture_forbids("cudaHostUnregister")) return emu_last_error;
    emu_run_until(nullptr); /* copies still queued from or to it run first */
    if (!emu_registered.erase((uintptr_t)p))
        return emu_error(
            cudaErrorHostMemoryNotRegistered, "cudaHostUnregister",
            "%p is not registered: never, or unregistered already, or not the pointer cudaHostRegister was given", p);
    return cudaSuccess;
}

/* ---------------------------------------------------------------- copies and memsets */

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
};
/* Is the copy's pair of addresses what its kind says, within device memory where it says device? */
static bool emu_copy_ok(const char *call, void *dst, const void *src, size_t n, cudaMemcpyKind &kind)
{
    if (kind == cudaMemcpyDefault) { /* where the pointers are says */
        bool s = emu_is_device(src), d = emu_is_device(dst);
        kind = s ? (d ? cudaMemcpyDeviceToDevice : cudaMemcpyDeviceToHost)
                 : (d ? cudaMemcpyHostToDevice : cudaMemcpyHostToHost);
    }
    if ((int)kind < 0 || kind > cudaMemcpyDefault) {
        emu_error(cudaErrorInvalidMemcpyDirection, call, "kind %d", (int)kind);
        return false;
    }
    if (!dst || !src) {
        emu_error(cudaErrorInvalidValue, call, "a null %s", dst ? "source" : "destination");
        return false;
    }
    bool src_dev = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    bool dst_dev = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    if (src_dev ? !emu_device_range(call, "source", src, n) : false) return false;
    if (dst_dev ? !emu_device_range(call, "destination", dst, n) : false) return false;
    if (!src_dev && emu_is_device(src)) {
        emu_error(cudaErrorInvalidValue, call,
                  "the kind says the source is host memory, but %p is device memory (cudaMalloc)", src);
        return false;
    }
    if (!dst_dev && emu_is_device(dst)) {
        emu_error(cudaErrorInvalidValue, call,
                  "the kind says the destination is host memory, but %p is device memory (cudaMalloc)", dst);
        return false;
    }
    return true;
}
/* A copy queued on s. From pageable host memory the source is read now (the driver stages it
 * before the call returns); into pageable memory the call returns when the copy is done, so the
 * queue runs until it is. Pageable memory cannot be captured. */
static cudaError_t emu_copy_async(void *dst, const void *src, size_t n, cudaMemcpyKind kind, cudaStream_t st,
                                  const char *call)
{
    emu_stream_s *s = emu_stream(st, call);
    if (!s || !emu_copy_ok(call, dst, src, n, kind)) return emu_last_error;
    if (!n) return cudaSuccess;
    bool from_pageable = kind == cudaMemcpyHostToDevice && !emu_is_pinned(src, n);
    bool to_pageable = kind == cudaMemcpyDeviceToHost && !emu_is_pinned(dst, n);
    if (s->cap && (from_pageable || to_pageable)) {
        s->cap->invalid = true;
        return emu_error(cudaErrorStreamCaptureUnsupported, call,
                         "a copy %s pageable host memory (not registered) cannot be captured",
                         from_pageable ? "from" : "to");
    }
    std::function<void()> body;
    if (from_pageable) {
        auto staged =
            std::make_shared<std::vector<unsigned char>>((const unsigned char *)src, (const unsigned char *)src + n);
        body = [=] { memcpy(dst, staged->data(), n); };
    } else
        body = [=] { memcpy(dst, src, n); };
    emu_op_p o = emu_enqueue(s, body, call);
    if (!o && !s->cap) return emu_last_error;
    if (to_pageable || kind == cudaMemcpyHostToHost) emu_run_until(o);
    return cudaSuccess;
}
static inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, cudaMemcpyKind kind,
                                          cudaStream_t st = 0)
{
    return emu_copy_async(dst, src, n, kind, st, "cudaMemcpyAsync");
}
/* On the legacy stream, and the host waits: for the copy itself where it reaches host memory or
 * comes from pinned memory; from pageable memory only for the work before it (the driver stages
 * the source, and the copy to the device may still be under way when the call returns); from
 * device to device not at all. */
static cudaError_t emu_copy(void *dst, const void *src, size_t n, cudaMemcpyKind kind, const char *call)
{
    if (emu_capture_forbids(call) || !emu_copy_ok(call, dst, src, n, kind)) return emu_last_error;
    if (!n) return cudaSuccess;
    if (kind == cudaMemcpyHostToDevice && !emu_is_pinned(src, n)) {
        emu_op_p before = emu_enqueue(&emu_legacy, nullptr, call);
        if (!before) return emu_last_error;
        emu_run_until(before);
    }
    emu_op_p o = emu_enqueue(&emu_legacy, nullptr, call);
    if (!o) return emu_last_error;
    auto staged = std::make_shared<std::vector<unsigned char>>();
    if (kind == cudaMemcpyHostToDevice) staged->assign((const unsigned char *)src, (const unsigned char *)src + n);
    o->body = kind == cudaMemcpyHostToDevice ? std::function<void()>([=] { memcpy(dst, staged->data(), n); })
                                             : std::function<void()>([=] { memcpy(dst, src, n); });
    if (kind == cudaMemcpyHostToDevice && !emu_is_pinned(src, n)) return cudaSuccess;
    if (kind != cudaMemcpyDeviceToDevice) emu_run_until(o);
    return cudaSuccess;
}
static inline cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, cudaMemcpyKind kind)
{
    return emu_copy(dst, src, n, kind, "cudaMemcpy");
}
static cudaError_t emu_memset(void *p, int v, size_t n, cudaStream_t st, const char *call)
{
    emu_stream_s *s = emu_stream(st, call);
    if (!s || !emu_device_range(call, "destination", p, n)) return emu_last_error;
    if (!n) return cudaSuccess;
    emu_op_p o = emu_enqueue(
        s, [=] { memset(p, v, n); }, call);
    return o || s->cap ? cudaSuccess : emu_last_error;
}
/* cudaMemset returns before it is done (on device memory), as on a GPU: ordered on the legacy stream. */
static inline cudaError_t cudaMemset(void *p, int v, size_t n)
{
    if (emu_capture_forbids("cudaMemset")) return emu_last_error;
    return emu_memset(p, v, n, 0, "cudaMemset");
}
static inline cudaError_t cudaMemsetAsync(void *p, int v, size_t n, cudaStream_t st = 0)
{
    return emu_memset(p, v, n, st, "cudaMemsetAsync");
}

/* __constant__ data is an ordinary array here (emu.h): copied into at its place in the legacy stream
 * (the synchronous form waits for it), or in the stream given. */
#undef cudaMemcpyToSymbol
#undef cudaMemcpyToSymbolAsync
static cudaError_t emu_to_symbol(void *sym, size_t size, const void *src, size_t n, size_t offset, cudaMemcpyKind kind,
                                 cudaStream_t st, bool wait, const char *call)
{
    if (offset > size || n > size - offset)
        return emu_error(cudaErrorInvalidValue, call, "%zu bytes at offset %zu of a symbol of %zu bytes", n, offset,
                         size);
    if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return emu_error(cudaErrorInvalidMemcpyDirection, call, "kind %d", (int)kind);
    if (wait && emu_capture_forbids(call)) return emu_last_error;
    emu_stream_s *s = emu_stream(st, call);
    if (!s || !src) return src ? emu_last_error : emu_error(cudaErrorInvalidValue, call, "a null source");
    std::function<void()> body = [=] { memcpy((unsigned char *)sym + offset, src, n); };
    if (!emu_is_device(src) && !emu_is_pinned(src, n)) {
        auto staged =
            std::make_shared<std::vector<unsigned char>>((const unsigned char *)src, (const unsigned char *)src + n);
        body = [=] { memcpy((unsigned char *)sym + offset, staged->data(), n); };
    }
    emu_op_p o = emu_enqueue(s, body, call);
    if (!o && !s->cap) return emu_last_error;
    if (wait) emu_run_until(o);
    return cudaSuccess;
}
#define cudaMemcpyToSymbol(sym, ...) emu_to_symbol_sync((void *)&(sym), sizeof(sym), __VA_ARGS__)
#define cudaMemcpyToSymbolAsync(sym, ...) emu_to_symbol_async((void *)&(sym), sizeof(sym), __VA_ARGS__)
static inline cudaError_t emu_to_symbol_sync(void *sym, size_t size, const void *src, size_t n, size_t offset = 0,
                                             cudaMemcpyKind kind = cudaMemcpyHostToDevice)
{
    return emu_to_symbol(sym, size, src, n, offset, kind, 0, true, "cudaMemcpyToSymbol");
}
static inline cudaError_t emu_to_symbol_async(void *sym, size_t size, const void *src, size_t n, size_t offset = 0,
                                              cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t st = 0)
{
    return emu_to_symbol(sym, size, src, n, offset, kind, st, false, "cudaMemcpyToSymbolAsync");
}

/* A __constant__ array starts each stage as it starts a process (the grader runs each case in a
 * runner of its own): all of them lie in one section, copied when the checker starts and copied
 * back before each create, so a create that forgets to copy the coefficients in finds zeros there,
 * not an earlier stage's. */
#undef __constant__
#define __constant__ __attribute__((section("emu_constant")))
extern char __start_emu_constant[] __attribute__((weak)), __stop_emu_constant[] __attribute__((weak));
static std::vector<char> emu_constant_initial;
static void emu_constant_reset()
{
    static bool saved;
    size_t bytes =
        __start_emu_constant && __stop_emu_constant ? (size_t)(__stop_emu_constant - __start_emu_constant) : 0;
    if (!saved) emu_constant_initial.assign(__start_emu_constant, __start_emu_constant + bytes), saved = true;
    if (bytes) memcpy(__start_emu_constant, emu_constant_initial.data(), bytes);
}

/* ---------------------------------------------------------------- launches */

/* k<<<grid, block, shared, stream>>>(args) (cu2cpp.py): checked as CUDA checks a launch (a bad one
 * queues nothing and leaves cudaErrorInvalidConfiguration for cudaGetLastError), then queued. */
static void emu_launch(dim3 g, dim3 b, std::function<void()> body, size_t shared_bytes, cudaStream_t st)
{
    unsigned long long threads = (unsigned long long)b.x * b.y * b.z;
    if (!g.x || !g.y || !g.z || !threads || threads > 1024 || b.z > 64 || g.y > 65535 || g.z > 65535 ||
        shared_bytes > 48 * 1024) {
        emu_error(cudaErrorInvalidConfiguration, "a kernel launch",
                  "grid (%u, %u, %u), block (%u, %u, %u), %zu bytes of shared memory%s", g.x, g.y, g.z, b.x, b.y, b.z,
                  shared_bytes, !g.x || !g.y || !g.z ? ": a grid of 0 blocks (an empty chunk?)" : "");
        return;
    }
    emu_stream_s *s = emu_stream(st, "a kernel launch");
    if (s)
        emu_enqueue(
            s, [=] { emu_launch(g, b, body, shared_bytes); }, "a kernel launch");
}

/* ---------------------------------------------------------------- capture and graphs */

struct emu_graph_s {
    std::vector<emu_node> nodes;
};
struct emu_exec_s {
    std::vector<emu_node> nodes;
    emu_op_p last; /* the end of its last launch: a launch waits for the one before */
};
typedef emu_graph_s *cudaGraph_t;
typedef emu_exec_s *cudaGraphExec_t;
typedef struct emu_graph_node_s *cudaGraphNode_t;
static std::set<emu_graph_s *> emu_live_graphs;
static std::set<emu_exec_s *> emu_live_execs;

static inline cudaError_t cudaStreamBeginCapture(cudaStream_t st, cudaStreamCaptureMode mode)
{
    emu_stream_s *s = emu_stream(st, "cudaStreamBeginCapture");
    if (!s) return emu_last_error;
    if (s == &emu_legacy)
        return emu_error(cudaErrorStreamCaptureUnsupported, "cudaStreamBeginCapture",
                         "the legacy default stream cannot be captured");
    if (s->cap)
        return emu_error(cudaErrorIllegalState, "cudaStreamBeginCapture", "the stream is being captured already");
    auto c = std::make_shared<emu_capture>();
    c->origin = s, c->mode = mode, c->members = {s};
    s->cap = c, s->frontier.clear();
    emu_captures.push_back(c);
    return cudaSuccess;
}
static inline cudaError_t cudaStreamIsCapturing(cudaStream_t st, cudaStreamCaptureStatus *status)
{
    emu_stream_s *s = emu_stream(st, "cudaStreamIsCapturing");
    if (!s) return emu_last_error;
    *status = !s->cap           ? cudaStreamCaptureStatusNone
              : s->cap->invalid ? cudaStreamCaptureStatusInvalidated
                                : cudaStreamCaptureStatusActive;
    return cudaSuccess;
}
/* The capture ends for every stream in it. It fails where it was broken, or where a stream that joined
 * has nodes the origin's last ones do not follow (not joined back: the graph would end before them). */
static void emu_end_capture(const std::shared_ptr<emu_capture> &c)
{
    for (auto *m : c->members) m->cap = nullptr, m->frontier.clear();
    c->ended = true;
    auto it = std::find(emu_captures.begin(), emu_captures.end(), c);
    if (it != emu_captures.end()) emu_captures.erase(it);
}
static inline cudaError_t cudaStreamEndCapture(cudaStream_t st, cudaGraph_t *graph)
{
    emu_stream_s *s = emu_stream(st, "cudaStreamEndCapture");
    if (!s) return emu_last_error;
    if (graph) *graph = nullptr;
    if (!s->cap) return emu_error(cudaErrorIllegalState, "cudaStreamEndCapture", "the stream is not being captured");
    auto c = s->cap;
    if (c->origin != s) {
        emu_invalidate_captures();
        return emu_error(cudaErrorStreamCaptureUnmatched, "cudaStreamEndCapture",
                         "the capture began on another stream (end it there)");
    }
    if (c->invalid) {
        emu_end_capture(c);
        return emu_error(cudaErrorStreamCaptureInvalidated, "cudaStreamEndCapture",
                         "an earlier call broke the capture (the first error above)");
    }
    std::vector<char> before(c->nodes.size(), 0); /* the nodes the origin's last ones follow, and those */
    std::vector<int> todo = s->frontier;
    while (!todo.empty()) {
        int n = todo.back();
        todo.pop_back();
        if (before[n]) continue;
        before[n] = 1;
        for (int d : c->nodes[n].deps) todo.push_back(d);
    }
    for (auto *m : c->members)
        for (int n : m->frontier)
            if (!before[n]) {
                emu_end_capture(c);
                return emu_error(
                    cudaErrorStreamCaptureUnjoined, "cudaStreamEndCapture",
                    "a stream that joined the capture was not joined back: record an event on it after its last "
                    "work and make the origin stream wait on it before ending the capture");
            }
    if (!graph) {
        emu_end_capture(c);
        return emu_error(cudaErrorInvalidValue, "cudaStreamEndCapture", "a null pointer for the graph");
    }
    *graph = new emu_graph_s{c->nodes};
    emu_live_graphs.insert(*graph);
    emu_end_capture(c);
    return cudaSuccess;
}
static cudaError_t emu_instantiate(cudaGraphExec_t *exec, cudaGraph_t g, const char *call)
{
    if (!exec) return emu_error(cudaErrorInvalidValue, call, "a null pointer for the result");
    *exec = nullptr;
    if (!emu_live_graphs.count(g))
        return emu_error(cudaErrorInvalidValue, call, "%p is no graph (its capture failed? destroyed?)", (void *)g);
    *exec = new emu_exec_s{g->nodes, nullptr};
    emu_live_execs.insert(*exec);
    return cudaSuccess;
}
static inline cudaError_t cudaGraphInstantiate(cudaGraphExec_t *exec, cudaGraph_t g, unsigned long long flags = 0)
{
    (void)flags;
    return emu_instantiate(exec, g, "cudaGraphInstantiate");
}
static inline cudaError_t cudaGraphInstantiate(cudaGraphExec_t *exec, cudaGraph_t g, cudaGraphNode_t *, char *,
                                               size_t) /* CUDA 11's */
{
    return emu_instantiate(exec, g, "cudaGraphInstantiate");
}
static inline cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *exec, cudaGraph_t g, unsigned long long)
{
    return emu_instantiate(exec, g, "cudaGraphInstantiateWithFlags");
}
/* The graph's nodes queued after the stream's work so far and the graph's previous launch, each
 * after the nodes it depends on and no others, so they run in any order the graph allows; the
 * stream's later work waits for all of them. */
static inline cudaError_t cudaGraphLaunch(cudaGraphExec_t x, cudaStream_t st)
{
    emu_stream_s *s = emu_stream(st, "cudaGraphLaunch");
    if (!s) return emu_last_error;
    if (!emu_live_execs.count(x))
        return emu_error(cudaErrorInvalidValue, "cudaGraphLaunch",
                         "%p is no instantiated graph (cudaGraphInstantiate failed? destroyed?)", (void *)x);
    if (s->cap) {
        s->cap->invalid = true;
        return emu_error(cudaErrorStreamCaptureUnsupported, "cudaGraphLaunch",
                         "a graph launched into a capture is not emulated");
    }
    emu_op_p start = emu_enqueue(s, nullptr, "cudaGraphLaunch", x->last);
    if (!start) return emu_last_error;
    std::vector<emu_op_p> ops;
    auto end = std::make_shared<emu_op>();
    end->deps.push_back(start);
    for (auto &n : x->nodes) {
        auto o = std::make_shared<emu_op>();
        o->body = n.body;
        o->deps.push_back(start);
        for (int d : n.deps) o->deps.push_back(ops[d]);
        ops.push_back(o);
        end->deps.push_back(o);
        emu_pending.push_back(o);
    }
    emu_pending.push_back(end);
    s->tail = end, x->last = end;
    return cudaSuccess;
}
static inline cudaError_t cudaGraphDestroy(cudaGraph_t g)
{
    if (!emu_live_graphs.erase(g))
        return emu_error(cudaErrorInvalidValue, "cudaGraphDestroy", "%p is no graph: destroyed already?", (void *)g);
    delete g;
    return cudaSuccess;
}
static inline cudaError_t cudaGraphExecDestroy(cudaGraphExec_t x)
{
    if (!emu_live_execs.erase(x))
        return emu_error(cudaErrorInvalidValue, "cudaGraphExecDestroy",
                         "%p is no instantiated graph: destroyed already?", (void *)x);
    delete x; /* a launch still queued keeps copies of its nodes */
    return cudaSuccess;
}

/* ---------------------------------------------------------------- what the checker calls */

/* Before each stage at each size: the order of the streams' work from the run's seed and this size's
 * number (so EMU_SIZE and EMU_STAGE replay it), and a clean slate of errors. */
static void emu_streams_begin_size(unsigned stage, unsigned size_number)
{
    emu_pick = ((uint64_t)emu_seed << 32 | (stage << 16 | size_number)) * 0x9e3779b97f4a7c15ull | 1;
    emu_last_error = cudaSuccess;
    emu_stage_errors = emu_errors_said = 0;
    emu_constant_reset();
}
/* What the grader does after create and after each run before it looks at y: the device
 * synchronised. A capture still under way (never ended) is said, and ended. */
static void emu_checker_sync()
{
    while (!emu_captures.empty()) {
        emu_error(cudaErrorStreamCaptureUnsupported, "the grader's cudaDeviceSynchronize",
                  "a stream capture begun and never ended (cudaStreamEndCapture)");
        emu_end_capture(emu_captures.back());
    }
    emu_run_until(nullptr);
}
/* After destroy: what is still live, in runner.c's words, said on one line and then released, so
 * that the next stage starts clean (a registration left would refuse the next one's). 0 when none. */
static int emu_left_behind(char *out, size_t len)
{
    emu_run_until(nullptr);
    size_t spoiled = 0;
    for (auto &b : emu_device) spoiled += emu_block_spoiled(b.first, b.second);
    long counts[] = {(long)emu_device.size(),       (long)emu_host_allocs.size(), (long)emu_registered.size(),
                     (long)emu_live_streams.size(), (long)emu_live_events.size(), (long)emu_live_graphs.size(),
                     (long)emu_live_execs.size()};
    static const char *const names[] = {"device allocations (cudaMalloc)",
                                        "pinned allocations (cudaMallocHost)",
                                        "host registrations (cudaHostRegister)",
                                        "streams",
                                        "events",
                                        "graphs",
                                        "instantiated graphs"};
    int k = snprintf(out, len, "left behind after destroy:"), any = 0;
    for (int i = 0; i < 7; i++)
        if (counts[i] && k < (int)len) k += snprintf(out + k, len - k, " %ld %s", counts[i], names[i]), any = 1;
    if (spoiled && k < (int)len)
        snprintf(out + k, len - k, " (and %zu bytes past the ends of those device allocations overwritten)", spoiled);
    for (auto &b : emu_device) free(b.second.base);
    for (auto &b : emu_host_allocs) free(b.second.base);
    emu_device.clear(), emu_host_allocs.clear(), emu_registered.clear(), emu_live_streams.clear(),
        emu_live_events.clear();
    emu_live_graphs.clear(), emu_live_execs.clear(), emu_freed.clear();
    emu_blocking.erase(std::remove_if(emu_blocking.begin(), emu_blocking.end(),
                                      [](emu_stream_s *b) { return !b->tail || b->tail->done; }),
                       emu_blocking.end());
    return any;
}
