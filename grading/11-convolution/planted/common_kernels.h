/* common_kernels.h - what most lab-11 plants share: a grid of 32 x 8 threads, one an output, and
 * the filter in constant memory. Each plant differs from a correct kernel in one thing. */
static __constant__ float plant_filter[CONV_MAX_K * CONV_MAX_K];

static void plant_load_filter(int K, const float *filter)
{
    cudaMemcpyToSymbol(plant_filter, filter, sizeof(float) * K * K, 0, cudaMemcpyDeviceToDevice);
}

static dim3 plant_grid(int m, int n) { return dim3((unsigned)((n + 31) / 32), (unsigned)((m + 7) / 8)); }
static const dim3 plant_block(32, 8);

#ifdef PLANT_CORRECT
/* A correct kernel, one thread an output, the filter from plant_filter: for plants whose fault lies
 * elsewhere (what they do around it). */
static __global__ void plant_correct(int m, int n, int K, const float *in, float *out)
{
    int j = blockIdx.x * 32 + threadIdx.x, i = blockIdx.y * 8 + threadIdx.y, r = K / 2;
    if (i >= m || j >= n) return;
    float acc = 0.0f;
    for (int a = 0; a < K; a++)
        for (int b = 0; b < K; b++) {
            int row = i + a - r, col = j + b - r;
            if (row >= 0 && row < m && col >= 0 && col < n)
                acc = fmaf(plant_filter[a * K + b], in[(size_t)row * n + col], acc);
        }
    out[(size_t)i * n + j] = acc;
}
#endif
