// AVX-512 VNNI decode kernels: Q4_1 rows packed in groups of sixteen (`fmk_pack_q4_1`) against one to
// three tokens at a time, and Q8_0 rows in ggml's layout four at a time, two to a 512-bit register.
// Each row and token keeps its own eight lane accumulators, its block order and its ggml roundings, so
// every output has the bits of the one-row kernel (`dot_q4_1_vnni`, `dot_q8_0_vnni`); many rows give
// the core independent accumulator chains and far fewer instructions per block, and a batch of tokens
// shares each unpacked block. Included once by X86.c, after the VNNI instantiations of X86Template.h
// and X86TileTemplate.h.

/// Groups of four rows ahead of the current one that the Q8_0 kernel prefetches: with four rows read
/// side by side the hardware prefetcher falls behind, and decode waits on memory.
#define FMK_PREFETCH_GROUPS 2

/// One group of `FMK_Q4_1_PACK_ROWS` packed Q4_1 rows against `nt` (1–3) tokens, `n` elements apart in
/// `xq`, as `tile_q4_1_vnni` computes a tile (lane r is row r, accumulator i sums elements 4i..4i+3 of
/// each block): the tile's layout is the packed one, so a block is four loads, two nibble masks each,
/// shared by every token. Row r of token t goes to `out[t * out_stride + r]`.
FMK_VNNI static inline __attribute__((always_inline)) void packed_group(const uint8_t *group, int nb, int nt,
                                                                       const int8_t *xq, const float *xd,
                                                                       const float *xs, size_t n, float *out,
                                                                       size_t out_stride) {
    enum { VECTOR = 4 * FMK_Q4_1_PACK_ROWS, BLOCK = FMK_Q4_1_PACK_ROWS * FMK_Q4_1_BYTES };
    const __m512i low_nibbles = _mm512_set1_epi8(0x0F);
    size_t blocks = n / FMK_BLOCK;
    // Fully unrolled, so the accumulators live in registers (24 of the 32 for three tokens).
    __m512 acc[3][8];
#pragma unroll
    for (int t = 0; t < nt; t++)
#pragma unroll
        for (int i = 0; i < 8; i++) acc[t][i] = _mm512_setzero_ps();
    for (int b = 0; b < nb; b++) {
        const uint8_t *block = group + (size_t)b * BLOCK;
        __m512 dw = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)block)), scale[3];
#pragma unroll
        for (int t = 0; t < nt; t++) scale[t] = _mm512_mul_ps(dw, _mm512_set1_ps(xd[t * blocks + b]));
#pragma unroll
        for (int v = 0; v < 4; v++) {
            // Dword v of each row's nibbles: elements 4v..4v+3 below, 16+4v..19+4v above.
            __m512i q = _mm512_loadu_si512((const void *)(block + 4 * FMK_Q4_1_PACK_ROWS + v * VECTOR));
            __m512i q_low = _mm512_and_si512(q, low_nibbles);
            __m512i q_high = _mm512_and_si512(_mm512_srli_epi16(q, 4), low_nibbles);
#pragma unroll
            for (int t = 0; t < nt; t++) {
                const int8_t *x = xq + t * n + (size_t)b * FMK_BLOCK + 4 * v;
                int32_t x_low, x_high;
                memcpy(&x_low, x, 4);
                memcpy(&x_high, x + 16, 4);
                __m512i p_low = _mm512_dpbusd_epi32(_mm512_setzero_si512(), q_low, _mm512_set1_epi32(x_low));
                __m512i p_high = _mm512_dpbusd_epi32(_mm512_setzero_si512(), q_high, _mm512_set1_epi32(x_high));
                acc[t][v] = _mm512_fmadd_ps(scale[t], _mm512_cvtepi32_ps(p_low), acc[t][v]);
                acc[t][v + 4] = _mm512_fmadd_ps(scale[t], _mm512_cvtepi32_ps(p_high), acc[t][v + 4]);
            }
        }
    }
#pragma unroll
    for (int t = 0; t < nt; t++) {
        __m512 mins = _mm512_setzero_ps();
        for (int b = 0; b < nb; b++) {
            const uint8_t *block = group + (size_t)b * BLOCK;
            __m512 mw = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(block + 2 * FMK_Q4_1_PACK_ROWS)));
            mins = _mm512_fmadd_ps(mw, _mm512_set1_ps(xs[t * blocks + b]), mins);
        }
        __m512 *a = acc[t];
        __m512 sum = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(a[0], a[4]), _mm512_add_ps(a[2], a[6])),
                                   _mm512_add_ps(_mm512_add_ps(a[1], a[5]), _mm512_add_ps(a[3], a[7])));
        _mm512_storeu_ps(out + t * out_stride, _mm512_add_ps(sum, mins));
    }
}

/// Q4_1 rows `row0..<row1` against `ntok` tokens as `matmul_q4_1_vnni` (and, token by token,
/// `matvec_q4_1_vnni`) computes them: whole packed groups from `packed`, three tokens at a time; any
/// rows before the first or after the last whole group from `w`.
FMK_VNNI static void matmul_q4_1_packed(const uint8_t *w, const uint8_t *packed, int n, int row0, int row1,
                                        const int8_t *xq, const float *xd, const float *xs, int ntok, float *out,
                                        size_t out_stride) {
    enum { ROWS = FMK_Q4_1_PACK_ROWS };
    int nb = n / FMK_BLOCK;
    size_t row_bytes = (size_t)nb * FMK_Q4_1_BYTES;
    int first, last;
    fmk_packed_span(row0, row1, &first, &last);
    matmul_q4_1_vnni(w, n, row0, first, xq, xd, xs, ntok, out, out_stride);
    for (int r = first; r < last; r += ROWS) {
        const uint8_t *group = packed + (size_t)r * row_bytes;
        for (int t = 0; t < ntok; t += 3) {
            const int8_t *x = xq + (size_t)t * n;
            const float *d = xd + (size_t)t * nb, *s = xs + (size_t)t * nb;
            float *o = out + t * out_stride + r;
            // Constant token counts, so each case keeps its accumulators in registers.
            switch (ntok - t) {
            case 1: packed_group(group, nb, 1, x, d, s, (size_t)n, o, out_stride); break;
            case 2: packed_group(group, nb, 2, x, d, s, (size_t)n, o, out_stride); break;
            default: packed_group(group, nb, 3, x, d, s, (size_t)n, o, out_stride); break;
            }
        }
    }
    matmul_q4_1_vnni(w, n, last, row1, xq, xd, xs, ntok, out, out_stride);
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
