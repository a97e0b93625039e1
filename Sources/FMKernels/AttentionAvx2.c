// Attention at the AVX2 level: `attend_portable`'s numbers (Attention.c) eight lanes at a time. Each of
// its 16-lane accumulators is a pair of 256-bit registers (lanes 0–7, 8–15) whose lanes take the same
// chains of fused multiply-adds; `reduce_pair` sums them in `reduce16`'s order; softmax uses `exp8`, the
// per-lane `FMK_EXP_BODY`; probabilities are rounded to half by F16C, as `fmk_f32_to_f16` rounds.
#include "Internal.h"

#ifdef FMK_X86
#include <math.h>
#include <string.h>

/// The widest head this kernel takes (its query converted once, on the stack).
#define FMK_AVX2_ATTEND_MAX_DIM 256

/// Sixteen lanes as two eight-lane halves.
typedef struct {
    __m256 low, high;
} lanes16;

/// `reduce16` of lanes (low, high): l[i] + l[i+8], then the quarters, then (t0+t2) + (t1+t3).
FMK_AVX2 static inline float reduce_pair(lanes16 x) {
    __m256 halves = _mm256_add_ps(x.high, x.low);
    __m128 quarters = _mm_add_ps(_mm256_extractf128_ps(halves, 1), _mm256_castps256_ps128(halves));
    __m128 pairs = _mm_add_ps(quarters, _mm_movehl_ps(quarters, quarters));
    return _mm_cvtss_f32(_mm_add_ss(pairs, _mm_movehdup_ps(pairs)));
}

/// Sixteen halves from `row`, converted; those at or past `live` read as zero and are never loaded.
FMK_AVX2 static inline lanes16 load_halves(const uint16_t *row, int live) {
    if (live >= 16) {
        return (lanes16){_mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)row)),
                         _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(row + 8)))};
    }
    _Alignas(16) uint16_t copy[16] = {0};
    if (live > 0) memcpy(copy, row, (size_t)live * sizeof(uint16_t));
    return (lanes16){_mm256_cvtph_ps(_mm_load_si128((const __m128i *)copy)),
                     _mm256_cvtph_ps(_mm_load_si128((const __m128i *)(copy + 8)))};
}

/// Eight halves from `row`, converted; those at or past `live` read as zero and are never loaded.
FMK_AVX2 static inline __m256 load_halves8(const uint16_t *row, int live) {
    if (live >= 8) return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)row));
    _Alignas(16) uint16_t copy[8] = {0};
    if (live > 0) memcpy(copy, row, (size_t)live * sizeof(uint16_t));
    return _mm256_cvtph_ps(_mm_load_si128((const __m128i *)copy));
}

/// Transposes eight 8-lane vectors in place: lane j of r[i] becomes lane i of r[j].
FMK_AVX2 static inline void transpose8(__m256 *r) {
    __m256 t[8], u[8];
    for (int k = 0; k < 4; k++) {
        t[2 * k] = _mm256_unpacklo_ps(r[2 * k], r[2 * k + 1]);
        t[2 * k + 1] = _mm256_unpackhi_ps(r[2 * k], r[2 * k + 1]);
    }
    // u[4h+e]: element e (and e+4) of rows 4h..4h+3, from the interleaved pairs.
    for (int h = 0; h < 2; h++) {
        u[4 * h] = _mm256_shuffle_ps(t[4 * h], t[4 * h + 2], _MM_SHUFFLE(1, 0, 1, 0));
        u[4 * h + 1] = _mm256_shuffle_ps(t[4 * h], t[4 * h + 2], _MM_SHUFFLE(3, 2, 3, 2));
        u[4 * h + 2] = _mm256_shuffle_ps(t[4 * h + 1], t[4 * h + 3], _MM_SHUFFLE(1, 0, 1, 0));
        u[4 * h + 3] = _mm256_shuffle_ps(t[4 * h + 1], t[4 * h + 3], _MM_SHUFFLE(3, 2, 3, 2));
    }
    for (int e = 0; e < 4; e++) {
        r[e] = _mm256_permute2f128_ps(u[e], u[4 + e], 0x20);
        r[4 + e] = _mm256_permute2f128_ps(u[e], u[4 + e], 0x31);
    }
}

/// Lane masks (all ones where the lane is below `live`) for the two halves of sixteen lanes.
FMK_AVX2 static inline lanes16 live_mask(int live) {
    const __m256i index = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    __m256i count = _mm256_set1_epi32(live);
    return (lanes16){_mm256_castsi256_ps(_mm256_cmpgt_epi32(count, index)),
                     _mm256_castsi256_ps(_mm256_cmpgt_epi32(count, _mm256_add_epi32(index, _mm256_set1_epi32(8))))};
}

/// (a0 + a2) + (a1 + a3) lane by lane, then `reduce16`.
FMK_AVX2 static inline float reduce_four(const lanes16 *acc) {
    lanes16 sum = {_mm256_add_ps(_mm256_add_ps(acc[0].low, acc[2].low), _mm256_add_ps(acc[1].low, acc[3].low)),
                   _mm256_add_ps(_mm256_add_ps(acc[0].high, acc[2].high), _mm256_add_ps(acc[1].high, acc[3].high))};
    return reduce_pair(sum);
}

/// Softmax of `npos` scores in place with maximum `max`, zeros up to `padded`: `exp8` summed sixteen
/// lanes at a time into a double, then each probability rounded to half.
FMK_AVX2 static void softmax_half_avx2(float *scores, int npos, int padded, float max) {
    double total = 0.0;
    __m256 most = _mm256_set1_ps(max), zero = _mm256_setzero_ps();
    for (int c = 0; c < padded; c += 16) {
        lanes16 live = live_mask(npos - c);
        __m256 low = _mm256_blendv_ps(zero, _mm256_sub_ps(_mm256_loadu_ps(scores + c), most), live.low);
        __m256 high = _mm256_blendv_ps(zero, _mm256_sub_ps(_mm256_loadu_ps(scores + c + 8), most), live.high);
        lanes16 e = {_mm256_blendv_ps(zero, exp8(low), live.low), _mm256_blendv_ps(zero, exp8(high), live.high)};
        _mm256_storeu_ps(scores + c, e.low);
        _mm256_storeu_ps(scores + c + 8, e.high);
        total += (double)reduce_pair(e);
    }
    __m256 inverse = _mm256_set1_ps((float)(1.0 / total));
    for (int c = 0; c < padded; c += 8) {
        __m256 p = _mm256_mul_ps(_mm256_loadu_ps(scores + c), inverse);
        _mm256_storeu_ps(scores + c, _mm256_cvtph_ps(_mm256_cvtps_ph(p, _MM_FROUND_TO_NEAREST_INT)));
    }
}

/// One query head against `npos` positions: `attend_portable`'s bits. `single` (decode) spreads 16-wide
/// chunks over four accumulators in turn and adds the positions past the last whole 64 in double.
FMK_AVX2 void fmk_attend_avx2(const uint16_t *q, const uint16_t *k, size_t k_stride, const uint16_t *v,
                              size_t v_stride, int npos, int dim, float scale, int single, float *scores,
                              float *out) {
    _Alignas(32) float query[FMK_AVX2_ATTEND_MAX_DIM];
    for (int c = 0; c < dim; c += 8)
        _mm256_store_ps(query + c, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(q + c))));
    int padded = (npos + 15) & ~15, turn = single ? 3 : 0;
    float max = -INFINITY;
    for (int t = 0; t < npos; t++) {
        const uint16_t *key = k + (size_t)t * k_stride;
        lanes16 acc[4];
        for (int j = 0; j < 4; j++) acc[j] = (lanes16){_mm256_setzero_ps(), _mm256_setzero_ps()};
        for (int c = 0; c < dim; c += 16) {
            lanes16 *a = &acc[(c >> 4) & turn];
            lanes16 keys = load_halves(key + c, 16);
            a->low = _mm256_fmadd_ps(_mm256_load_ps(query + c), keys.low, a->low);
            a->high = _mm256_fmadd_ps(_mm256_load_ps(query + c + 8), keys.high, a->high);
        }
        scores[t] = reduce_four(acc) * scale;
        if (scores[t] > max) max = scores[t];
    }
    softmax_half_avx2(scores, npos, padded, max);
    // Whole 64s of the 32-padded cache (decode) go through the accumulators; positions past them are added
    // in double, eight rows at a time: the rows' products at eight positions are transposed so that lane i
    // adds row i's, in position order.
    int whole = single ? ((npos + 31) & ~31) & ~63 : padded;
    for (int d0 = 0; d0 < dim; d0 += 8) {
        _Alignas(32) float sums[8];
        for (int i = 0; i < 8; i++) {
            const uint16_t *row = v + (size_t)(d0 + i) * v_stride;
            lanes16 acc[4];
            for (int j = 0; j < 4; j++) acc[j] = (lanes16){_mm256_setzero_ps(), _mm256_setzero_ps()};
            for (int c = 0; c < whole && c < npos; c += 16) {
                lanes16 *a = &acc[(c >> 4) & turn];
                lanes16 values = load_halves(row + c, npos - c);
                __m256 low = _mm256_fmadd_ps(_mm256_loadu_ps(scores + c), values.low, a->low);
                __m256 high = _mm256_fmadd_ps(_mm256_loadu_ps(scores + c + 8), values.high, a->high);
                if (npos - c >= 16) {
                    a->low = low;
                    a->high = high;
                } else {
                    lanes16 live = live_mask(npos - c);
                    a->low = _mm256_blendv_ps(a->low, low, live.low);
                    a->high = _mm256_blendv_ps(a->high, high, live.high);
                }
            }
            sums[i] = reduce_four(acc);
        }
        __m256d low = _mm256_cvtps_pd(_mm_load_ps(sums)), high = _mm256_cvtps_pd(_mm_load_ps(sums + 4));
        for (int c = whole; c < npos; c += 8) {
            int count = npos - c < 8 ? npos - c : 8;
            __m256 p = _mm256_loadu_ps(scores + c), products[8];
            for (int i = 0; i < 8; i++)
                products[i] = _mm256_mul_ps(load_halves8(v + (size_t)(d0 + i) * v_stride + c, count), p);
            transpose8(products);
            for (int t = 0; t < count; t++) {
                low = _mm256_add_pd(low, _mm256_cvtps_pd(_mm256_castps256_ps128(products[t])));
                high = _mm256_add_pd(high, _mm256_cvtps_pd(_mm256_extractf128_ps(products[t], 1)));
            }
        }
        _mm_storeu_ps(out + d0, _mm256_cvtpd_ps(low));
        _mm_storeu_ps(out + d0 + 4, _mm256_cvtpd_ps(high));
    }
}
#endif
