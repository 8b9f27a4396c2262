/* guards.h - a checker's host arrays between guard zones: G elements of a poison value either side
 * (256-byte aligned, as cudaMalloc's), and a count of guard elements a kernel wrote over. */
#ifndef EMU_GUARDS_H
#define EMU_GUARDS_H
#include <cstddef>
#include <cstdlib>
static const size_t G = 1024; /* guard elements either side of each array */
template <class T> static T *guarded(size_t n, T poison)
{
    T *p = (T *)aligned_alloc(256, ((n + 2 * G) * sizeof(T) + 255) / 256 * 256);
    for (size_t k = 0; k < n + 2 * G; k++) p[k] = poison;
    return p + G; /* G elements of 2, 4 or 8 bytes: the data stays 256-byte aligned */
}
/* Guard elements no longer holding the poison (NaN: any NaN). */
template <class T> static long outside(const T *p, size_t n, T poison)
{
    long bad = 0;
    for (size_t k = 0; k < G; k++) {
        T a = p[-1 - (long)k], b = p[n + k];
        bad += !(a == poison || (poison != poison && a != a)) + !(b == poison || (poison != poison && b != b));
    }
    return bad;
}
#endif
