// Prefill tile kernel bodies, instantiated by X86.c for AVX2 and AVX-512 VNNI after X86Template.h
// (whose row kernels handle the rows and matrices a tile does not cover). Define FMK_SUFFIX, FMK_ATTR,
// FMK_DOT and FMK_TILE_TOKENS (tokens per register tile) before including.
//
// Layout: a tile is eight weight rows × FMK_TILE_TOKENS tokens, and a vector lane is a row. For each
// 32-element block the row kernel keeps one 8-lane accumulator per (row, token) whose lane i sums
// elements 4i..4i+3; here accumulator i of a token holds that same lane i for eight rows at once, so
// every float is computed by the same operations in the same order: the scale d_w·d_x rounded to float,
// one fused multiply-add per block and lane in block order, the lanes added ((0+4)+(2+6))+((1+5)+(3+7))
// as the row kernel's horizontal sum does, then the fused chain of minimums m_w·s_x. Outputs are
// bit-identical to the row kernels'. Each call regroups its rows' weights eight at a time into a small
// buffer (nibbles unpacked to bytes, transposed so one 32-byte load serves eight rows), then runs every
// token tile over it, so a weight block is unpacked once per call instead of once per four tokens and
// an activation is loaded as one broadcast 4-byte group per eight rows.
#define FMK_CAT2(a, b) a##_##b
#define FMK_CAT(a, b) FMK_CAT2(a, b)
#define FMK_NAME(base) FMK_CAT(base, FMK_SUFFIX)

/// Stores the transpose of four rows' four dwords: vector k (32 bytes apart) gets dword k of each row.
FMK_ATTR static inline void FMK_NAME(transpose_store)(const __m128i *v, uint8_t *dst) {
    __m128i t0 = _mm_unpacklo_epi32(v[0], v[1]), t1 = _mm_unpackhi_epi32(v[0], v[1]);
    __m128i t2 = _mm_unpacklo_epi32(v[2], v[3]), t3 = _mm_unpackhi_epi32(v[2], v[3]);
    _mm_storeu_si128((__m128i *)dst, _mm_unpacklo_epi64(t0, t2));
    _mm_storeu_si128((__m128i *)(dst + 32), _mm_unpackhi_epi64(t0, t2));
    _mm_storeu_si128((__m128i *)(dst + 64), _mm_unpacklo_epi64(t1, t3));
    _mm_storeu_si128((__m128i *)(dst + 96), _mm_unpackhi_epi64(t1, t3));
}

/// Regroups Q4_1 rows r0..r0+7: per block b, eight 32-byte vectors at qs + 256b (vector i: elements
/// 4i..4i+3 of each row as bytes), the rows' scales at d + 8b and minimums at m + 8b.
FMK_ATTR static void FMK_NAME(regroup_q4_1)(const uint8_t *w, size_t row_bytes, int r0, int nb, uint8_t *qs,
                                           float *d, float *m) {
    const __m128i low = _mm_set1_epi8(0x0F);
    for (int b = 0; b < nb; b++) {
        __m128i lo[8], hi[8];
        for (int r = 0; r < 8; r++) {
            const uint8_t *block = w + (size_t)(r0 + r) * row_bytes + (size_t)b * FMK_Q4_1_BYTES;
            __m128i packed = _mm_loadu_si128((const __m128i *)(block + 4));
            lo[r] = _mm_and_si128(packed, low);
            hi[r] = _mm_and_si128(_mm_srli_epi16(packed, 4), low);
            d[b * 8 + r] = _cvtsh_ss(fmk_read_u16(block));
            m[b * 8 + r] = _cvtsh_ss(fmk_read_u16(block + 2));
        }
        uint8_t *dst = qs + (size_t)b * 256;
        FMK_NAME(transpose_store)(lo, dst);
        FMK_NAME(transpose_store)(lo + 4, dst + 16);
        FMK_NAME(transpose_store)(hi, dst + 128);
        FMK_NAME(transpose_store)(hi + 4, dst + 144);
    }
}

/// Eight regrouped rows × `ntok` tokens (at most FMK_TILE_TOKENS, a constant where inlined):
/// out[t*out_stride + r] for r < 8.
FMK_ATTR static inline __attribute__((always_inline)) void FMK_NAME(tile_q4_1)(
    const uint8_t *qs, const float *d, const float *m, int nb, size_t n, const int8_t *xq, const float *xd,
    const float *xs, int ntok, float *out, size_t out_stride) {
    // Fully unrolled, so the accumulators live in registers (24 of AVX-512's 32 for three tokens).
    __m256 acc[FMK_TILE_TOKENS][8];
#pragma unroll
    for (int t = 0; t < ntok; t++)
#pragma unroll
        for (int i = 0; i < 8; i++) acc[t][i] = _mm256_setzero_ps();
    for (int b = 0; b < nb; b++) {
        __m256 dw = _mm256_loadu_ps(d + b * 8), scale[FMK_TILE_TOKENS];
#pragma unroll
        for (int t = 0; t < ntok; t++) scale[t] = _mm256_mul_ps(dw, _mm256_set1_ps(xd[(size_t)t * nb + b]));
#pragma unroll
        for (int i = 0; i < 8; i++) {
            __m256i wq = _mm256_load_si256((const __m256i *)(qs + (size_t)b * 256 + i * 32));
#pragma unroll
            for (int t = 0; t < ntok; t++) {
                int32_t group;
                memcpy(&group, xq + t * n + (size_t)b * FMK_BLOCK + 4 * i, 4);
                __m256 p = _mm256_cvtepi32_ps(FMK_DOT(wq, _mm256_set1_epi32(group)));
                acc[t][i] = _mm256_fmadd_ps(scale[t], p, acc[t][i]);
            }
        }
    }
#pragma unroll
    for (int t = 0; t < ntok; t++) {
        __m256 mins = _mm256_setzero_ps();
        for (int b = 0; b < nb; b++) {
            mins = _mm256_fmadd_ps(_mm256_loadu_ps(m + b * 8), _mm256_set1_ps(xs[(size_t)t * nb + b]), mins);
        }
        __m256 sum = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(acc[t][0], acc[t][4]), _mm256_add_ps(acc[t][2], acc[t][6])),
                                   _mm256_add_ps(_mm256_add_ps(acc[t][1], acc[t][5]), _mm256_add_ps(acc[t][3], acc[t][7])));
        _mm256_storeu_ps(out + t * out_stride, _mm256_add_ps(sum, mins));
    }
}

FMK_ATTR static void FMK_NAME(matmul_q4_1_tiled)(const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                                                const float *xd, const float *xs, int ntok, float *out,
                                                size_t out_stride) {
    enum { MAX_BLOCKS = 128, TOKENS = FMK_TILE_TOKENS };
    int nb = n / FMK_BLOCK;
    if (nb > MAX_BLOCKS) {
        FMK_NAME(matmul_q4_1)(w, n, row0, row1, xq, xd, xs, ntok, out, out_stride);
        return;
    }
    size_t row_bytes = (size_t)nb * FMK_Q4_1_BYTES, stride = (size_t)n;
    _Alignas(32) uint8_t qs[MAX_BLOCKS * 256];
    float d[MAX_BLOCKS * 8], m[MAX_BLOCKS * 8];
    int r = row0;
    for (; r + 8 <= row1; r += 8) {
        FMK_NAME(regroup_q4_1)(w, row_bytes, r, nb, qs, d, m);
        int t = 0;
        for (; t + TOKENS <= ntok; t += TOKENS) {
            FMK_NAME(tile_q4_1)(qs, d, m, nb, stride, xq + (size_t)t * n, xd + (size_t)t * nb, xs + (size_t)t * nb,
                                TOKENS, out + t * out_stride + r, out_stride);
        }
        for (; t < ntok; t++) {
            FMK_NAME(tile_q4_1)(qs, d, m, nb, stride, xq + (size_t)t * n, xd + (size_t)t * nb, xs + (size_t)t * nb,
                                1, out + t * out_stride + r, out_stride);
        }
    }
    // Rows past the last whole group of eight: the row kernel computes the same bits.
    if (r < row1) FMK_NAME(matmul_q4_1)(w, n, r, row1, xq, xd, xs, ntok, out, out_stride);
}

#undef FMK_NAME
#undef FMK_CAT
#undef FMK_CAT2
