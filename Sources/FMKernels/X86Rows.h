// AVX-512 VNNI matrix-vector kernels that take four rows at a time, two to a 512-bit register (one row
// per 256-bit half). Each row keeps its own eight lane accumulators, its block order and its ggml
// roundings, so every output has the bits of the one-row kernel (`dot_q4_1_vnni`, `dot_q8_0_vnni`);
// four rows give the core two independent accumulator chains and half the instructions per block.
// Included once by X86.c, after the VNNI instantiation of X86Template.h.

/// Rows of weights ahead of the current group that the kernels prefetch, in groups of four: with four
/// rows read side by side the hardware prefetcher falls behind, and decode waits on memory.
#define FMK_PREFETCH_GROUPS 2

/// The 32-bit word at `p` (any alignment).
static inline int32_t fmk_read_i32(const uint8_t *p) {
    int32_t v;
    memcpy(&v, p, 4);
    return v;
}

/// Prefetches `bytes` from `p` into the first-level cache, a cache line at a time.
FMK_VNNI static inline void fmk_prefetch(const uint8_t *p, size_t bytes) {
    for (size_t at = 0; at < bytes; at += 64) _mm_prefetch((const char *)(p + at), _MM_HINT_T0);
}

/// The Q4_1 nibbles of one block of rows a and b as `nibbles_vnni` lays out each: a's in the low half.
FMK_VNNI static inline __m512i fmk_nibbles_pair(const uint8_t *a, const uint8_t *b) {
    __m256i packed = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)a)),
                                             _mm_loadu_si128((const __m128i *)b), 1);
    __m512i v = _mm512_castsi256_si512(packed);
    v = _mm512_shuffle_i64x2(v, v, _MM_SHUFFLE(1, 1, 0, 0));
    const long long four = 0x0004000400040004LL;
    v = _mm512_srlv_epi16(v, _mm512_setr_epi64(0, 0, four, four, 0, 0, four, four));
    return _mm512_and_si512(v, _mm512_set1_epi8(0x0F));
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

FMK_VNNI static void matvec_q4_1_rows4(const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                                       const float *xd, const float *xs, float *out) {
    int nb = n / FMK_BLOCK;
    size_t row_bytes = (size_t)nb * FMK_Q4_1_BYTES;
    const __m512i first = fmk_halves(0, 2), second = fmk_halves(4, 6);
    int r = row0;
    for (; r + 4 <= row1; r += 4) {
        const uint8_t *p0 = w + r * row_bytes, *p1 = p0 + row_bytes, *p2 = p1 + row_bytes, *p3 = p2 + row_bytes;
        const uint8_t *ahead = p0 + FMK_PREFETCH_GROUPS * 4 * row_bytes;
        __m512 acc01 = _mm512_setzero_ps(), acc23 = _mm512_setzero_ps();
        __m256 mins = _mm256_setzero_ps();
        for (int b = 0; b < nb; b++) {
            size_t o = (size_t)b * FMK_Q4_1_BYTES;
            fmk_prefetch(ahead + 4 * o, 4 * FMK_Q4_1_BYTES);
            // Scale and minimum of each row's block: d0 m0 d1 m1 d2 m2 d3 m3.
            __m128i halves = _mm_cvtsi32_si128(fmk_read_i32(p0 + o));
            halves = _mm_insert_epi32(halves, fmk_read_i32(p1 + o), 1);
            halves = _mm_insert_epi32(halves, fmk_read_i32(p2 + o), 2);
            halves = _mm_insert_epi32(halves, fmk_read_i32(p3 + o), 3);
            __m256 dm = _mm256_cvtph_ps(halves);
            mins = _mm256_fmadd_ps(dm, _mm256_set1_ps(xs[b]), mins);
            __m512 scales = _mm512_castps256_ps512(_mm256_mul_ps(dm, _mm256_set1_ps(xd[b])));
            __m512i x = _mm512_broadcast_i64x4(_mm256_loadu_si256((const __m256i *)(xq + b * FMK_BLOCK)));
            __m512i q01 = _mm512_dpbusd_epi32(_mm512_setzero_si512(), fmk_nibbles_pair(p0 + o + 4, p1 + o + 4), x);
            __m512i q23 = _mm512_dpbusd_epi32(_mm512_setzero_si512(), fmk_nibbles_pair(p2 + o + 4, p3 + o + 4), x);
            acc01 = _mm512_fmadd_ps(_mm512_permutexvar_ps(first, scales), _mm512_cvtepi32_ps(q01), acc01);
            acc23 = _mm512_fmadd_ps(_mm512_permutexvar_ps(second, scales), _mm512_cvtepi32_ps(q23), acc23);
        }
        // The odd lanes of `mins` are the rows' minimum terms (the even ones, scale × sum, go unused).
        float m[8];
        _mm256_storeu_ps(m, mins);
        fmk_store_pair(acc01, out + r);
        fmk_store_pair(acc23, out + r + 2);
        for (int i = 0; i < 4; i++) out[r + i] += m[2 * i + 1];
    }
    for (; r < row1; r++) out[r] = dot_q4_1_vnni(w + r * row_bytes, nb, xq, xd, xs);
}

/// The signed bytes of one Q8_0 block of rows a and b: a's in the low half.
FMK_VNNI static inline __m512i fmk_bytes_pair(const uint8_t *a, const uint8_t *b) {
    return _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)a)),
                              _mm256_loadu_si256((const __m256i *)b), 1);
}

/// The block products of a pair of Q8_0 rows: |w| times x with w's sign, as `dot_i8_vnni` forms them.
FMK_VNNI static inline __m512i fmk_dot_pair_q8_0(__m512i w, __m512i x) {
    __m512i signed_x = _mm512_mask_sub_epi8(x, _mm512_movepi8_mask(w), _mm512_setzero_si512(), x);
    return _mm512_dpbusd_epi32(_mm512_setzero_si512(), _mm512_abs_epi8(w), signed_x);
}

FMK_VNNI static void matvec_q8_0_rows4(const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                                       const float *xd, const uint32_t *mask, float *out) {
    int nb = n / FMK_BLOCK;
    size_t row_bytes = (size_t)nb * FMK_Q8_0_BYTES;
    const __m512i first = fmk_halves(0, 1), second = fmk_halves(2, 3);
    int r = row0;
    for (; r + 4 <= row1; r += 4) {
        if (mask && ((mask[r >> 5] >> (r & 31)) & 15u) != 15u) {
            // A group with a forbidden row takes the one-row kernel, which skips it.
            matvec_q8_0_vnni(w, n, r, r + 4, xq, xd, mask, out);
            continue;
        }
        const uint8_t *p0 = w + r * row_bytes, *p1 = p0 + row_bytes, *p2 = p1 + row_bytes, *p3 = p2 + row_bytes;
        const uint8_t *ahead = p0 + FMK_PREFETCH_GROUPS * 4 * row_bytes;
        __m512 acc01 = _mm512_setzero_ps(), acc23 = _mm512_setzero_ps();
        for (int b = 0; b < nb; b++) {
            size_t o = (size_t)b * FMK_Q8_0_BYTES;
            fmk_prefetch(ahead + 4 * o, 4 * FMK_Q8_0_BYTES);
            __m128i halves = _mm_cvtsi32_si128(fmk_read_u16(p0 + o));
            halves = _mm_insert_epi16(halves, fmk_read_u16(p1 + o), 1);
            halves = _mm_insert_epi16(halves, fmk_read_u16(p2 + o), 2);
            halves = _mm_insert_epi16(halves, fmk_read_u16(p3 + o), 3);
            __m512 scales = _mm512_castps128_ps512(_mm_mul_ps(_mm_cvtph_ps(halves), _mm_set1_ps(xd[b])));
            __m512i x = _mm512_broadcast_i64x4(_mm256_loadu_si256((const __m256i *)(xq + b * FMK_BLOCK)));
            __m512i q01 = fmk_dot_pair_q8_0(fmk_bytes_pair(p0 + o + 2, p1 + o + 2), x);
            __m512i q23 = fmk_dot_pair_q8_0(fmk_bytes_pair(p2 + o + 2, p3 + o + 2), x);
            acc01 = _mm512_fmadd_ps(_mm512_permutexvar_ps(first, scales), _mm512_cvtepi32_ps(q01), acc01);
            acc23 = _mm512_fmadd_ps(_mm512_permutexvar_ps(second, scales), _mm512_cvtepi32_ps(q23), acc23);
        }
        fmk_store_pair(acc01, out + r);
        fmk_store_pair(acc23, out + r + 2);
    }
    matvec_q8_0_vnni(w, n, r, row1, xq, xd, mask, out);
}
