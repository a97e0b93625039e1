// AVX-512 VNNI decode kernels that take four rows at a time: Q4_1 rows packed in groups of four
// (`fmk_pack_q4_1`) against one to four tokens, and Q8_0 rows in ggml's layout, two to a 512-bit
// register. Each row and token keeps its own eight lane accumulators, its block order and its ggml
// roundings, so every output has the bits of the one-row kernel (`dot_q4_1_vnni`, `dot_q8_0_vnni`);
// four rows give the core independent accumulator chains and far fewer instructions per block, and
// a batch of tokens shares each unpacked block. Included once by X86.c, after the VNNI instantiation
// of X86Template.h.

/// Groups of four rows ahead of the current one that the Q8_0 kernel prefetches: with four rows read
/// side by side the hardware prefetcher falls behind, and decode waits on memory.
#define FMK_PREFETCH_GROUPS 2

/// One group of four packed Q4_1 rows against `nt` (1–4) tokens, `n` elements apart in `xq`: each
/// weight block is loaded and unpacked once for every token. Row i of token t goes to
/// `out[t * out_stride + i]`.
FMK_VNNI static inline __attribute__((always_inline)) void packed_group(const uint8_t *group, int nb, int nt,
                                                                       const int8_t *xq, const float *xd,
                                                                       const float *xs, size_t n, float *out,
                                                                       size_t out_stride) {
    // Lane 4i+k of a block's products is row i's lane k (low nibbles) or lane 4+k (high nibbles).
    const __m512i spread = _mm512_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3);
    const __m512i low_nibbles = _mm512_set1_epi8(0x0F);
    __m512 low[4], high[4];
    __m256 mins[4];
    for (int t = 0; t < nt; t++) {
        low[t] = _mm512_setzero_ps();
        high[t] = _mm512_setzero_ps();
        mins[t] = _mm256_setzero_ps();
    }
    size_t blocks = n / FMK_BLOCK;
    for (int b = 0; b < nb; b++) {
        const uint8_t *block = group + (size_t)b * 4 * FMK_Q4_1_BYTES;
        // d0 d1 d2 d3 m0 m1 m2 m3; the minimum terms build up in the high half.
        __m256 dm = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)block));
        __m512i q = _mm512_loadu_si512((const void *)(block + 16));
        __m512i q_low = _mm512_and_si512(q, low_nibbles);
        __m512i q_high = _mm512_and_si512(_mm512_srli_epi16(q, 4), low_nibbles);
        for (int t = 0; t < nt; t++) {
            const int8_t *x = xq + t * n + b * FMK_BLOCK;
            float d = xd[t * blocks + b], s = xs[t * blocks + b];
            mins[t] = _mm256_fmadd_ps(dm, _mm256_set1_ps(s), mins[t]);
            __m512 scales = _mm512_permutexvar_ps(spread, _mm512_castps256_ps512(_mm256_mul_ps(dm, _mm256_set1_ps(d))));
            __m512i x_low = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)x));
            __m512i x_high = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(x + 16)));
            __m512i p_low = _mm512_dpbusd_epi32(_mm512_setzero_si512(), q_low, x_low);
            __m512i p_high = _mm512_dpbusd_epi32(_mm512_setzero_si512(), q_high, x_high);
            low[t] = _mm512_fmadd_ps(scales, _mm512_cvtepi32_ps(p_low), low[t]);
            high[t] = _mm512_fmadd_ps(scales, _mm512_cvtepi32_ps(p_high), high[t]);
        }
    }
    const __m512i firsts = _mm512_setr_epi32(0, 4, 8, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    for (int t = 0; t < nt; t++) {
        // `hsum_vnni` per row: (a0+a4, a1+a5, a2+a6, a3+a7), then halves, then the pair.
        __m512 s = _mm512_add_ps(low[t], high[t]);
        s = _mm512_add_ps(s, _mm512_shuffle_ps(s, s, _MM_SHUFFLE(3, 2, 3, 2)));
        s = _mm512_add_ps(s, _mm512_shuffle_ps(s, s, _MM_SHUFFLE(1, 1, 1, 1)));
        __m128 sums = _mm512_castps512_ps128(_mm512_permutexvar_ps(firsts, s));
        _mm_storeu_ps(out + t * out_stride, _mm_add_ps(sums, _mm256_extractf128_ps(mins[t], 1)));
    }
}

/// Q4_1 rows `row0..<row1` against `ntok` tokens as `matmul_q4_1_vnni` (and, token by token,
/// `matvec_q4_1_vnni`) computes them: whole groups of four rows from `packed`, four tokens at a time;
/// any rows before the first or after the last whole group from `w`.
FMK_VNNI static void matmul_q4_1_packed(const uint8_t *w, const uint8_t *packed, int n, int row0, int row1,
                                        const int8_t *xq, const float *xd, const float *xs, int ntok, float *out,
                                        size_t out_stride) {
    int nb = n / FMK_BLOCK;
    size_t row_bytes = (size_t)nb * FMK_Q4_1_BYTES;
    int first = (row0 + 3) / 4 * 4, last = row1 / 4 * 4;
    if (first >= last) first = last = row1;
    matmul_q4_1_vnni(w, n, row0, first, xq, xd, xs, ntok, out, out_stride);
    for (int r = first; r < last; r += 4) {
        const uint8_t *group = packed + (size_t)r * row_bytes;
        for (int t = 0; t < ntok; t += 4) {
            const int8_t *x = xq + (size_t)t * n;
            const float *d = xd + (size_t)t * nb, *s = xs + (size_t)t * nb;
            float *o = out + t * out_stride + r;
            // Constant token counts, so each case keeps its accumulators in registers.
            switch (ntok - t) {
            case 1: packed_group(group, nb, 1, x, d, s, (size_t)n, o, out_stride); break;
            case 2: packed_group(group, nb, 2, x, d, s, (size_t)n, o, out_stride); break;
            case 3: packed_group(group, nb, 3, x, d, s, (size_t)n, o, out_stride); break;
            default: packed_group(group, nb, 4, x, d, s, (size_t)n, o, out_stride); break;
            }
        }
    }
    matmul_q4_1_vnni(w, n, last, row1, xq, xd, xs, ntok, out, out_stride);
}

/// Prefetches `bytes` from `p` into the first-level cache, a cache line at a time.
FMK_VNNI static inline void fmk_prefetch(const uint8_t *p, size_t bytes) {
    for (size_t at = 0; at < bytes; at += 64) _mm_prefetch((const char *)(p + at), _MM_HINT_T0);
}

/// Lane indices that spread floats `i` and `j` of a vector over the low and the high half.
FMK_VNNI static inline __m512i fmk_halves(int i, int j) {
    return _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_set1_epi32(i)), _mm256_set1_epi32(j), 1);
}

/// The two rows' sums of a pair accumulator, each as `hsum_vnni` adds its eight lanes.
FMK_VNNI static inline void fmk_store_pair(__m512 acc, float *out) {
    out[0] = hsum_vnni(_mm512_castps512_ps256(acc));
    out[1] = hsum_vnni(_mm512_extractf32x8_ps(acc, 1));
}

/// The signed bytes of one Q8_0 block of rows a and b: a's in the low half.
FMK_VNNI static inline __m512i fmk_bytes_pair(const uint8_t *a, const uint8_t *b) {
    return _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)a)),
                              _mm256_loadu_si256((const __m256i *)b), 1);
}

/// The sign masks and magnitudes of a pair of Q8_0 rows' block, which every token's product reuses.
typedef struct {
    __mmask64 negative;
    __m512i magnitude;
} fmk_q8_0_pair;

/// Splits a pair of rows' signed weights into sign mask and magnitude.
FMK_VNNI static inline fmk_q8_0_pair fmk_split_pair(__m512i w) {
    fmk_q8_0_pair pair = {_mm512_movepi8_mask(w), _mm512_abs_epi8(w)};
    return pair;
}

/// The block products of a pair of Q8_0 rows: |w| times x with w's sign, as `dot_i8_vnni` forms them.
FMK_VNNI static inline __m512i fmk_dot_pair_q8_0(fmk_q8_0_pair w, __m512i x) {
    __m512i signed_x = _mm512_mask_sub_epi8(x, w.negative, _mm512_setzero_si512(), x);
    return _mm512_dpbusd_epi32(_mm512_setzero_si512(), w.magnitude, signed_x);
}

/// Q8_0 rows `r..<r+4` (the first at `p0`) against `nt` (1–4) tokens: token t's activations at x[t],
/// d[t], its four outputs at out[t] + r. Each weight block is loaded and split once for every token.
FMK_VNNI static inline __attribute__((always_inline)) void q8_0_group(const uint8_t *p0, size_t row_bytes, int nb,
                                                                     int nt, const int8_t *const *x,
                                                                     const float *const *d, float *const *out,
                                                                     int r) {
    const __m512i first = fmk_halves(0, 1), second = fmk_halves(2, 3);
    const uint8_t *p1 = p0 + row_bytes, *p2 = p1 + row_bytes, *p3 = p2 + row_bytes;
    const uint8_t *ahead = p0 + FMK_PREFETCH_GROUPS * 4 * row_bytes;
    __m512 acc01[4], acc23[4];
    for (int t = 0; t < nt; t++) acc01[t] = acc23[t] = _mm512_setzero_ps();
    for (int b = 0; b < nb; b++) {
        size_t o = (size_t)b * FMK_Q8_0_BYTES;
        fmk_prefetch(ahead + 4 * o, 4 * FMK_Q8_0_BYTES);
        __m128i halves = _mm_cvtsi32_si128(fmk_read_u16(p0 + o));
        halves = _mm_insert_epi16(halves, fmk_read_u16(p1 + o), 1);
        halves = _mm_insert_epi16(halves, fmk_read_u16(p2 + o), 2);
        halves = _mm_insert_epi16(halves, fmk_read_u16(p3 + o), 3);
        __m128 weight_scales = _mm_cvtph_ps(halves);
        fmk_q8_0_pair w01 = fmk_split_pair(fmk_bytes_pair(p0 + o + 2, p1 + o + 2));
        fmk_q8_0_pair w23 = fmk_split_pair(fmk_bytes_pair(p2 + o + 2, p3 + o + 2));
        for (int t = 0; t < nt; t++) {
            __m512 scales = _mm512_castps128_ps512(_mm_mul_ps(weight_scales, _mm_set1_ps(d[t][b])));
            __m512i xv = _mm512_broadcast_i64x4(_mm256_loadu_si256((const __m256i *)(x[t] + b * FMK_BLOCK)));
            __m512i q01 = fmk_dot_pair_q8_0(w01, xv), q23 = fmk_dot_pair_q8_0(w23, xv);
            acc01[t] = _mm512_fmadd_ps(_mm512_permutexvar_ps(first, scales), _mm512_cvtepi32_ps(q01), acc01[t]);
            acc23[t] = _mm512_fmadd_ps(_mm512_permutexvar_ps(second, scales), _mm512_cvtepi32_ps(q23), acc23[t]);
        }
    }
    for (int t = 0; t < nt; t++) {
        fmk_store_pair(acc01[t], out[t] + r);
        fmk_store_pair(acc23[t], out[t] + r + 2);
    }
}

/// `q8_0_group` for a token count known only at run time: each count gets its own copy, so the
/// accumulators stay in registers.
FMK_VNNI static void q8_0_group_of(const uint8_t *p0, size_t row_bytes, int nb, int nt, const int8_t *const *x,
                                   const float *const *d, float *const *out, int r) {
    switch (nt) {
    case 1: q8_0_group(p0, row_bytes, nb, 1, x, d, out, r); break;
    case 2: q8_0_group(p0, row_bytes, nb, 2, x, d, out, r); break;
    case 3: q8_0_group(p0, row_bytes, nb, 3, x, d, out, r); break;
    default: q8_0_group(p0, row_bytes, nb, 4, x, d, out, r); break;
    }
}

/// `fmk_logits_q8_0` at this level: per group of four rows, the tokens whose masks allow all four share
/// each weight block, four at a time; a token that forbids any of them takes the one-row kernel for
/// the group, which skips what it forbids.
FMK_VNNI static void logits_q8_0_rows4(const uint8_t *w, int n, int row0, int row1, int ntok,
                                       const int8_t *const *xq, const float *const *xd,
                                       const uint32_t *const *masks, float *const *outs) {
    int nb = n / FMK_BLOCK;
    size_t row_bytes = (size_t)nb * FMK_Q8_0_BYTES;
    int r = row0;
    for (; r + 4 <= row1; r += 4) {
        const uint8_t *p0 = w + r * row_bytes;
        const int8_t *x[4];
        const float *d[4];
        float *out[4];
        int nt = 0;
        for (int t = 0; t < ntok; t++) {
            const uint32_t *mask = masks[t];
            if (mask && ((mask[r >> 5] >> (r & 31)) & 15u) != 15u) {
                matvec_q8_0_vnni(w, n, r, r + 4, xq[t], xd[t], mask, outs[t]);
                continue;
            }
            x[nt] = xq[t];
            d[nt] = xd[t];
            out[nt] = outs[t];
            if (++nt == 4) {
                q8_0_group_of(p0, row_bytes, nb, nt, x, d, out, r);
                nt = 0;
            }
        }
        if (nt > 0) q8_0_group_of(p0, row_bytes, nb, nt, x, d, out, r);
    }
    for (int t = 0; t < ntok; t++) matvec_q8_0_vnni(w, n, r, row1, xq[t], xd[t], masks[t], outs[t]);
}
