/* emu_half.h - cuda_fp16.h's half precision on the CPU, for scripts/emu (lab 07): __half (also
 * `half`) is IEEE binary16 in 16 bits, and every conversion into it rounds to nearest, ties to
 * even, with subnormals, infinities and NaN, as the GPU's cvt.rn.f16 does: a kernel that rounds an
 * intermediate to half (an fp16 accumulator) loses here exactly what it loses there.
 * Arithmetic on halves is done in float and rounded once: for +, -, *, / that is the correctly
 * rounded half result (float's 24 bits are at least twice half's 11, plus 2, so rounding twice
 * cannot differ from rounding once); __hfma goes through double, exact for any product of halves. */
#ifndef EMU_HALF_H
#define EMU_HALF_H
#include <cstdint>
#include <cstring>
#include <type_traits>

/* The binary16 bits nearest a double (ties to even). A float converts exactly to double, so this
 * serves both without a second rounding. */
static inline uint16_t emu_half_bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    uint16_t sign = (uint16_t)(b >> 48 & 0x8000);
    int exp = (int)(b >> 52 & 0x7ff);
    uint64_t mant = b & ((1ull << 52) - 1);
    if (exp == 0x7ff) return sign | 0x7c00 | (mant ? 0x200 | (uint16_t)(mant >> 42) : 0); /* inf, or a quiet NaN */
    if (exp == 0) return sign; /* double subnormals: far below half's */
    int e = exp - 1023;
    if (e > 15) return sign | 0x7c00;
    /* value = full 2^(e - 52); a half keeps 11 bits from 2^-14 up (normal), or bits down to 2^-24 (subnormal) */
    uint64_t full = 1ull << 52 | mant;
    int shift = e >= -14 ? 42 : 42 + (-14 - e);
    if (shift > 63) return sign; /* below 2^-25: rounds to zero */
    uint64_t m = full >> shift, rest = full & ((1ull << shift) - 1), halfway = 1ull << (shift - 1);
    if (rest > halfway || (rest == halfway && (m & 1))) m++;
    /* normal: m holds the implicit bit (0x400), which adds one to the exponent field below; a
     * rounding carry past 11 bits moves into the exponent by itself, up to infinity (0x7c00) */
    uint32_t r = e >= -14 ? (uint32_t)(e + 14) << 10 : 0;
    r += (uint32_t)m;
    return sign | (uint16_t)(r >= 0x7c00 ? 0x7c00 : r);
}

static inline float emu_half_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = h >> 10 & 0x1f, mant = h & 0x3ff, f;
    if (exp == 0x1f)
        f = sign | 0x7f800000u | mant << 13;
    else if (exp)
        f = sign | (exp + 112) << 23 | mant << 13;
    else if (!mant)
        f = sign;
    else { /* subnormal: mant 2^-24, normalised for float */
        int s = 0;
        while (!(mant & 0x400)) mant <<= 1, s++;
        f = sign | (uint32_t)(113 - s) << 23 | (mant & 0x3ff) << 13;
    }
    float r;
    memcpy(&r, &f, sizeof r);
    return r;
}

/* A half: 16 bits, trivially copyable (a uint4 store may carry 8 of them), converted as CUDA's
 * is: implicitly from and to float. */
struct __half {
    uint16_t __x;
    __half() = default;
    __half(float f) : __x(emu_half_bits(f)) {}
    __half(double d) : __x(emu_half_bits(d)) {}
    template <class I, typename std::enable_if<std::is_integral<I>::value, int>::type = 0>
    __half(I i) : __x(emu_half_bits((double)i))
    {
    } /* the value, as CUDA's integer constructors */
    operator float() const { return emu_half_float(__x); }
};
typedef __half half;
struct __half2 {
    __half x, y;
};
typedef __half2 half2;

static inline __half emu_half_of_bits(uint16_t b)
{
    __half h;
    h.__x = b;
    return h;
}
static inline __half __float2half(float f) { return __half(f); }
static inline __half __float2half_rn(float f) { return __half(f); }
static inline __half __double2half(double d) { return __half(d); }
static inline __half __int2half_rn(int i) { return __half(i); }
static inline float __half2float(__half h) { return emu_half_float(h.__x); }
static inline __half __ushort_as_half(unsigned short b) { return emu_half_of_bits(b); }
static inline unsigned short __half_as_ushort(__half h) { return h.__x; }
static inline __half2 __floats2half2_rn(float a, float b) { return {__half(a), __half(b)}; }
static inline __half2 __float2half2_rn(float a) { return {__half(a), __half(a)}; }
static inline __half2 __halves2half2(__half a, __half b) { return {a, b}; }
static inline __half2 __half2half2(__half a) { return {a, a}; }
static inline __half __low2half(__half2 h) { return h.x; }
static inline __half __high2half(__half2 h) { return h.y; }
static inline float __low2float(__half2 h) { return __half2float(h.x); }
static inline float __high2float(__half2 h) { return __half2float(h.y); }
static inline float2 __half22float2(__half2 h) { return {__half2float(h.x), __half2float(h.y)}; }

/* Arithmetic, each result rounded to half once (see the top). */
static inline __half __hadd(__half a, __half b) { return __half((float)a + (float)b); }
static inline __half __hsub(__half a, __half b) { return __half((float)a - (float)b); }
static inline __half __hmul(__half a, __half b) { return __half((float)a * (float)b); }
static inline __half __hdiv(__half a, __half b) { return __half((float)a / (float)b); }
static inline __half __hneg(__half a) { return emu_half_of_bits(a.__x ^ 0x8000); }
static inline __half __habs(__half a) { return emu_half_of_bits(a.__x & 0x7fff); }
/* fused: a b is exact in double (22 bits), and + c almost always is; rounded to half once */
static inline __half __hfma(__half a, __half b, __half c) { return __half((double)(float)a * (float)b + (float)c); }
static inline __half2 __hadd2(__half2 a, __half2 b) { return {__hadd(a.x, b.x), __hadd(a.y, b.y)}; }
static inline __half2 __hmul2(__half2 a, __half2 b) { return {__hmul(a.x, b.x), __hmul(a.y, b.y)}; }
static inline __half2 __hfma2(__half2 a, __half2 b, __half2 c)
{
    return {__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)};
}
static inline bool __heq(__half a, __half b) { return (float)a == (float)b; }
static inline bool __hlt(__half a, __half b) { return (float)a < (float)b; }
static inline bool __hgt(__half a, __half b) { return (float)a > (float)b; }
static inline bool __hisnan(__half a) { return (a.__x & 0x7fff) > 0x7c00; }
static inline bool __hisinf(__half a) { return (a.__x & 0x7fff) == 0x7c00; }
static inline __half operator+(__half a, __half b) { return __hadd(a, b); }
static inline __half operator-(__half a, __half b) { return __hsub(a, b); }
static inline __half operator*(__half a, __half b) { return __hmul(a, b); }
static inline __half operator/(__half a, __half b) { return __hdiv(a, b); }
static inline __half operator-(__half a) { return __hneg(a); }
static inline __half &operator+=(__half &a, __half b) { return a = __hadd(a, b); }
static inline __half &operator-=(__half &a, __half b) { return a = __hsub(a, b); }
static inline __half &operator*=(__half &a, __half b) { return a = __hmul(a, b); }

#endif
