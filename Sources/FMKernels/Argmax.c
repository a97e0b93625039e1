// The greedy choice over logits, which the sampler makes for every token: the lowest index of the
// largest value above -infinity (NaN never chosen), as a scalar scan with `>` finds it. The vector
// paths find the largest value first (a NaN lane never replaces the running maximum), then the first
// index holding it (+0 and -0 compare equal, as the scan treats them).
#include "Internal.h"

static int32_t argmax_portable(const float *x, int32_t n) {
    int32_t best = -1;
    float value = -INFINITY;
    for (int32_t i = 0; i < n; i++) {
        if (x[i] > value) { value = x[i]; best = i; }
    }
    return best;
}

#ifdef FMK_X86
/// The first index from `start` whose value equals `value` (one exists).
static int32_t first_equal(const float *x, int32_t start, int32_t n, float value) {
    for (int32_t i = start; i < n; i++) {
        if (x[i] == value) return i;
    }
    return -1;
}

FMK_AVX2 static int32_t argmax_avx2(const float *x, int32_t n) {
    __m256 top = _mm256_set1_ps(-INFINITY);
    int32_t i = 0;
    for (; i + 8 <= n; i += 8) top = _mm256_max_ps(_mm256_loadu_ps(x + i), top);
    float lanes[8], value = -INFINITY;
    _mm256_storeu_ps(lanes, top);
    for (int k = 0; k < 8; k++) value = lanes[k] > value ? lanes[k] : value;
    for (; i < n; i++) value = x[i] > value ? x[i] : value;
    if (!(value > -INFINITY)) return -1;
    const __m256 wanted = _mm256_set1_ps(value);
    for (i = 0; i + 8 <= n; i += 8) {
        int hits = _mm256_movemask_ps(_mm256_cmp_ps(_mm256_loadu_ps(x + i), wanted, _CMP_EQ_OQ));
        if (hits) return i + __builtin_ctz((unsigned)hits);
    }
    return first_equal(x, i, n, value);
}

FMK_VNNI static int32_t argmax_avx512(const float *x, int32_t n) {
    __m512 top = _mm512_set1_ps(-INFINITY);
    int32_t i = 0;
    for (; i + 16 <= n; i += 16) top = _mm512_max_ps(_mm512_loadu_ps(x + i), top);
    float value = _mm512_reduce_max_ps(top);
    for (; i < n; i++) value = x[i] > value ? x[i] : value;
    if (!(value > -INFINITY)) return -1;
    const __m512 wanted = _mm512_set1_ps(value);
    for (i = 0; i + 16 <= n; i += 16) {
        __mmask16 hits = _mm512_cmp_ps_mask(_mm512_loadu_ps(x + i), wanted, _CMP_EQ_OQ);
        if (hits) return i + __builtin_ctz((unsigned)hits);
    }
    return first_equal(x, i, n, value);
}
#endif

int32_t fmk_argmax_f32(const float *x, int32_t n) {
#ifdef FMK_X86
    if (fmk_active_level() == FMK_LEVEL_AVX512VNNI) return argmax_avx512(x, n);
    if (fmk_active_level() >= FMK_LEVEL_AVX2) return argmax_avx2(x, n);
#endif
    return argmax_portable(x, n);
}
