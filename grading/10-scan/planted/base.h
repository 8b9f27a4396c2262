/* base.h - the plain scan the lab-10 plants are made from: tiles of 1024 scanned by Hillis-Steele,
 * their totals scanned by the same function (as deep as n needs), each tile's offset added. Right
 * as it stands (the honest variants are written apart from it); each plant defines one PLANT_
 * switch before including it to break one thing. */
#include "scan.h"

#define TILE 1024
#ifdef PLANT_FLOAT /* the offsets added in float */
typedef float acc;
#else
typedef int acc;
#endif

static __global__ void tile_scan(const int *in, int *out, long long n, int *totals)
{
    __shared__ int s[2][TILE];
    int t = threadIdx.x, cur = 0;
    long long i = (long long)blockIdx.x * TILE + t;
    int x = i < n ? in[i] : 0;
    s[0][t] = x;
#ifndef PLANT_NO_SYNC
    __syncthreads();
#endif
    for (int d = 1; d < TILE; d *= 2) {
        int v = s[cur][t] + (t >= d ? s[cur][t - d] : 0);
        s[1 - cur][t] = v;
        cur = 1 - cur;
#ifndef PLANT_NO_SYNC
        __syncthreads();
#endif
    }
#ifdef PLANT_INCLUSIVE
    int r = s[cur][t];
#else
    int r = s[cur][t] - x;
#endif
#ifdef PLANT_PAST_THE_END
    out[i] = r; /* the last tile's every thread writes, past n too */
#else
    if (i < n) out[i] = r;
#endif
    if (totals && t == TILE - 1) totals[blockIdx.x] = s[cur][t];
}

static __global__ void add_offsets(int *out, long long n, const int *offsets)
{
    long long i = (long long)blockIdx.x * TILE + threadIdx.x;
    if (i < n) out[i] = (int)((acc)out[i] + (acc)offsets[blockIdx.x]);
}

static void sc(int n, const int *in, int *out, int *work)
{
    int tiles = (n + TILE - 1) / TILE;
    if (tiles == 1) {
        tile_scan<<<1, TILE>>>(in, out, n, nullptr);
        return;
    }
    tile_scan<<<tiles, TILE>>>(in, out, n, work);
#ifdef PLANT_WITHIN_ONE_TILE
    return; /* each tile's own scan, no offsets */
#endif
#ifdef PLANT_TWO_LEVELS
    tile_scan<<<1, TILE>>>(work, work, tiles < TILE ? tiles : TILE, nullptr); /* the first 1024 totals only */
#else
    sc(tiles, work, work, work + tiles);
#endif
    add_offsets<<<tiles, TILE>>>(out, n, work);
}
