// Activation quantization to Q8_1 / Q8_0 blocks, as llama.cpp's x86 code does it: d = amax/127 (stored
// as f16), q = round-half-even(x · 127/amax), Q8_1 also s = d·Σq (through f16). The AVX2 block (also
// used at the AVX-512 level) computes every value with the same operations as the portable one: the
// maximum of |x| is exact in any order, each x·(127/amax) is one float multiply rounded to the nearest
// even integer, and the integer sum is exact.
#include "Internal.h"
#include <math.h>

/// Quantizes one block; returns the integer sum of the quants and stores d = amax/127 (before f16).
static int quantize_block(const float *x, int8_t *q, float *d) {
    float amax = 0.0f;
    for (int j = 0; j < FMK_BLOCK; j++) {
        float a = fabsf(x[j]);
        if (a > amax) amax = a;
    }
    float scale = amax / 127.0f;
    float inverse = amax != 0.0f ? 127.0f / amax : 0.0f;
    int sum = 0;
    for (int j = 0; j < FMK_BLOCK; j++) {
        int v = (int)nearbyintf(x[j] * inverse);
        q[j] = (int8_t)v;
        sum += v;
    }
    *d = scale;
    return sum;
}

#ifdef FMK_X86
/// `quantize_block` with eight lanes per vector.
FMK_AVX2 static int quantize_block_avx2(const float *x, int8_t *q, float *d) {
    const __m256 sign = _mm256_set1_ps(-0.0f);
    __m256 v[4], top = _mm256_setzero_ps();
    for (int k = 0; k < 4; k++) {
        v[k] = _mm256_loadu_ps(x + 8 * k);
        top = _mm256_max_ps(top, _mm256_andnot_ps(sign, v[k]));
    }
    __m128 m = _mm_max_ps(_mm256_castps256_ps128(top), _mm256_extractf128_ps(top, 1));
    m = _mm_max_ps(m, _mm_movehl_ps(m, m));
    m = _mm_max_ss(m, _mm_movehdup_ps(m));
    float amax = _mm_cvtss_f32(m);
    float scale = amax / 127.0f;
    float inverse = amax != 0.0f ? 127.0f / amax : 0.0f;
    __m256 factor = _mm256_set1_ps(inverse);
    __m256i ints[4], total = _mm256_setzero_si256();
    for (int k = 0; k < 4; k++) {
        __m256 rounded = _mm256_round_ps(_mm256_mul_ps(v[k], factor), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        ints[k] = _mm256_cvtps_epi32(rounded);
        total = _mm256_add_epi32(total, ints[k]);
    }
    // Pack to bytes (saturation never triggers: |q| ≤ 127), then undo the packs' lane interleaving.
    __m256i packed = _mm256_packs_epi16(_mm256_packs_epi32(ints[0], ints[1]), _mm256_packs_epi32(ints[2], ints[3]));
    packed = _mm256_permutevar8x32_epi32(packed, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
    _mm256_storeu_si256((__m256i *)q, packed);
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(total), _mm256_extracti128_si256(total, 1));
    s = _mm_add_epi32(s, _mm_unpackhi_epi64(s, s));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 1));
    *d = scale;
    return _mm_cvtsi128_si32(s);
}

/// Rounds `x` to the nearest half and back with the F16C instructions (the same IEEE rounding as
/// `fmk_f32_to_f16`, without its branches and calls).
FMK_AVX2 static inline float through_half_f16c(float x) {
    return _mm_cvtss_f32(_mm_cvtph_ps(_mm_cvtps_ph(_mm_set_ss(x), _MM_FROUND_TO_NEAREST_INT)));
}

/// `fmk_quantize_q8_1` at AVX2 and up.
FMK_AVX2 static void quantize_q8_1_avx2(const float *x, int n, int8_t *qs, float *d, float *s) {
    for (int b = 0; b < n / FMK_BLOCK; b++) {
        float scale;
        int sum = quantize_block_avx2(x + b * FMK_BLOCK, qs + b * FMK_BLOCK, &scale);
        d[b] = through_half_f16c(scale);
        s[b] = through_half_f16c(scale * (float)sum);
    }
}

/// `fmk_quantize_q8_0` at AVX2 and up.
FMK_AVX2 static void quantize_q8_0_avx2(const float *x, int n, int8_t *qs, float *d) {
    for (int b = 0; b < n / FMK_BLOCK; b++) {
        float scale;
        quantize_block_avx2(x + b * FMK_BLOCK, qs + b * FMK_BLOCK, &scale);
        d[b] = through_half_f16c(scale);
    }
}
#endif

void fmk_quantize_q8_1(const float *x, int n, int8_t *qs, float *d, float *s) {
#ifdef FMK_X86
    if (fmk_active_level() >= FMK_LEVEL_AVX2) { quantize_q8_1_avx2(x, n, qs, d, s); return; }
#endif
    for (int b = 0; b < n / FMK_BLOCK; b++) {
        float scale;
        int sum = quantize_block(x + b * FMK_BLOCK, qs + b * FMK_BLOCK, &scale);
        d[b] = fmk_f16_to_f32(fmk_f32_to_f16(scale));
        s[b] = fmk_f16_to_f32(fmk_f32_to_f16(scale * (float)sum));
    }
}

void fmk_quantize_q8_0(const float *x, int n, int8_t *qs, float *d) {
#ifdef FMK_X86
    if (fmk_active_level() >= FMK_LEVEL_AVX2) { quantize_q8_0_avx2(x, n, qs, d); return; }
#endif
    for (int b = 0; b < n / FMK_BLOCK; b++) {
        float scale;
        quantize_block(x + b * FMK_BLOCK, qs + b * FMK_BLOCK, &scale);
        d[b] = fmk_f16_to_f32(fmk_f32_to_f16(scale));
    }
}
