// Attention over the half-precision KV cache, computed with llama.cpp's CPU numerics (non-flash path).
// Several tokens at once (prefill) follow its tinyBLAS f16 matrix product: one 16-lane accumulator per
// output, over 16-element chunks. One token (decode) follows ggml_vec_dot_f16: four 16-lane
// accumulators over 64-element chunks, added (0+2)+(1+3), and for p·v the positions past the last
// whole 64 of the 32-padded cache summed one by one in double. Softmax uses ggml's vector expf summed
// 16 lanes at a time into a double; probabilities are rounded to half. Every level gives identical bits.
#include "Internal.h"
#include <math.h>

/// Value rows ahead of the current one that `attend_one_avx512` prefetches.
#define FMK_ATTEND_ROWS_AHEAD 2
/// Query heads that `attend_one_avx512` takes together at most.
#define FMK_ATTEND_HEADS 4
/// Query heads that `attend_many_avx512` takes together at most (eight accumulators each).
#define FMK_ATTEND_MANY_HEADS 3
/// Positions of a key/value head whose keys and value rows `fmk_prefetch_kv` asks for (64 KB of a
/// 64-wide head), so a long context does not flood the second-level cache.
#define FMK_PREFETCH_KV_POSITIONS 256

/// Sum of 16 lanes in the order of `_mm512_reduce_add_ps`: halves, quarters, then pairs.
static inline float reduce16(const float *l) {
    float t3[8], t6[4];
    for (int i = 0; i < 8; i++) t3[i] = l[i + 8] + l[i];
    for (int i = 0; i < 4; i++) t6[i] = t3[i + 4] + t3[i];
    return (t6[0] + t6[2]) + (t6[1] + t6[3]);
}

/// One query head, element by element, in the order every other level reproduces.
static void attend_portable(const uint16_t *q, const uint16_t *k, size_t k_stride, const uint16_t *v,
                            size_t v_stride, int npos, int dim, float scale, int single, float *scores, float *out) {
    int padded = (npos + 15) & ~15;
    float max = -INFINITY;
    for (int t = 0; t < npos; t++) {
        const uint16_t *key = k + (size_t)t * k_stride;
        float acc[4][16] = {{0}};
        for (int c = 0; c < dim; c += 16)
            for (int l = 0; l < 16; l++)
                acc[single ? (c >> 4) & 3 : 0][l] = fmaf(fmk_f16_to_f32(q[c + l]), fmk_f16_to_f32(key[c + l]),
                                                         acc[single ? (c >> 4) & 3 : 0][l]);
        for (int l = 0; l < 16; l++) acc[0][l] = (acc[0][l] + acc[2][l]) + (acc[1][l] + acc[3][l]);
        scores[t] = reduce16(acc[0]) * scale;
        if (scores[t] > max) max = scores[t];
    }
    double total = 0.0;
    for (int c = 0; c < padded; c += 16) {
        float lane[16];
        for (int l = 0; l < 16; l++) lane[l] = c + l < npos ? fmk_exp(scores[c + l] - max) : 0.0f;
        for (int l = 0; l < 16; l++) scores[c + l] = lane[l];
        total += (double)reduce16(lane);
    }
    float inverse = (float)(1.0 / total);
    for (int t = 0; t < padded; t++) scores[t] = fmk_f16_to_f32(fmk_f32_to_f16(scores[t] * inverse));
    int whole = single ? ((npos + 31) & ~31) & ~63 : padded;
    for (int d = 0; d < dim; d++) {
        const uint16_t *row = v + (size_t)d * v_stride;
        float acc[4][16] = {{0}};
        for (int c = 0; c < whole; c += 16)
            for (int l = 0; l < 16 && c + l < npos; l++)
                acc[single ? (c >> 4) & 3 : 0][l] = fmaf(scores[c + l], fmk_f16_to_f32(row[c + l]),
                                                         acc[single ? (c >> 4) & 3 : 0][l]);
        for (int l = 0; l < 16; l++) acc[0][l] = (acc[0][l] + acc[2][l]) + (acc[1][l] + acc[3][l]);
        double sum = (double)reduce16(acc[0]);
        for (int t = whole; t < npos; t++) sum += (double)(fmk_f16_to_f32(row[t]) * scores[t]);
        out[d] = (float)sum;
    }
}

#ifdef FMK_X86
FMK_VNNI static inline float reduce512(__m512 x) {
    float lanes[16];
    _mm512_storeu_ps(lanes, x);
    return reduce16(lanes);
}

/// Reduces sixteen 16-lane vectors at once, each in `reduce16`'s order (float addition commutes, so a
/// lane pair added either way round gives the same bits): lane p of the result is the sum of a[p].
FMK_VNNI static inline __m512 reduce16x16(const __m512 *a) {
    __m512 halves[8], quarters[4], pairs[2];
    // t3[i] = l[i] + l[i+8]: two inputs per vector, eight lanes each.
    for (int k = 0; k < 8; k++) {
        halves[k] = _mm512_add_ps(_mm512_shuffle_f32x4(a[2 * k], a[2 * k + 1], _MM_SHUFFLE(1, 0, 1, 0)),
                                  _mm512_shuffle_f32x4(a[2 * k], a[2 * k + 1], _MM_SHUFFLE(3, 2, 3, 2)));
    }
    // t6[i] = t3[i] + t3[i+4]: 128-bit quarter j of quarters[k] belongs to input 4k+j.
    for (int k = 0; k < 4; k++) {
        quarters[k] = _mm512_add_ps(_mm512_shuffle_f32x4(halves[2 * k], halves[2 * k + 1], _MM_SHUFFLE(2, 0, 2, 0)),
                                    _mm512_shuffle_f32x4(halves[2 * k], halves[2 * k + 1], _MM_SHUFFLE(3, 1, 3, 1)));
    }
    // u0 = t6[0] + t6[2], u1 = t6[1] + t6[3]: quarter j of pairs[k] holds inputs 8k+j and 8k+4+j.
    for (int k = 0; k < 2; k++) {
        pairs[k] = _mm512_add_ps(_mm512_shuffle_ps(quarters[2 * k], quarters[2 * k + 1], _MM_SHUFFLE(1, 0, 1, 0)),
                                 _mm512_shuffle_ps(quarters[2 * k], quarters[2 * k + 1], _MM_SHUFFLE(3, 2, 3, 2)));
    }
    // u0 + u1: lane 4j+m holds input j+4m; put input p at lane p.
    __m512 sums = _mm512_add_ps(_mm512_shuffle_ps(pairs[0], pairs[1], _MM_SHUFFLE(2, 0, 2, 0)),
                                _mm512_shuffle_ps(pairs[0], pairs[1], _MM_SHUFFLE(3, 1, 3, 1)));
    const __m512i order = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    return _mm512_permutexvar_ps(order, sums);
}

/// Transposes sixteen 16-lane vectors in place: lane j of r[i] becomes lane i of r[j].
FMK_VNNI static inline void transpose16(__m512 *r) {
    __m512 t[16], u[16];
    // t[2k], t[2k+1]: rows 2k and 2k+1 interleaved, elements 0–1 and 2–3 of each 128-bit lane.
    for (int k = 0; k < 8; k++) {
        t[2 * k] = _mm512_unpacklo_ps(r[2 * k], r[2 * k + 1]);
        t[2 * k + 1] = _mm512_unpackhi_ps(r[2 * k], r[2 * k + 1]);
    }
    // u[4k+e]: 128-bit lane L holds element 4L+e of rows 4k..4k+3.
    for (int k = 0; k < 4; k++) {
        for (int e = 0; e < 2; e++) {
            __m512d a = _mm512_castps_pd(t[4 * k + e]), b = _mm512_castps_pd(t[4 * k + e + 2]);
            u[4 * k + 2 * e] = _mm512_castpd_ps(_mm512_unpacklo_pd(a, b));
            u[4 * k + 2 * e + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a, b));
        }
    }
    // r[4L+e]: 128-bit lane k from lane L of u[4k+e].
    for (int e = 0; e < 4; e++) {
        __m512 v0 = _mm512_shuffle_f32x4(u[e], u[4 + e], 0x44), v1 = _mm512_shuffle_f32x4(u[e], u[4 + e], 0xEE);
        __m512 v2 = _mm512_shuffle_f32x4(u[8 + e], u[12 + e], 0x44), v3 = _mm512_shuffle_f32x4(u[8 + e], u[12 + e], 0xEE);
        r[e] = _mm512_shuffle_f32x4(v0, v2, 0x88);
        r[4 + e] = _mm512_shuffle_f32x4(v0, v2, 0xDD);
        r[8 + e] = _mm512_shuffle_f32x4(v1, v3, 0x88);
        r[12 + e] = _mm512_shuffle_f32x4(v1, v3, 0xDD);
    }
}

/// Positions t0..t0+15 of one head: each position's q·k sum (lane p of `reduce16x16(sums)`) times
/// `scale`, -infinity past `npos`, stored at scores + t0; `top` keeps the running maximum.
FMK_VNNI static inline void store_scores(const __m512 *sums, int t0, int npos, float scale, float *scores,
                                         __m512 *top) {
    __mmask16 live = (__mmask16)(npos - t0 >= 16 ? 0xFFFF : (1u << (npos - t0)) - 1);
    __m512 s = _mm512_mul_ps(reduce16x16(sums), _mm512_set1_ps(scale));
    s = _mm512_mask_blend_ps(live, _mm512_set1_ps(-INFINITY), s);
    _mm512_storeu_ps(scores + t0, s);
    *top = _mm512_max_ps(*top, s);
}

/// Softmax of `padded` scores in place, `top` holding their maximum in some lane: ggml's vector expf,
/// summed sixteen lanes at a time into a double, each probability rounded to half.
FMK_VNNI static inline void softmax_half(float *scores, int padded, __m512 top) {
    double total = 0.0;
    __m512 most = _mm512_set1_ps(_mm512_reduce_max_ps(top));
    for (int c = 0; c < padded; c += 16) {
        __m512 e = exp16(_mm512_sub_ps(_mm512_loadu_ps(scores + c), most));
        _mm512_storeu_ps(scores + c, e);
        total += (double)reduce512(e);
    }
    __m512 inverse = _mm512_set1_ps((float)(1.0 / total));
    for (int c = 0; c < padded; c += 16) {
        __m512 p = _mm512_mul_ps(_mm512_loadu_ps(scores + c), inverse);
        _mm512_storeu_ps(scores + c, _mm512_cvtph_ps(_mm512_cvtps_ph(p, _MM_FROUND_TO_NEAREST_INT)));
    }
}

/// `attend_avx512` for several tokens (single == 0) for `H` query heads (q + h*dim, out + h*dim,
/// scores + h*score_stride) that share their keys and values, each with the bits it gets alone, eight
/// positions (q·k) or eight output elements (p·v) at a time for every head: each key and value chunk is
/// converted once for all of them, each lane's chain of fused multiply-adds is the same, and
/// `reduce16x16` sums sixteen accumulators in `reduce16`'s order without a trip through memory. The
/// row-at-a-time version adds zero accumulators first, which only turns -0 into +0; its lanes start at
/// +0 and a product of halves never rounds to zero, so they never hold -0.
FMK_VNNI static inline __attribute__((always_inline)) void attend_many_avx512(
    const int H, const uint16_t *q, const uint16_t *k, size_t k_stride, const uint16_t *v, size_t v_stride,
    int npos, int dim, float scale, float *scores, size_t score_stride, float *out) {
    int padded = (npos + 15) & ~15;
    __m512 top[FMK_ATTEND_MANY_HEADS], sums[FMK_ATTEND_MANY_HEADS][16];
    for (int h = 0; h < H; h++) top[h] = _mm512_set1_ps(-INFINITY);
    for (int t0 = 0; t0 < npos; t0 += 16) {
        for (int half = 0; half < 16; half += 8) {
            __m512 acc[FMK_ATTEND_MANY_HEADS][8];
            for (int h = 0; h < H; h++)
                for (int p = 0; p < 8; p++) acc[h][p] = _mm512_setzero_ps();
            for (int c = 0; c < dim; c += 16) {
                __m512 qv[FMK_ATTEND_MANY_HEADS];
                for (int h = 0; h < H; h++)
                    qv[h] = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(q + h * dim + c)));
                for (int p = 0; p < 8; p++) {
                    // Lanes past the last position reuse position t0's key; their scores are discarded.
                    int at = t0 + half + p;
                    const uint16_t *key = k + (size_t)(at < npos ? at : t0) * k_stride;
                    __m512 kv = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(key + c)));
                    for (int h = 0; h < H; h++) acc[h][p] = _mm512_fmadd_ps(qv[h], kv, acc[h][p]);
                }
            }
            for (int h = 0; h < H; h++)
                for (int p = 0; p < 8; p++) sums[h][half + p] = acc[h][p];
        }
        for (int h = 0; h < H; h++) store_scores(sums[h], t0, npos, scale, scores + h * score_stride, &top[h]);
    }
    for (int h = 0; h < H; h++) softmax_half(scores + h * score_stride, padded, top[h]);
    for (int d0 = 0; d0 < dim; d0 += 16) {
        for (int half = 0; half < 16; half += 8) {
            __m512 acc[FMK_ATTEND_MANY_HEADS][8];
            for (int h = 0; h < H; h++)
                for (int i = 0; i < 8; i++) acc[h][i] = _mm512_setzero_ps();
            for (int c = 0; c < npos; c += 16) {
                __mmask16 live = (__mmask16)(npos - c >= 16 ? 0xFFFF : (1u << (npos - c)) - 1);
                __m512 p[FMK_ATTEND_MANY_HEADS];
                for (int h = 0; h < H; h++) p[h] = _mm512_loadu_ps(scores + h * score_stride + c);
                for (int i = 0; i < 8; i++) {
                    const uint16_t *row = v + (size_t)(d0 + half + i) * v_stride + c;
                    __m512 values = _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(live, row));
                    for (int h = 0; h < H; h++) acc[h][i] = _mm512_mask3_fmadd_ps(p[h], values, acc[h][i], live);
                }
            }
            for (int h = 0; h < H; h++)
                for (int i = 0; i < 8; i++) sums[h][half + i] = acc[h][i];
        }
        for (int h = 0; h < H; h++) _mm512_storeu_ps(out + h * dim + d0, reduce16x16(sums[h]));
    }
}

/// `attend_many_avx512` for `heads` (1 to FMK_ATTEND_MANY_HEADS) heads, each count its own copy so the
/// accumulators of every head stay in registers.
FMK_VNNI static void attend_many_heads_avx512(int heads, const uint16_t *q, const uint16_t *k, size_t k_stride,
                                              const uint16_t *v, size_t v_stride, int npos, int dim, float scale,
                                              float *scores, size_t score_stride, float *out) {
    switch (heads) {
    case 1: attend_many_avx512(1, q, k, k_stride, v, v_stride, npos, dim, scale, scores, score_stride, out); break;
    case 2: attend_many_avx512(2, q, k, k_stride, v, v_stride, npos, dim, scale, scores, score_stride, out); break;
    default: attend_many_avx512(3, q, k, k_stride, v, v_stride, npos, dim, scale, scores, score_stride, out); break;
    }
}

/// One token (decode) for `H` query heads (q + h*dim, out + h*dim, scores + h*score_stride) that share
/// their keys and values, each with `attend_portable`'s bits (its `single` order: four accumulators taking
/// 16-wide chunks in turn). Each key and value chunk is converted once for every head, the queries once
/// per call; the turn is unrolled, so the accumulators stay in registers, and sixteen positions' q·k sums
/// (sixteen output elements' p·v sums) are reduced together by `reduce16x16`, in `reduce16`'s order;
/// every lane's chain of fused multiply-adds is unchanged.
FMK_VNNI static inline __attribute__((always_inline)) void attend_one_avx512(
    const int H, const uint16_t *q, const uint16_t *k, size_t k_stride, const uint16_t *v, size_t v_stride,
    int npos, int dim, float scale, float *scores, size_t score_stride, float *out) {
    int padded = (npos + 15) & ~15;
    _Alignas(64) float queries[FMK_ATTEND_HEADS][FMK_ATTEND_MAX_DIM];
    for (int h = 0; h < H; h++)
        for (int c = 0; c < dim; c += 16)
            _mm512_store_ps(queries[h] + c, _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(q + h * dim + c))));
    __m512 top[FMK_ATTEND_HEADS], sums[FMK_ATTEND_HEADS][16];
    for (int h = 0; h < H; h++) top[h] = _mm512_set1_ps(-INFINITY);
    for (int t0 = 0; t0 < npos; t0 += 16) {
        for (int p = 0; p < 16; p++) {
            // Lanes past the last position reuse position t0's key; their scores are discarded.
            const uint16_t *key = k + (size_t)(t0 + p < npos ? t0 + p : t0) * k_stride;
            if (t0 + 16 + p < npos) {
                fmk_prefetch(key + 16 * k_stride, 2 * (size_t)dim);
            }
            __m512 acc[FMK_ATTEND_HEADS][4];
            for (int h = 0; h < H; h++)
                for (int j = 0; j < 4; j++) acc[h][j] = _mm512_setzero_ps();
            for (int c = 0; c < dim; c += 64) {
                for (int j = 0; j < 4; j++) {
                    if (c + 16 * j >= dim) break;
                    __m512 kv = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(key + c + 16 * j)));
                    for (int h = 0; h < H; h++)
                        acc[h][j] = _mm512_fmadd_ps(_mm512_load_ps(queries[h] + c + 16 * j), kv, acc[h][j]);
                }
            }
            for (int h = 0; h < H; h++)
                sums[h][p] = _mm512_add_ps(_mm512_add_ps(acc[h][0], acc[h][2]), _mm512_add_ps(acc[h][1], acc[h][3]));
        }
        for (int h = 0; h < H; h++) store_scores(sums[h], t0, npos, scale, scores + h * score_stride, &top[h]);
    }
    for (int h = 0; h < H; h++) softmax_half(scores + h * score_stride, padded, top[h]);
    // Whole 64s of the 32-padded cache go through the accumulators; positions past them are added in double.
    int whole = ((npos + 31) & ~31) & ~63;
    for (int d0 = 0; d0 < dim; d0 += 16) {
        for (int i = 0; i < 16; i++) {
            const uint16_t *row = v + (size_t)(d0 + i) * v_stride;
            if (d0 + i + FMK_ATTEND_ROWS_AHEAD < dim) {
                // Rows lie a whole context apart, too far for the hardware to fetch them ahead.
                fmk_prefetch(row + FMK_ATTEND_ROWS_AHEAD * v_stride, 2 * (size_t)npos);
            }
            __m512 acc[FMK_ATTEND_HEADS][4];
            for (int h = 0; h < H; h++)
                for (int j = 0; j < 4; j++) acc[h][j] = _mm512_setzero_ps();
            for (int c = 0; c < whole && c < npos; c += 64) {
                for (int j = 0; j < 4; j++) {
                    int at = c + 16 * j, live_count = npos - at;
                    if (live_count <= 0) break;
                    __mmask16 live = (__mmask16)(live_count >= 16 ? 0xFFFF : (1u << live_count) - 1);
                    __m512 values = _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(live, row + at));
                    for (int h = 0; h < H; h++)
                        acc[h][j] = _mm512_mask3_fmadd_ps(_mm512_loadu_ps(scores + h * score_stride + at), values,
                                                          acc[h][j], live);
                }
            }
            for (int h = 0; h < H; h++)
                sums[h][i] = _mm512_add_ps(_mm512_add_ps(acc[h][0], acc[h][2]), _mm512_add_ps(acc[h][1], acc[h][3]));
        }
        __m512d low[FMK_ATTEND_HEADS], high[FMK_ATTEND_HEADS];
        for (int h = 0; h < H; h++) {
            __m512 reduced = reduce16x16(sums[h]);
            low[h] = _mm512_cvtps_pd(_mm512_castps512_ps256(reduced));
            high[h] = _mm512_cvtps_pd(_mm512_extractf32x8_ps(reduced, 1));
        }
        // Positions past the whole 64s, in order, each row's sum in double: the sixteen rows' products
        // of sixteen positions are transposed so that lane i adds row i's.
        for (int c = whole; c < npos; c += 16) {
            int count = npos - c < 16 ? npos - c : 16;
            __mmask16 live = (__mmask16)(count == 16 ? 0xFFFF : (1u << count) - 1);
            __m512 values[16];
            for (int i = 0; i < 16; i++)
                values[i] = _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(live, v + (size_t)(d0 + i) * v_stride + c));
            for (int h = 0; h < H; h++) {
                __m512 p = _mm512_maskz_loadu_ps(live, scores + h * score_stride + c), products[16];
                for (int i = 0; i < 16; i++) products[i] = _mm512_mul_ps(values[i], p);
                transpose16(products);
                for (int t = 0; t < count; t++) {
                    low[h] = _mm512_add_pd(low[h], _mm512_cvtps_pd(_mm512_castps512_ps256(products[t])));
                    high[h] = _mm512_add_pd(high[h], _mm512_cvtps_pd(_mm512_extractf32x8_ps(products[t], 1)));
                }
            }
        }
        for (int h = 0; h < H; h++) {
            __m256 first = _mm512_cvtpd_ps(low[h]), second = _mm512_cvtpd_ps(high[h]);
            _mm512_storeu_ps(out + h * dim + d0, _mm512_insertf32x8(_mm512_castps256_ps512(first), second, 1));
        }
    }
}

/// `attend_one_avx512` for `heads` (1 to FMK_ATTEND_HEADS) heads, each count its own copy so the
/// accumulators of every head stay in registers.
FMK_VNNI static void attend_one_heads_avx512(int heads, const uint16_t *q, const uint16_t *k, size_t k_stride,
                                             const uint16_t *v, size_t v_stride, int npos, int dim, float scale,
                                             float *scores, size_t score_stride, float *out) {
    switch (heads) {
    case 1: attend_one_avx512(1, q, k, k_stride, v, v_stride, npos, dim, scale, scores, score_stride, out); break;
    case 2: attend_one_avx512(2, q, k, k_stride, v, v_stride, npos, dim, scale, scores, score_stride, out); break;
    case 3: attend_one_avx512(3, q, k, k_stride, v, v_stride, npos, dim, scale, scores, score_stride, out); break;
    default: attend_one_avx512(4, q, k, k_stride, v, v_stride, npos, dim, scale, scores, score_stride, out); break;
    }
}
#endif

void fmk_attend_f16(const uint16_t *q, int heads, const uint16_t *k, size_t k_stride, const uint16_t *v,
                    size_t v_stride, int npos, int dim, float scale, int single, float *scores, size_t score_stride,
                    float *out) {
#ifdef FMK_X86
    int level = fmk_active_level();
    if (level == FMK_LEVEL_AVX512VNNI && dim % 16 == 0 && (!single || dim <= FMK_ATTEND_MAX_DIM)) {
        int most = single ? FMK_ATTEND_HEADS : FMK_ATTEND_MANY_HEADS;
        for (int h = 0; h < heads; h += most) {
            int count = heads - h < most ? heads - h : most;
            const uint16_t *query = q + (size_t)h * dim;
            float *own = scores + h * score_stride, *result = out + (size_t)h * dim;
            if (single) {
                attend_one_heads_avx512(count, query, k, k_stride, v, v_stride, npos, dim, scale, own, score_stride,
                                        result);
            } else {
                attend_many_heads_avx512(count, query, k, k_stride, v, v_stride, npos, dim, scale, own, score_stride,
                                         result);
            }
        }
        return;
    }
    if (level >= FMK_LEVEL_AVX2 && dim % 16 == 0 && dim <= FMK_ATTEND_MAX_DIM) {
        fmk_attend_avx2(q, heads, k, k_stride, v, v_stride, npos, dim, scale, single, scores, score_stride, out);
        return;
    }
#endif
    for (int h = 0; h < heads; h++) {
        const uint16_t *query = q + (size_t)h * dim;
        float *own = scores + h * score_stride, *result = out + (size_t)h * dim;
        attend_portable(query, k, k_stride, v, v_stride, npos, dim, scale, single, own, result);
    }
}

void fmk_prefetch_kv(const uint16_t *k, size_t k_stride, const uint16_t *v, size_t v_stride, int npos, int dim) {
    int positions = npos < FMK_PREFETCH_KV_POSITIONS ? npos : FMK_PREFETCH_KV_POSITIONS;
    for (int t = 0; t < positions; t++) fmk_prefetch_l2(k + (size_t)t * k_stride, 2 * (size_t)dim);
    for (int d = 0; d < dim; d++) fmk_prefetch_l2(v + (size_t)d * v_stride, 2 * (size_t)positions);
}
