// Shared declarations between the FMKernels translation units (not part of the public header).
#pragma once
#include "include/FMKernels.h"
#include <math.h>

// Every level must round as the others do, so no compiler may fuse a multiply and an add on its own:
// fused multiply-adds are written out (`fmaf`, intrinsics) where ggml's order has them. Clang honours
// this pragma; GCC ignores it, so builds also pass -ffp-contract=off (Package.swift, .ci/kernels-aarch64).
#pragma STDC FP_CONTRACT OFF

#if defined(__x86_64__) || defined(__i386__)
#define FMK_X86 1
#include <immintrin.h>
#define FMK_AVX2 __attribute__((target("avx2,fma,f16c")))
#define FMK_VNNI __attribute__((target("avx2,fma,f16c,avx512f,avx512vl,avx512bw,avx512dq,avx512vnni")))
#endif

#if defined(__aarch64__)
#define FMK_ARM64 1
#include <arm_neon.h>
#define FMK_DOTPROD __attribute__((target("arch=armv8.2-a+dotprod")))
#endif

/// Bytes of one Q4_1 block.
#define FMK_Q4_1_BYTES 20
/// Bytes of one Q8_0 block.
#define FMK_Q8_0_BYTES 34

#ifdef FMK_X86
/// ggml's AVX-512 expf, sixteen lanes.
FMK_VNNI static inline __m512 exp16(__m512 x) {
    const __m512 shift = _mm512_set1_ps(0x1.8p23f);
    __m512 z = _mm512_fmadd_ps(x, _mm512_set1_ps(0x1.715476p+0f), shift);
    __m512 n = _mm512_sub_ps(z, shift);
    __m512 b = _mm512_fnmadd_ps(n, _mm512_set1_ps(0x1.7f7d1cp-20f), _mm512_fnmadd_ps(n, _mm512_set1_ps(0x1.62e4p-1f), x));
    __mmask16 big = _mm512_cmp_ps_mask(_mm512_abs_ps(n), _mm512_set1_ps(192), _CMP_GT_OQ);
    __m512 u = _mm512_mul_ps(b, b);
    __m512 high = _mm512_fmadd_ps(_mm512_fmadd_ps(_mm512_set1_ps(0x1.0e4020p-7f), b, _mm512_set1_ps(0x1.573e2ep-5f)), u,
                                  _mm512_fmadd_ps(_mm512_set1_ps(0x1.555e66p-3f), b, _mm512_set1_ps(0x1.fffdb6p-2f)));
    __m512 j = _mm512_fmadd_ps(high, u, _mm512_fmadd_ps(_mm512_set1_ps(0x1.ffffecp-1f), b, _mm512_set1_ps(1.0f)));
    __m512 result = _mm512_scalef_ps(j, n);
    if (!big) return result;
    __m512 zero = _mm512_setzero_ps();
    __m512 saturated = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(n, zero, _CMP_LE_OQ), _mm512_set1_ps(INFINITY), zero);
    return _mm512_mask_blend_ps(big, result, saturated);
}
#endif

#ifdef FMK_X86
/// `FMK_EXP_BODY` (Activations.c) eight lanes at a time: where every |n| ≤ 126, 2^n is a normal float
/// and j × 2^n rounds once as `ldexpf` does; otherwise (large or NaN inputs) each lane takes `fmk_exp`.
FMK_AVX2 static inline __m256 exp8(__m256 x) {
    const __m256 shift = _mm256_set1_ps(0x1.8p23f);
    __m256 n = _mm256_sub_ps(_mm256_fmadd_ps(x, _mm256_set1_ps(0x1.715476p+0f), shift), shift);
    __m256 magnitude = _mm256_andnot_ps(_mm256_set1_ps(-0.0f), n);
    if (_mm256_movemask_ps(_mm256_cmp_ps(magnitude, _mm256_set1_ps(126.0f), _CMP_LE_OQ)) != 0xFF) {
        _Alignas(32) float lanes[8];
        _mm256_store_ps(lanes, x);
        for (int l = 0; l < 8; l++) lanes[l] = fmk_exp(lanes[l]);
        return _mm256_load_ps(lanes);
    }
    __m256 b = _mm256_fnmadd_ps(n, _mm256_set1_ps(0x1.62e4p-1f), x);
    b = _mm256_fnmadd_ps(n, _mm256_set1_ps(0x1.7f7d1cp-20f), b);
    __m256 u = _mm256_mul_ps(b, b);
    __m256 high = _mm256_fmadd_ps(_mm256_fmadd_ps(_mm256_set1_ps(0x1.0e4020p-7f), b, _mm256_set1_ps(0x1.573e2ep-5f)), u,
                                  _mm256_fmadd_ps(_mm256_set1_ps(0x1.555e66p-3f), b, _mm256_set1_ps(0x1.fffdb6p-2f)));
    __m256 j = _mm256_fmadd_ps(high, u, _mm256_fmadd_ps(_mm256_set1_ps(0x1.ffffecp-1f), b, _mm256_set1_ps(1.0f)));
    __m256i power = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
    return _mm256_mul_ps(j, _mm256_castsi256_ps(power));
}

/// Prefetches `bytes` from `p` into the first-level cache, a cache line at a time (SSE: every x86 level).
static inline void fmk_prefetch(const void *p, size_t bytes) {
    for (size_t at = 0; at < bytes; at += 64) _mm_prefetch((const char *)p + at, _MM_HINT_T0);
}
#endif

/// The whole packed groups inside rows [row0, row1): [*first, *last), both multiples of
/// FMK_Q4_1_PACK_ROWS, or first = last = row1 when there is none (the rows before and after go to the
/// row kernel).
static inline void fmk_packed_span(int row0, int row1, int *first, int *last) {
    *first = (row0 + FMK_Q4_1_PACK_ROWS - 1) / FMK_Q4_1_PACK_ROWS * FMK_Q4_1_PACK_ROWS;
    *last = row1 / FMK_Q4_1_PACK_ROWS * FMK_Q4_1_PACK_ROWS;
    if (*first >= *last) *first = *last = row1;
}

/// Asks for `bytes` from `p` in the second-level cache, a cache line at a time, on every target (a hint:
/// it never faults, even past the end of a buffer).
static inline void fmk_prefetch_l2(const void *p, size_t bytes) {
    for (size_t at = 0; at < bytes; at += 64) __builtin_prefetch((const char *)p + at, 0, 2);
}

static inline uint16_t fmk_read_u16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }

/// The sum of a block dot product's eight lane accumulators in the order of the x86 levels' horizontal
/// sum (halves, then quarters, then the pair): ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)).
static inline float fmk_sum_lanes(const float *a) {
    return ((a[0] + a[4]) + (a[2] + a[6])) + ((a[1] + a[5]) + (a[3] + a[7]));
}

// Per-level implementations.
void fmk_matvec_q4_1_portable(const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                              const float *xd, const float *xs, float *out);
void fmk_matmul_q4_1_portable(const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                              const float *xd, const float *xs, int ntok, float *out, size_t out_stride);
void fmk_matvec_q8_0_portable(const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                              const float *xd, const uint32_t *mask, float *out);
void fmk_matmul_q8_0_portable(const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                              const float *xd, int ntok, float *out, size_t out_stride);
#ifdef FMK_ARM64
void fmk_matvec_q4_1_neon(int dotprod, const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                          const float *xd, const float *xs, float *out);
void fmk_matmul_q4_1_neon(int dotprod, const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                          const float *xd, const float *xs, int ntok, float *out, size_t out_stride);
void fmk_matvec_q8_0_neon(int dotprod, const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                          const float *xd, const uint32_t *mask, float *out);
void fmk_matmul_q8_0_neon(int dotprod, const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                          const float *xd, int ntok, float *out, size_t out_stride);
#endif
#ifdef FMK_X86
void fmk_matvec_q4_1_x86(int vnni, const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                         const float *xd, const float *xs, float *out);
void fmk_matmul_q4_1_packed_vnni(const uint8_t *w, const uint8_t *packed, int n, int row0, int row1,
                                 const int8_t *xq, const float *xd, const float *xs, int ntok, float *out,
                                 size_t out_stride);
void fmk_matmul_q4_1_x86(int vnni, const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                         const float *xd, const float *xs, int ntok, float *out, size_t out_stride);
void fmk_matmul_q4_1_tiled_x86(int vnni, const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                               const float *xd, const float *xs, int ntok, float *out, size_t out_stride);
void fmk_matvec_q8_0_x86(int vnni, const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                         const float *xd, const uint32_t *mask, float *out);
void fmk_logits_q8_0_vnni(const uint8_t *w, int n, int row0, int row1, int ntok, const int8_t *const *xq,
                          const float *const *xd, const uint32_t *const *masks, float *const *outs);
void fmk_matmul_q8_0_x86(int vnni, const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                         const float *xd, int ntok, float *out, size_t out_stride);
void fmk_matmul_q4_1_packed_avx2(const uint8_t *w, const uint8_t *packed, int n, int row0, int row1,
                                 const int8_t *xq, const float *xd, const float *xs, int ntok, float *out,
                                 size_t out_stride);
/// Widest head the x86 attention kernels take (queries converted once, on the stack).
#define FMK_ATTEND_MAX_DIM 256
/// `fmk_attend_f16` at AVX2 (`dim` a multiple of 16, at most FMK_ATTEND_MAX_DIM).
void fmk_attend_avx2(const uint16_t *q, int heads, const uint16_t *k, size_t k_stride, const uint16_t *v,
                     size_t v_stride, int npos, int dim, float scale, int single, float *scores, size_t score_stride,
                     float *out);
#endif
