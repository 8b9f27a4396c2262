// softmax.cu - a study for lab 09's long rows (issue 29): the reference's `registers` path (a block
// a row up to 8192, then the two-kernel split, two reads) against a row held by a thread-block
// cluster (Hopper, sm_90): each block of the cluster takes a slice of the row, its (max, sum) pair is
// merged with the other blocks' through distributed shared memory, then it writes its slice, from
// registers (one read of the input) or read again (from L2, if the slice is still there). The
// reference's own file is included whole (its online_merge and online_block merge the pairs); every
// variant's output is compared with the reference's.
// Since the thirty-fourth session it also times the reference's path for rows past 65536 (row_chunks,
// a block a chunk of a row, the row's pairs merged through global memory) against the two-read split
// it replaced, each compared with the two-read split's output.
// Percent of the device copy bandwidth measured here, the traffic one read and one write.
#include "common.h"
#include "09-softmax/softmax.cu" /* solutions/, on the include path */

#include <cfloat>
#include <cmath>
#include <cstring>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

// Row `blockIdx.x / cluster size` of n floats (n a multiple of 4), slice `rank` of it; K float4 a
// thread held in registers, or (K = 0) the slice read twice.
template <int THREADS, int K>
__global__ void __launch_bounds__(THREADS) cluster_kernel(int n, const float *__restrict__ in, float *__restrict__ out)
{
    cg::cluster_group cl = cg::this_cluster();
    const unsigned rank = cl.block_rank(), cs = cl.num_blocks();
    const size_t row = blockIdx.x / cs;
    const float4 *x = reinterpret_cast<const float4 *>(in + row * n);
    float4 *y = reinterpret_cast<float4 *>(out + row * n);
    const int n4 = n / 4, per = (n4 + (int)cs - 1) / (int)cs, lo = (int)rank * per, hi = min(n4, lo + per);
    float mx = -FLT_MAX, s = 0;
    float4 v[K > 0 ? K : 1];
    if constexpr (K > 0) {
#pragma unroll
        for (int k = 0; k < K; k++) {
            int j = lo + k * THREADS + (int)threadIdx.x;
            v[k] = j < hi ? x[j] : make_float4(-FLT_MAX, -FLT_MAX, -FLT_MAX, -FLT_MAX);
            mx = fmaxf(mx, fmaxf(fmaxf(v[k].x, v[k].y), fmaxf(v[k].z, v[k].w)));
        }
#pragma unroll
        for (int k = 0; k < K; k++)
            if (lo + k * THREADS + (int)threadIdx.x < hi)
                s += __expf(v[k].x - mx) + __expf(v[k].y - mx) + __expf(v[k].z - mx) + __expf(v[k].w - mx);
    } else {
        for (int j = lo + (int)threadIdx.x; j < hi; j += THREADS) {
            float4 a = x[j];
            float m4 = fmaxf(fmaxf(a.x, a.y), fmaxf(a.z, a.w));
            online_merge(mx, s, m4, __expf(a.x - m4) + __expf(a.y - m4) + __expf(a.z - m4) + __expf(a.w - m4));
        }
    }
    online_block(mx, s); // the reference's: the block's pair, in every thread
    __shared__ float2 mine;
    if (threadIdx.x == 0) mine = make_float2(mx, s);
    cl.sync(); // every block's pair written
    float M = -FLT_MAX, S = 0;
    for (unsigned r = 0; r < cs; r++) {
        float2 p = *cl.map_shared_rank(&mine, r);
        online_merge(M, S, p.x, p.y);
    }
    cl.sync(); // every block done reading the others' pairs before any ends
    const float inv = 1.0f / S;
    if constexpr (K > 0) {
#pragma unroll
        for (int k = 0; k < K; k++) {
            int j = lo + k * THREADS + (int)threadIdx.x;
            if (j < hi)
                y[j] = make_float4(__expf(v[k].x - M) * inv, __expf(v[k].y - M) * inv, __expf(v[k].z - M) * inv,
                                   __expf(v[k].w - M) * inv);
        }
    } else {
        for (int j = lo + (int)threadIdx.x; j < hi; j += THREADS) {
            float4 a = x[j];
            y[j] = make_float4(__expf(a.x - M) * inv, __expf(a.y - M) * inv, __expf(a.z - M) * inv, __expf(a.w - M) * inv);
        }
    }
}

template <int THREADS, int K> static bool cluster_launch(int m, int n, int cs, const float *in, float *out)
{
    auto kern = cluster_kernel<THREADS, K>;
    if (K > 0 && (long)cs * THREADS * K * 4 < n) return false; // the row does not fit the cluster's registers
    if (cs > 8 && cudaFuncSetAttribute(kern, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) != cudaSuccess) return false;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3((unsigned)(m * cs));
    cfg.blockDim = dim3(THREADS);
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = (unsigned)cs, at[0].val.clusterDim.y = 1, at[0].val.clusterDim.z = 1;
    cfg.attrs = at, cfg.numAttrs = 1;
    return cudaLaunchKernelEx(&cfg, kern, n, in, out) == cudaSuccess;
}

static float *g_in, *g_out, *g_ref;
static double g_copy;

static void report(const char *what, int m, int n, double ms)
{
    size_t N = (size_t)m * n;
    std::vector<float> a(N), b(N);
    CK(cudaMemcpy(a.data(), g_out, 4 * N, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(b.data(), g_ref, 4 * N, cudaMemcpyDeviceToHost));
    double worst = 0;
    for (size_t i = 0; i < N; i++) worst = std::max(worst, (double)fabsf(a[i] - b[i]) / (fabsf(b[i]) + 1e-30f));
    double gbs = 8.0 * N / ms / 1e6;
    printf("  %-34s %8.4f ms %7.0f GB/s %5.1f%% of copy   worst relative difference from the reference %.1e\n", what, ms,
           gbs, 100 * gbs / g_copy, worst);
}

template <int THREADS, int K> static void cluster(int m, int n, int cs)
{
    char what[96];
    snprintf(what, sizeof what, "cluster %2d x %4d threads, %s", cs, THREADS, K ? "registers" : "read twice");
    if (K) snprintf(what + strlen(what), sizeof what - strlen(what), " (%d)", K * 4);
    CK(cudaMemset(g_out, 0, (size_t)m * n * 4));
    if (!cluster_launch<THREADS, K>(m, n, cs, g_in, g_out)) {
        printf("  %-34s does not fit or would not launch (%s)\n", what, cudaGetErrorString(cudaGetLastError()));
        return;
    }
    CK(cudaDeviceSynchronize());
    double ms = time_ms([&] { cluster_launch<THREADS, K>(m, n, cs, g_in, g_out); });
    report(what, m, n, ms);
}

template <int F> static void chunks(int m, int n)
{
    if (!row_chunks_fit<F>(m, n)) return;
    char what[96];
    snprintf(what, sizeof what, "row_chunks, %d floats a thread", F);
    CK(cudaMemset(g_out, 0, (size_t)m * n * 4));
    double ms = time_ms([&] { row_chunks<F>(m, n, g_in, g_out); });
    report(what, m, n, ms);
}

// The same, the chunk (CH floats) copied into shared memory by cp.async instead of registers: no
// registers hold it while it loads or while the block waits, so more blocks (bytes) are in flight.
template <int CH>
__global__ void __launch_bounds__(256) smem_chunks_kernel(int n, int chunks, const float *__restrict__ in, float *__restrict__ out)
{
    extern __shared__ float4 buf[];
    const unsigned ticket = take_ticket(), c = ticket % chunks;
    const size_t row = ticket / chunks;
    const float4 *x = reinterpret_cast<const float4 *>(in + row * n);
    float4 *y = reinterpret_cast<float4 *>(out + row * n);
    const int lo = (int)c * (CH / 4), cnt = min(n / 4 - lo, CH / 4);
    for (int k = threadIdx.x; k < cnt; k += 256) {
        unsigned dst = (unsigned)__cvta_generic_to_shared(&buf[k]);
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(x + lo + k));
    }
    asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;" ::: "memory");
    __syncthreads();
    float mx = -FLT_MAX, s = 0;
    for (int k = threadIdx.x; k < cnt; k += 256) mx = fmaxf(mx, most(buf[k]));
    mx = block_reduce<warp_max>(mx, -FLT_MAX);
    for (int k = threadIdx.x; k < cnt; k += 256) { float4 v = buf[k]; s += exp_in_place(v, mx); }
    s = block_reduce<warp_sum>(s, 0.0f);
    float M, S;
    merge_row_pairs(row, chunks, c, mx, s, M, S);
    const float inv = 1.0f / S;
    for (int k = threadIdx.x; k < cnt; k += 256) {
        float4 v = buf[k];
        y[lo + k] = make_float4(__expf(v.x - M) * inv, __expf(v.y - M) * inv, __expf(v.z - M) * inv, __expf(v.w - M) * inv);
    }
}

template <int CH> static void smem_chunks(int m, int n)
{
    if (n % CH) return;
    int chunks = n / CH, sms = 0, per = 0;
    auto kern = smem_chunks_kernel<CH>;
    CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, CH * 4));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, kern, 256, CH * 4));
    if (2L * chunks > (long)sms * per || (long)m * chunks > CHUNK_PAIRS) return;
    char what[96];
    snprintf(what, sizeof what, "smem chunks of %d (%d blocks an SM)", CH, per);
    CK(cudaMemset(g_out, 0, (size_t)m * n * 4));
    double ms = time_ms([&] { kern<<<m * chunks, 256, CH * 4>>>(n, chunks, g_in, g_out); });
    report(what, m, n, ms);
}

int main()
{
    const size_t N = (size_t)1 << 26; // every shape below: 256 MiB of floats
    CK(cudaMalloc(&g_in, 4 * N));
    CK(cudaMalloc(&g_out, 4 * N));
    CK(cudaMalloc(&g_ref, 4 * N));
    std::vector<float> h(N);
    for (size_t i = 0; i < N; i++) h[i] = (float)((i * 2654435761u) % 1801) / 20.0f; // 0 .. 90, as the grader's
    CK(cudaMemcpy(g_in, h.data(), 4 * N, cudaMemcpyHostToDevice));
    g_copy = copy_gbs((size_t)1 << 29);
    printf("device copy %.0f GB/s\n", g_copy);
    const int shapes[][2] = {{16384, 4096}, {4096, 16384}, {1024, 65536}, {256, 262144}, {64, 1048576}, {16, 4194304}};
    for (auto &sh : shapes) {
        int m = sh[0], n = sh[1];
        printf("m=%d n=%d\n", m, n);
        online_any(m, n, g_in, g_ref); // the two-read split: the reference's path past 65536 before row_chunks
        CK(cudaDeviceSynchronize());
        double ms = time_ms([&] { online_any(m, n, g_in, g_out); });
        report("two reads (online_any)", m, n, ms);
        CK(cudaMemset(g_out, 0, (size_t)m * n * 4));
        ms = time_ms([&] { softmax_registers(m, n, g_in, g_out); });
        report("reference registers", m, n, ms);
        chunks<8>(m, n);
        chunks<16>(m, n);
        chunks<32>(m, n);
        chunks<64>(m, n);
        smem_chunks<4096>(m, n);
        smem_chunks<8192>(m, n);
        smem_chunks<16384>(m, n);
    }
}
