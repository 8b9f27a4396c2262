/* rng.h - a small, fast, seedable generator (splitmix64 seeding xoshiro256**).
 * Every random input and every drawn size comes from one printed seed, so SEED=... replays a run. */
#ifndef RNG_H
#define RNG_H

#include <stdint.h>

typedef struct { uint64_t s[4]; } rng;

void rng_seed(rng *r, uint64_t seed);
uint64_t rng_next(rng *r);
/* Uniform double in [lo, hi). */
double rng_uniform(rng *r, double lo, double hi);
/* Uniform integer in [lo, hi] (inclusive). */
int rng_int(rng *r, int lo, int hi);
/* A fresh seed from the OS (printed by the caller, never used silently). */
uint64_t rng_fresh_seed(void);

#endif
