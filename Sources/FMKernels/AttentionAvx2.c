// Attention at the AVX2 level: `attend_portable`'s numbers (Attention.c) eight lanes at a time. Each of
// its 16-lane accumulators is a pair of 256-bit registers (lanes 0–7, 8–15) whose lanes take the same
// chains of fused multiply-adds; `reduce8x16` sums eight of them at once in `reduce16`'s order; heads that
// share keys and values take them together, each chunk converted once; softmax uses `exp8`, the per-lane
// `FMK_EXP_BODY`; probabilities are rounded to half by F16C, as `fmk_f32_to_f16` rounds.
#include "Internal.h"

#ifdef FMK_X86
#include <math.h>
#include <string.h>

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

/// Sixteen halves from `row`, converted.
FMK_AVX2 static inline lanes16 load_halves(const uint16_t *row) {
    return (lanes16){_mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)row)),
                     _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(row + 8)))};
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

/// Eight 16-lane sums at once, each in `reduce16`'s order: halves[p] holds input p's l[i] + l[i+8]
/// (float addition commutes, so a pair added either way round gives the same bits); lane p of the
/// result is input p's sum.
FMK_AVX2 static inline __m256 reduce8x16(const __m256 *halves) {
    __m256 quarters[4], pairs[2];
    // t6[i] = t3[i] + t3[i+4]: 128-bit lane j of quarters[k] belongs to input 2k+j.
    for (int k = 0; k < 4; k++) {
        quarters[k] = _mm256_add_ps(_mm256_permute2f128_ps(halves[2 * k], halves[2 * k + 1], 0x20),
                                    _mm256_permute2f128_ps(halves[2 * k], halves[2 * k + 1], 0x31));
    }
    // u0 = t6[0] + t6[2], u1 = t6[1] + t6[3]: 128-bit lane j of pairs[m] holds inputs 4m+j and 4m+2+j.
    for (int m = 0; m < 2; m++) {
        pairs[m] = _mm256_add_ps(_mm256_shuffle_ps(quarters[2 * m], quarters[2 * m + 1], _MM_SHUFFLE(1, 0, 1, 0)),
                                 _mm256_shuffle_ps(quarters[2 * m], quarters[2 * m + 1], _MM_SHUFFLE(3, 2, 3, 2)));
    }
    // u0 + u1: 128-bit lane j holds inputs j, 2+j, 4+j, 6+j; put input p at lane p.
    __m256 sums = _mm256_add_ps(_mm256_shuffle_ps(pairs[0], pairs[1], _MM_SHUFFLE(2, 0, 2, 0)),
                                _mm256_shuffle_ps(pairs[0], pairs[1], _MM_SHUFFLE(3, 1, 3, 1)));
    return _mm256_permutevar8x32_ps(sums, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
}

/// The four accumulators of the decode order added (a0 + a2) + (a1 + a3) lane by lane, then the halves
/// (`reduce16`'s first step); with one accumulator (prefill) the others are zero, and a lane that
/// started at +0 never holds -0, so adding them would change nothing.
FMK_AVX2 static inline __m256 fold(const int single, const lanes16 *acc) {
    if (!single) return _mm256_add_ps(acc[0].high, acc[0].low);
    __m256 low = _mm256_add_ps(_mm256_add_ps(acc[0].low, acc[2].low), _mm256_add_ps(acc[1].low, acc[3].low));
    __m256 high = _mm256_add_ps(_mm256_add_ps(acc[0].high, acc[2].high), _mm256_add_ps(acc[1].high, acc[3].high));
    return _mm256_add_ps(high, low);
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

/// Query heads one call of `attend_avx2` takes together at most.
#define FMK_AVX2_ATTEND_HEADS 3

/// Scores of `npos` positions for `H` heads (queries query[h], scores at scores + h*score_stride) times
/// `scale`, eight positions reduced at once; each key chunk is converted once for every head. `single`
/// (decode) spreads 16-wide chunks over four accumulators in turn. Lanes past the last position reuse
/// the block's first key and are stored as -infinity. max[h] gets head h's largest score.
FMK_AVX2 static inline __attribute__((always_inline)) void scores_avx2(
    const int single, const int H, const int dim, const float (*query)[FMK_ATTEND_MAX_DIM],
    const uint16_t *k, size_t k_stride, int npos, float scale, float *scores, size_t score_stride, float *max) {
    __m256 top[FMK_AVX2_ATTEND_HEADS];
    for (int h = 0; h < H; h++) top[h] = _mm256_set1_ps(-INFINITY);
    for (int t0 = 0; t0 < npos; t0 += 8) {
        __m256 halves[FMK_AVX2_ATTEND_HEADS][8];
        for (int p = 0; p < 8; p++) {
            const uint16_t *key = k + (size_t)(t0 + p < npos ? t0 + p : t0) * k_stride;
            if (t0 + 8 + p < npos) {
                fmk_prefetch(key + 8 * k_stride, 2 * (size_t)dim);
            }
            lanes16 acc[FMK_AVX2_ATTEND_HEADS][4];
            for (int h = 0; h < H; h++)
                for (int j = 0; j < 4; j++) acc[h][j] = (lanes16){_mm256_setzero_ps(), _mm256_setzero_ps()};
            for (int c = 0; c < dim; c += 64) {
                for (int j = 0; j < 4 && c + 16 * j < dim; j++) {
                    lanes16 keys = load_halves(key + c + 16 * j);
                    for (int h = 0; h < H; h++) {
                        lanes16 *a = &acc[h][single ? j : 0];
                        a->low = _mm256_fmadd_ps(_mm256_load_ps(query[h] + c + 16 * j), keys.low, a->low);
                        a->high = _mm256_fmadd_ps(_mm256_load_ps(query[h] + c + 16 * j + 8), keys.high, a->high);
                    }
                }
            }
            for (int h = 0; h < H; h++) halves[h][p] = fold(single, acc[h]);
        }
        __m256 live = live_mask(npos - t0).low;
        for (int h = 0; h < H; h++) {
            __m256 s = _mm256_mul_ps(reduce8x16(halves[h]), _mm256_set1_ps(scale));
            s = _mm256_blendv_ps(_mm256_set1_ps(-INFINITY), s, live);
            _mm256_storeu_ps(scores + h * score_stride + t0, s);
            top[h] = _mm256_max_ps(top[h], s);
        }
    }
    for (int h = 0; h < H; h++) {
        __m128 four = _mm_max_ps(_mm256_extractf128_ps(top[h], 1), _mm256_castps256_ps128(top[h]));
        four = _mm_max_ps(four, _mm_movehl_ps(four, four));
        max[h] = _mm_cvtss_f32(_mm_max_ss(four, _mm_movehdup_ps(four)));
    }
}

/// Value rows ahead of the current one that `values_avx2` prefetches.
#define FMK_AVX2_ROWS_AHEAD 2

/// The positions a decode tail or a last partial chunk covers, at most: 32-padding past a whole 64.
#define FMK_AVX2_REST 32

/// Σ p_t v[d][t] for rows d0..d0+7 (row i at v + i*v_stride) over positions [0, limit) for `H` heads
/// (probabilities at scores + h*score_stride), eight rows reduced at once, as floats into sums[h]; each
/// value chunk is converted once for every head. Positions from `full` on are read from rest[i] (zero
/// past `npos`, against zero probabilities, which leaves a sum unchanged).
FMK_AVX2 static inline __attribute__((always_inline)) void values_avx2(
    const int single, const int H, const uint16_t *v, size_t v_stride, int limit, int full,
    const uint16_t (*rest)[FMK_AVX2_REST], const float *scores, size_t score_stride, __m256 *sums) {
    __m256 halves[FMK_AVX2_ATTEND_HEADS][8];
    for (int i = 0; i < 8; i++) {
        const uint16_t *row = v + (size_t)i * v_stride;
        // Rows lie a whole context apart, too far for the hardware to fetch them ahead.
        fmk_prefetch(row + FMK_AVX2_ROWS_AHEAD * v_stride, 2 * (size_t)limit);
        lanes16 acc[FMK_AVX2_ATTEND_HEADS][4];
        for (int h = 0; h < H; h++)
            for (int j = 0; j < 4; j++) acc[h][j] = (lanes16){_mm256_setzero_ps(), _mm256_setzero_ps()};
        for (int c = 0; c < limit; c += 64) {
            for (int j = 0; j < 4 && c + 16 * j < limit; j++) {
                int at = c + 16 * j;
                lanes16 values = load_halves(at < full ? row + at : rest[i] + (at - full));
                for (int h = 0; h < H; h++) {
                    lanes16 *a = &acc[h][single ? j : 0];
                    const float *p = scores + h * score_stride + at;
                    a->low = _mm256_fmadd_ps(_mm256_loadu_ps(p), values.low, a->low);
                    a->high = _mm256_fmadd_ps(_mm256_loadu_ps(p + 8), values.high, a->high);
                }
            }
        }
        for (int h = 0; h < H; h++) halves[h][i] = fold(single, acc[h]);
    }
    for (int h = 0; h < H; h++) sums[h] = reduce8x16(halves[h]);
}

/// `sums` (eight rows' sums) plus, in double and position order, the rows' products at positions
/// [whole, npos) (values from rest[i], position whole at rest[i][0]): the products at eight positions
/// are transposed so that lane i adds row i's. The result, rounded to float, goes to out.
FMK_AVX2 static inline void add_tail(__m256 sums, const uint16_t (*rest)[FMK_AVX2_REST], const float *scores,
                                     int whole, int npos, float *out) {
    __m256d low = _mm256_cvtps_pd(_mm256_castps256_ps128(sums)), high = _mm256_cvtps_pd(_mm256_extractf128_ps(sums, 1));
    for (int c = whole; c < npos; c += 8) {
        int count = npos - c < 8 ? npos - c : 8;
        __m256 p = _mm256_loadu_ps(scores + c), products[8];
        for (int i = 0; i < 8; i++)
            products[i] = _mm256_mul_ps(_mm256_cvtph_ps(_mm_load_si128((const __m128i *)(rest[i] + c - whole))), p);
        transpose8(products);
        for (int t = 0; t < count; t++) {
            low = _mm256_add_pd(low, _mm256_cvtps_pd(_mm256_castps256_ps128(products[t])));
            high = _mm256_add_pd(high, _mm256_cvtps_pd(_mm256_extractf128_ps(products[t], 1)));
        }
    }
    _mm_storeu_ps(out, _mm256_cvtpd_ps(low));
    _mm_storeu_ps(out + 4, _mm256_cvtpd_ps(high));
}

/// `H` query heads (q + h*dim, out + h*dim, scores + h*score_stride) against `npos` positions, each with
/// `attend_portable`'s bits; `single`, `H` and, where it is not 0, `fixed_dim` (the head width) are
/// constants, so that every head's accumulators stay in registers. Decode's values take the heads one at
/// a time: four accumulators per head for three heads are more than AVX2's sixteen registers.
FMK_AVX2 static inline __attribute__((always_inline)) void attend_avx2(
    const int single, const int H, const int fixed_dim, const uint16_t *q, const uint16_t *k, size_t k_stride,
    const uint16_t *v, size_t v_stride, int npos, int dim, float scale, float *scores, size_t score_stride,
    float *out) {
    if (fixed_dim) dim = fixed_dim;
    _Alignas(32) float query[FMK_AVX2_ATTEND_HEADS][FMK_ATTEND_MAX_DIM];
    float max[FMK_AVX2_ATTEND_HEADS];
    for (int h = 0; h < H; h++)
        for (int c = 0; c < dim; c += 8)
            _mm256_store_ps(query[h] + c, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(q + h * dim + c))));
    scores_avx2(single, H, dim, query, k, k_stride, npos, scale, scores, score_stride, max);
    for (int h = 0; h < H; h++) softmax_half_avx2(scores + h * score_stride, npos, (npos + 15) & ~15, max[h]);
    // Whole 64s of the 32-padded cache (decode) go through the accumulators, positions past them through
    // `add_tail`; positions from `full` on (that tail, or a last chunk shorter than sixteen) are copied per
    // row, zero-padded, so the loops load whole vectors.
    int whole = single ? ((npos + 31) & ~31) & ~63 : npos, limit = whole < npos ? whole : npos;
    int full = whole < npos ? whole : npos & ~15;
    _Alignas(32) uint16_t rest[8][FMK_AVX2_REST];
    for (int d0 = 0; d0 < dim; d0 += 8) {
        if (full < npos) {
            for (int i = 0; i < 8; i++) {
                memset(rest[i], 0, sizeof rest[i]);
                memcpy(rest[i], v + (size_t)(d0 + i) * v_stride + full, (size_t)(npos - full) * sizeof(uint16_t));
            }
        }
        __m256 sums[FMK_AVX2_ATTEND_HEADS];
        const uint16_t *rows = v + (size_t)d0 * v_stride;
        if (single) {
            for (int h = 0; h < H; h++)
                values_avx2(1, 1, rows, v_stride, limit, full, rest, scores + h * score_stride, 0, sums + h);
        } else {
            values_avx2(0, H, rows, v_stride, limit, full, rest, scores, score_stride, sums);
        }
        for (int h = 0; h < H; h++) {
            if (whole >= npos) _mm256_storeu_ps(out + h * dim + d0, sums[h]);
            else add_tail(sums[h], rest, scores + h * score_stride, whole, npos, out + h * dim + d0);
        }
    }
}

/// `attend_avx2` for `heads` (1 to FMK_AVX2_ATTEND_HEADS) heads of width 64, each combination its own copy.
FMK_AVX2 static void attend_64_avx2(int single, int heads, const uint16_t *q, const uint16_t *k, size_t k_stride,
                                    const uint16_t *v, size_t v_stride, int npos, float scale, float *scores,
                                    size_t score_stride, float *out) {
#define FMK_ATTEND_64(S, H) \
    attend_avx2(S, H, 64, q, k, k_stride, v, v_stride, npos, 64, scale, scores, score_stride, out)
    switch (heads * 2 + single) {
    case 2: FMK_ATTEND_64(0, 1); break;
    case 3: FMK_ATTEND_64(1, 1); break;
    case 4: FMK_ATTEND_64(0, 2); break;
    case 5: FMK_ATTEND_64(1, 2); break;
    case 6: FMK_ATTEND_64(0, 3); break;
    default: FMK_ATTEND_64(1, 3); break;
    }
#undef FMK_ATTEND_64
}

FMK_AVX2 void fmk_attend_avx2(const uint16_t *q, int heads, const uint16_t *k, size_t k_stride, const uint16_t *v,
                              size_t v_stride, int npos, int dim, float scale, int single, float *scores,
                              size_t score_stride, float *out) {
    int most = dim == 64 ? FMK_AVX2_ATTEND_HEADS : 1;
    for (int h = 0; h < heads; h += most) {
        int count = heads - h < most ? heads - h : most;
        const uint16_t *query = q + (size_t)h * dim;
        float *own = scores + h * score_stride, *result = out + (size_t)h * dim;
        if (dim == 64) {
            attend_64_avx2(single, count, query, k, k_stride, v, v_stride, npos, scale, own, score_stride, result);
        } else if (single) {
            attend_avx2(1, 1, 0, query, k, k_stride, v, v_stride, npos, dim, scale, own, score_stride, result);
        } else {
            attend_avx2(0, 1, 0, query, k, k_stride, v, v_stride, npos, dim, scale, own, score_stride, result);
        }
    }
}
#endif
