/* textbook: pipelined
 * The tensor-core GEMM of NVIDIA's cuda-samples cudaTensorCoreGemm (its design: see
 * textbook/samples_tensorcore.h, where this project's code for it lives: blocks of 8 warps,
 * 256 threads, each computing a 128 x 128 tile of C, the warps 4 down and 2 across with 32 x 64
 * each, K taken 64 at a time, shared rows skewed by 16 halves, warps 0-3 bringing in A's part and
 * warps 4-7 B's 16 bytes a lane, the result leaving through shared memory, one persistent block
 * per multiprocessor), with its copies to shared memory made asynchronous and double-buffered,
 * the scheme the CUDA C++ Programming Guide teaches with its pipeline primitives (and
 * cuda-samples globalToShmemAsyncCopy shows): two sets of A and B buffers; before a tile's first
 * products, the first two parts of K are requested (__pipeline_memcpy_async, 16 bytes a lane, one
 * __pipeline_commit per part); then for every part: __pipeline_wait_prior(1), __syncthreads(),
 * the products, __syncthreads(), and the request of the part two further on into the buffers
 * just read, committed (an empty group when K has no such part, so that groups and parts keep
 * counting together). On sm_80 and later these primitives compile to cp.async.cg,
 * cp.async.commit_group and cp.async.wait_group. Adapted to the lab as the synchronous files
 * are: B row-major (its part kept as 64 rows of 128 + 16 halves, row_major matrix_b fragments),
 * C = A B with C never read (the sums start at zero), M, N, K known only at run time and
 * multiples of 16 (pieces past the edges of A and B zero-filled by the primitive's zfill
 * argument, from a valid source address; the tile count rounded up; nothing stored outside C),
 * the multiprocessor count from cudaDeviceGetAttribute, and 76 KB of dynamic shared memory
 * requested (two sets of buffers of 38 KB; the float tile's 64 KB reuses them). Only `pipelined`
 * launches it (the other stages launch nothing): the study of what a pass certifies grades this
 * file, and a textbook kernel with the right technique must pass. */
#include "wmma_gemm.h"

#include "textbook/samples_tensorcore.h"

#include <cuda_pipeline.h>

/* Sets of A and B buffers: parts of K in flight or in use. */
static constexpr unsigned DEPTH = 2;

/* A 16-byte piece copied asynchronously (cp.async); outside the matrix, 16 bytes of zeros
 * (the zfill argument: all 16 bytes filled, none read, from a source address that must still be
 * valid: the matrix's start). */
struct AsyncMove {
    __device__ __forceinline__ void operator()(half *to, const half *g, size_t at, bool inside) const
    {
        if (inside)
            __pipeline_memcpy_async(to, g + at, sizeof(int4));
        else
            __pipeline_memcpy_async(to, g, sizeof(int4), sizeof(int4));
    }
};

static __global__ void tiled_gemm_cp_async(const half *A, const half *B, float *C, int M, int N, int K)
{
    typedef tcg::Slab<tcg::PADDED> L;
    half *bufs = reinterpret_cast<half *>(tcg::dyn_smem());
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const unsigned across = (N + tcg::TILE_N - 1) / tcg::TILE_N;
    const unsigned tiles = (M + tcg::TILE_M - 1) / tcg::TILE_M * across;

    for (unsigned t = blockIdx.x; t < tiles; t += gridDim.x) {
        const unsigned m0 = t / across * tcg::TILE_M, n0 = t % across * tcg::TILE_N;

        tcg::FragC acc[tcg::FM][tcg::FN];
        tcg::zero(acc);

        /* Ask for the first DEPTH parts of K, one commit group each (empty past K's end). */
        for (unsigned d = 0; d < DEPTH; ++d) {
            if (d * tcg::KSLAB < (unsigned)K)
                tcg::block_fill<tcg::PADDED>(bufs + d * L::HALVES, A, B, M, N, K, m0, n0, d * tcg::KSLAB, warp, lane,
                                             AsyncMove());
            __pipeline_commit();
        }

        unsigned cur = 0;
        for (unsigned k0 = 0; k0 < (unsigned)K; k0 += tcg::KSLAB) {
            half *buf = bufs + cur * L::HALVES;

            /* The oldest group of this thread (part k0) is in; after the barrier, everyone's is. */
            __pipeline_wait_prior(DEPTH - 1);
            __syncthreads();

            tcg::warp_multiply<tcg::PADDED>(acc, buf, warp);

            /* No warp reads `buf` any more: it takes the part DEPTH further on. */
            __syncthreads();
            const unsigned ahead = k0 + DEPTH * tcg::KSLAB;
            if (ahead < (unsigned)K)
                tcg::block_fill<tcg::PADDED>(buf, A, B, M, N, K, m0, n0, ahead, warp, lane, AsyncMove());
            __pipeline_commit();

            cur = (cur + 1) % DEPTH;
        }

        /* Every group still open is empty: the buffers are free for the float tile. */
        tcg::write_tile(acc, C, M, N, m0, n0, warp, lane);
    }
}

extern "C" void wmma_warp_tile(int, int, int, const lab_half *, const lab_half *, float *) {}
extern "C" void wmma_block_tile(int, int, int, const lab_half *, const lab_half *, float *) {}
extern "C" void wmma_padded(int, int, int, const lab_half *, const lab_half *, float *) {}
extern "C" void wmma_pipelined(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    tcg::launch_persistent(tiled_gemm_cp_async, tcg::larger(DEPTH * tcg::Slab<tcg::PADDED>::BYTES, tcg::TILE_BYTES), M,
                           N, K, A, B, C);
}
