// softmax.cu - a study for lab 09's long rows (issue 29): the reference's `registers` path (a block
// a row up to 8192, then the two-kernel split, two reads) against a row held by a thread-block
// cluster (Hopper, sm_90): each block of the cluster takes a slice of the row, its (max, sum) pair is
// merged with the other blocks' through distributed shared memory, then it writes its slice, from
// registers (one read of the input) or read again (from L2, if the slice is still there). The
// reference's own file is included whole (its online_merge and online_block merge the pairs); every
// variant's output is compared with the reference's.
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
    const int shapes[][2] = {{16384, 4096}, {4096, 16384}, {1024, 65536}, {256, 262144}, {64, 1048576}};
    for (auto &sh : shapes) {
        int m = sh[0], n = sh[1];
        printf("m=%d n=%d\n", m, n);
        softmax_registers(m, n, g_in, g_ref);
        CK(cudaDeviceSynchronize());
        double ms = time_ms([&] { softmax_registers(m, n, g_in, g_out); });
        report("reference registers", m, n, ms);
        for (int cs : {2, 4, 8, 16}) {
            cluster<256, 8>(m, n, cs);
            cluster<256, 16>(m, n, cs);
            cluster<512, 16>(m, n, cs);
            cluster<512, 0>(m, n, cs);
            cluster<1024, 0>(m, n, cs);
        }
    }
}
