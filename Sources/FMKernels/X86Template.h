// x86 kernel bodies, instantiated twice by X86.c: once with AVX2 (maddubs + madd) and once with
// AVX-512 VNNI (vpdpbusd on 256-bit vectors). Define FMK_SUFFIX, FMK_ATTR and FMK_DOT before including.
#define FMK_CAT2(a, b) a##_##b
#define FMK_CAT(a, b) FMK_CAT2(a, b)
#define FMK_NAME(base) FMK_CAT(base, FMK_SUFFIX)

/// 32 Q4_1 nibbles as bytes in element order: low nibbles (elements 0..15), then high (16..31).
FMK_ATTR static inline __m256i FMK_NAME(nibbles)(const uint8_t *qs) {
    __m128i packed = _mm_loadu_si128((const __m128i *)qs);
    __m256i both = _mm256_insertf128_si256(_mm256_castsi128_si256(packed), _mm_srli_epi16(packed, 4), 1);
    return _mm256_and_si256(both, _mm256_set1_epi8(0x0F));
}

/// Horizontal sum of 8 floats.
FMK_ATTR static inline float FMK_NAME(hsum)(__m256 v) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}

/// The f16 scale and minimum at the head of a Q4_1 block, widened.
FMK_ATTR static inline __m128 FMK_NAME(scale_min)(const uint8_t *block) {
    int32_t bits;
    memcpy(&bits, block, 4);
    return _mm_cvtph_ps(_mm_cvtsi32_si128(bits));
}

FMK_ATTR static float FMK_NAME(dot_q4_1)(const uint8_t *row, int nb, const int8_t *xq,
                                         const float *xd, const float *xs) {
    // One accumulator and block order, as ggml's x86 vec_dot_q4_1_q8_1, so sums round the same way.
    __m256 acc = _mm256_setzero_ps();
    float mins = 0.0f;
    for (int b = 0; b < nb; b++) {
        const uint8_t *block = row + b * FMK_Q4_1_BYTES;
        __m128 dm = FMK_NAME(scale_min)(block);
        __m256i p = FMK_DOT(FMK_NAME(nibbles)(block + 4), _mm256_loadu_si256((const __m256i *)(xq + b * FMK_BLOCK)));
        acc = _mm256_fmadd_ps(_mm256_set1_ps(_mm_cvtss_f32(dm) * xd[b]), _mm256_cvtepi32_ps(p), acc);
        mins = fmaf(_mm_cvtss_f32(_mm_movehdup_ps(dm)), xs[b], mins);
    }
    return FMK_NAME(hsum)(acc) + mins;
}

FMK_ATTR static void FMK_NAME(matvec_q4_1)(const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                                          const float *xd, const float *xs, float *out) {
    int nb = n / FMK_BLOCK;
    size_t row_bytes = (size_t)nb * FMK_Q4_1_BYTES;
    for (int r = row0; r < row1; r++) out[r] = FMK_NAME(dot_q4_1)(w + r * row_bytes, nb, xq, xd, xs);
}

/// One Q4_1 row against four tokens: each weight block is unpacked once and used four times.
FMK_ATTR static void FMK_NAME(row_q4_1_x4)(const uint8_t *row, int nb, const float *dw, const float *mw,
                                          const int8_t *xq, const float *xd, const float *xs,
                                          size_t n, float *out, size_t out_stride) {
    __m256 acc[4] = {_mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps()};
    for (int b = 0; b < nb; b++) {
        __m256i qx = FMK_NAME(nibbles)(row + b * FMK_Q4_1_BYTES + 4);
        for (int t = 0; t < 4; t++) {
            __m256i qy = _mm256_loadu_si256((const __m256i *)(xq + t * n + b * FMK_BLOCK));
            __m256 p = _mm256_cvtepi32_ps(FMK_DOT(qx, qy));
            acc[t] = _mm256_fmadd_ps(_mm256_set1_ps(dw[b] * xd[t * (n / FMK_BLOCK) + b]), p, acc[t]);
        }
    }
    for (int t = 0; t < 4; t++) {
        const float *s = xs + t * (n / FMK_BLOCK);
        float mins = 0.0f;
        for (int b = 0; b < nb; b++) mins = fmaf(mw[b], s[b], mins);
        out[t * out_stride] = FMK_NAME(hsum)(acc[t]) + mins;
    }
}

FMK_ATTR static void FMK_NAME(matmul_q4_1)(const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                                          const float *xd, const float *xs, int ntok, float *out,
                                          size_t out_stride) {
    enum { MAX_BLOCKS = 512 };
    int nb = n / FMK_BLOCK;
    size_t row_bytes = (size_t)nb * FMK_Q4_1_BYTES;
    if (nb > MAX_BLOCKS) {
        for (int t = 0; t < ntok; t++) {
            FMK_NAME(matvec_q4_1)(w, n, row0, row1, xq + (size_t)t * n, xd + (size_t)t * nb,
                                  xs + (size_t)t * nb, out + t * out_stride);
        }
        return;
    }
    float dw[MAX_BLOCKS], mw[MAX_BLOCKS];
    for (int r = row0; r < row1; r++) {
        const uint8_t *row = w + r * row_bytes;
        for (int b = 0; b < nb; b++) {
            __m128 dm = FMK_NAME(scale_min)(row + b * FMK_Q4_1_BYTES);
            dw[b] = _mm_cvtss_f32(dm);
            mw[b] = _mm_cvtss_f32(_mm_movehdup_ps(dm));
        }
        int t = 0;
        for (; t + 4 <= ntok; t += 4) {
            FMK_NAME(row_q4_1_x4)(row, nb, dw, mw, xq + (size_t)t * n, xd + (size_t)t * nb, xs + (size_t)t * nb,
                                  (size_t)n, out + t * out_stride + r, out_stride);
        }
        for (; t < ntok; t++) {
            out[t * out_stride + r] = FMK_NAME(dot_q4_1)(row, nb, xq + (size_t)t * n, xd + (size_t)t * nb,
                                                          xs + (size_t)t * nb);
        }
    }
}

/// Signed × signed byte dot product via |w| and sign-transferred activations.
FMK_ATTR static inline __m256i FMK_NAME(dot_i8)(__m256i wabs, __m256i wq, __m256i y) {
    return FMK_DOT(wabs, _mm256_sign_epi8(y, wq));
}

FMK_ATTR static float FMK_NAME(dot_q8_0)(const uint8_t *row, int nb, const int8_t *xq, const float *xd) {
    __m256 acc = _mm256_setzero_ps();
    for (int b = 0; b < nb; b++) {
        const uint8_t *block = row + b * FMK_Q8_0_BYTES;
        __m256i wq = _mm256_loadu_si256((const __m256i *)(block + 2));
        __m256i p = FMK_NAME(dot_i8)(_mm256_sign_epi8(wq, wq), wq, _mm256_loadu_si256((const __m256i *)(xq + b * FMK_BLOCK)));
        acc = _mm256_fmadd_ps(_mm256_set1_ps(_cvtsh_ss(fmk_read_u16(block)) * xd[b]), _mm256_cvtepi32_ps(p), acc);
    }
    return FMK_NAME(hsum)(acc);
}

FMK_ATTR static void FMK_NAME(matvec_q8_0)(const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                                          const float *xd, const uint32_t *mask, float *out) {
    int nb = n / FMK_BLOCK;
    size_t row_bytes = (size_t)nb * FMK_Q8_0_BYTES;
    for (int r = row0; r < row1; r++) {
        if (mask && !((mask[r >> 5] >> (r & 31)) & 1u)) {
            out[r] = -INFINITY;
            continue;
        }
        out[r] = FMK_NAME(dot_q8_0)(w + r * row_bytes, nb, xq, xd);
    }
}

FMK_ATTR static void FMK_NAME(matmul_q8_0)(const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                                          const float *xd, int ntok, float *out, size_t out_stride) {
    int nb = n / FMK_BLOCK;
    size_t row_bytes = (size_t)nb * FMK_Q8_0_BYTES;
    for (int r = row0; r < row1; r++) {
        const uint8_t *row = w + r * row_bytes;
        int t = 0;
        for (; t + 4 <= ntok; t += 4) {
            __m256 acc[4] = {_mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps()};
            for (int b = 0; b < nb; b++) {
                const uint8_t *block = row + b * FMK_Q8_0_BYTES;
                __m256i wq = _mm256_loadu_si256((const __m256i *)(block + 2));
                __m256i wabs = _mm256_sign_epi8(wq, wq);
                float dw = _cvtsh_ss(fmk_read_u16(block));
                for (int k = 0; k < 4; k++) {
                    const int8_t *y = xq + (size_t)(t + k) * n + b * FMK_BLOCK;
                    __m256 p = _mm256_cvtepi32_ps(FMK_NAME(dot_i8)(wabs, wq, _mm256_loadu_si256((const __m256i *)y)));
                    acc[k] = _mm256_fmadd_ps(_mm256_set1_ps(dw * xd[(size_t)(t + k) * nb + b]), p, acc[k]);
                }
            }
            for (int k = 0; k < 4; k++) out[(t + k) * out_stride + r] = FMK_NAME(hsum)(acc[k]);
        }
        for (; t < ntok; t++) {
            out[t * out_stride + r] = FMK_NAME(dot_q8_0)(row, nb, xq + (size_t)t * n, xd + (size_t)t * nb);
        }
    }
}

#undef FMK_NAME
#undef FMK_CAT
#undef FMK_CAT2
