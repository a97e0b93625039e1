// Half-precision attention kernels: keys and values are cached as IEEE halves (as llama.cpp does).
#include "Internal.h"
#include <math.h>

static float dot_f16_portable(const uint16_t *a, const uint16_t *b, int n) {
    float sum = 0.0f;
    for (int i = 0; i < n; i++) sum += fmk_f16_to_f32(a[i]) * fmk_f16_to_f32(b[i]);
    return sum;
}

static void axpy_f16_portable(float a, const uint16_t *x, float *y, int n) {
    for (int i = 0; i < n; i++) y[i] += a * fmk_f16_to_f32(x[i]);
}

#ifdef FMK_X86
FMK_AVX2 static float dot_f16_avx2(const uint16_t *a, const uint16_t *b, int n) {
    __m256 acc0 = _mm256_setzero_ps(), acc1 = _mm256_setzero_ps();
    int i = 0;
    for (; i + 16 <= n; i += 16) {
        __m256 a0 = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(a + i)));
        __m256 b0 = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(b + i)));
        __m256 a1 = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(a + i + 8)));
        __m256 b1 = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(b + i + 8)));
        acc0 = _mm256_fmadd_ps(a0, b0, acc0);
        acc1 = _mm256_fmadd_ps(a1, b1, acc1);
    }
    __m256 v = _mm256_add_ps(acc0, acc1);
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    float sum = _mm_cvtss_f32(s);
    for (; i < n; i++) sum += _cvtsh_ss(a[i]) * _cvtsh_ss(b[i]);
    return sum;
}

FMK_AVX2 static void axpy_f16_avx2(float a, const uint16_t *x, float *y, int n) {
    __m256 va = _mm256_set1_ps(a);
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 vx = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(x + i)));
        _mm256_storeu_ps(y + i, _mm256_fmadd_ps(va, vx, _mm256_loadu_ps(y + i)));
    }
    for (; i < n; i++) y[i] += a * _cvtsh_ss(x[i]);
}
#endif

float fmk_dot_f16(const uint16_t *a, const uint16_t *b, int n) {
#ifdef FMK_X86
    if (fmk_active_level() >= FMK_LEVEL_AVX2) return dot_f16_avx2(a, b, n);
#endif
    return dot_f16_portable(a, b, n);
}

void fmk_axpy_f16(float a, const uint16_t *x, float *y, int n) {
#ifdef FMK_X86
    if (fmk_active_level() >= FMK_LEVEL_AVX2) { axpy_f16_avx2(a, x, y, n); return; }
#endif
    axpy_f16_portable(a, x, y, n);
}

void fmk_attend_f16(const uint16_t *q, const uint16_t *k, size_t k_stride,
                    const uint16_t *v, size_t v_stride, int npos, int dim, float scale,
                    float *scores, float *out) {
    float max = -INFINITY;
    for (int t = 0; t < npos; t++) {
        float s = fmk_dot_f16(q, k + (size_t)t * k_stride, dim) * scale;
        scores[t] = s;
        if (s > max) max = s;
    }
    double total = 0.0;
    for (int t = 0; t < npos; t++) {
        float e = expf(scores[t] - max);
        scores[t] = e;
        total += (double)e;
    }
    float inverse = total > 0.0 ? (float)(1.0 / total) : 0.0f;
    for (int i = 0; i < dim; i++) out[i] = 0.0f;
    // Probabilities are rounded to half before weighting the values, as ggml's (non-flash) attention
    // converts them for its f16 matrix product.
    for (int t = 0; t < npos; t++) {
        float p = fmk_f16_to_f32(fmk_f32_to_f16(scores[t] * inverse));
        fmk_axpy_f16(p, v + (size_t)t * v_stride, out, dim);
    }
}
