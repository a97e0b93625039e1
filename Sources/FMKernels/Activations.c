// Element-wise activations computed bit-for-bit as ggml's AVX-512 CPU path does (its vector expf
// approximation), because SmolLM2's activation outliers make later Q8 roundings sensitive to the
// last bit: matching llama.cpp's greedy output needs the same floats, not just close ones.
#include "Internal.h"
#include <math.h>

/// ggml's vector expf for one lane: range reduction by n = round(x·log2 e), a degree-5 polynomial,
/// scaling by 2^n; |n| > 192 saturates to 0 or infinity.
#define FMK_EXP_BODY                                                                  \
    const float shift = 0x1.8p23f;                                                    \
    float z = fmaf(x, 0x1.715476p+0f, shift);                                         \
    float n = z - shift;                                                              \
    float b = fmaf(-n, 0x1.62e4p-1f, x);                                              \
    b = fmaf(-n, 0x1.7f7d1cp-20f, b);                                                 \
    if (fabsf(n) > 192.0f) return n <= 0.0f ? 0.0f : INFINITY;                         \
    float u = b * b;                                                                  \
    float high = fmaf(fmaf(0x1.0e4020p-7f, b, 0x1.573e2ep-5f), u, fmaf(0x1.555e66p-3f, b, 0x1.fffdb6p-2f)); \
    float j = fmaf(high, u, fmaf(0x1.ffffecp-1f, b, 1.0f));                           \
    return ldexpf(j, (int)n);

#ifdef FMK_X86
FMK_AVX2 static float exp_fma(float x) { FMK_EXP_BODY }
#endif
static float exp_portable(float x) { FMK_EXP_BODY }

float fmk_exp(float x) {
#ifdef FMK_X86
    if (fmk_active_level() >= FMK_LEVEL_AVX2) return exp_fma(x);
#endif
    return exp_portable(x);
}

#ifdef FMK_X86
FMK_AVX2 static void swiglu_fma(float *gate, const float *up, int n) {
    for (int i = 0; i < n; i++) {
        float x = gate[i];
        gate[i] = x / (1.0f + exp_fma(0.0f - x)) * up[i];
    }
}

/// `swiglu_fma` eight lanes at a time through `exp8`; the division, sum and product round as the scalar ones.
FMK_AVX2 static void swiglu_avx2(float *gate, const float *up, int n) {
    int i = 0;
    const __m256 one = _mm256_set1_ps(1.0f), zero = _mm256_setzero_ps();
    for (; i + 8 <= n; i += 8) {
        __m256 x = _mm256_loadu_ps(gate + i);
        __m256 silu = _mm256_div_ps(x, _mm256_add_ps(one, exp8(_mm256_sub_ps(zero, x))));
        _mm256_storeu_ps(gate + i, _mm256_mul_ps(silu, _mm256_loadu_ps(up + i)));
    }
    swiglu_fma(gate + i, up + i, n - i);
}

/// `swiglu_fma` sixteen lanes at a time: `exp16` is `FMK_EXP_BODY` per lane (`scalef` and `ldexpf`
/// both scale by 2^n with one rounding), and the division, sum and product round as the scalar ones.
FMK_VNNI static void swiglu_avx512(float *gate, const float *up, int n) {
    int i = 0;
    const __m512 one = _mm512_set1_ps(1.0f), zero = _mm512_setzero_ps();
    for (; i + 16 <= n; i += 16) {
        __m512 x = _mm512_loadu_ps(gate + i);
        __m512 silu = _mm512_div_ps(x, _mm512_add_ps(one, exp16(_mm512_sub_ps(zero, x))));
        _mm512_storeu_ps(gate + i, _mm512_mul_ps(silu, _mm512_loadu_ps(up + i)));
    }
    swiglu_fma(gate + i, up + i, n - i);
}
#endif

void fmk_swiglu(float *gate, const float *up, int n) {
#ifdef FMK_X86
    if (fmk_active_level() == FMK_LEVEL_AVX512VNNI) { swiglu_avx512(gate, up, n); return; }
    if (fmk_active_level() >= FMK_LEVEL_AVX2) { swiglu_avx2(gate, up, n); return; }
#endif
    for (int i = 0; i < n; i++) {
        float x = gate[i];
        gate[i] = x / (1.0f + exp_portable(0.0f - x)) * up[i];
    }
}
