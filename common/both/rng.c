/* rng.c - see rng.h. xoshiro256** by Blackman and Vigna (public domain algorithm). */
#define _GNU_SOURCE
#include "rng.h"

#include <sys/random.h>
#include <time.h>

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void rng_seed(rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t rng_next(rng *r)
{
    uint64_t *s = r->s;
    uint64_t out = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return out;
}

double rng_uniform(rng *r, double lo, double hi)
{
    /* 53 random bits give every double in [0,1) on the 2^-53 grid. */
    double u = (double)(rng_next(r) >> 11) * 0x1.0p-53;
    return lo + (hi - lo) * u;
}

int rng_int(rng *r, int lo, int hi)
{
    uint64_t span = (uint64_t)((int64_t)hi - lo + 1);
    return lo + (int)(rng_next(r) % span);
}

uint64_t rng_fresh_seed(void)
{
    uint64_t s;
    if (getrandom(&s, sizeof s, 0) == (ssize_t)sizeof s) return s;
    return (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ull;
}
