/* in_place.h - the textbook's first reduction, in place: a pairwise tree in global memory that adds
 * into the input array itself, one launch per level, in[0] holding the sum at the end (then copied
 * to *out). Included by in_place_tree.cu and modifies_when_timed.cu. */
static __global__ void tree_level(int n, long stride, float *v)
{
    long i = ((long)blockIdx.x * blockDim.x + threadIdx.x) * 2 * stride;
    if (i + stride < n) v[i] += v[i + stride];
}
static __global__ void copy_f(const float *from, float *to) { *to = *from; }

static void in_place_sum(int n, const float *in, float *out)
{
    float *v = (float *)in;
    for (long stride = 1; stride < n; stride *= 2) {
        long pairs = (n + 2 * stride - 1) / (2 * stride);
        tree_level<<<(int)((pairs + 255) / 256), 256>>>(n, stride, v);
    }
    copy_f<<<1, 1>>>(v, out);
}
