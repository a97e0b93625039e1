// Prefill tile kernel bodies, instantiated by X86.c for AVX2 and AVX-512 VNNI after X86Template.h
// (whose row kernels handle the rows and matrices a tile does not cover). Define FMK_SUFFIX, FMK_ATTR,
// FMK_TILE_ROWS (8: 256-bit vectors, or 16: 512-bit), FMK_TILE_TOKENS (tokens per register tile) and
// the vector operations below (FMK_VF... on float vectors of FMK_TILE_ROWS lanes, FMK_VI... on
// integer ones, FMK_TILE_DOT the four-byte dot product) before including.
//
// Layout: a tile is FMK_TILE_ROWS weight rows × FMK_TILE_TOKENS tokens, and a vector lane is a row.
// For each 32-element block the row kernel keeps one 8-lane accumulator per (row, token) whose lane i
// sums elements 4i..4i+3; here accumulator i of a token holds that same lane i for every row of the
// tile, so every float is computed by the same operations in the same order: the scale d_w·d_x rounded
// to float, one fused multiply-add per block and lane in block order, the lanes added
// ((0+4)+(2+6))+((1+5)+(3+7)) as the row kernel's horizontal sum does, then the fused chain of
// minimums m_w·s_x. Outputs are bit-identical to the row kernels'. Each call regroups its rows' weights
// a tile of rows at a time into a small buffer (nibbles unpacked to bytes, transposed so one vector
// load serves every row of the tile), then runs every token tile over it, so a weight block is
// unpacked once per call instead of once per four tokens and an activation is loaded as one broadcast
// 4-byte group per tile of rows.
#define FMK_CAT2(a, b) a##_##b
#define FMK_CAT(a, b) FMK_CAT2(a, b)
#define FMK_NAME(base) FMK_CAT(base, FMK_SUFFIX)

/// Bytes of one regrouped vector: four bytes per row of the tile.
#define FMK_TILE_VECTOR (4 * FMK_TILE_ROWS)

/// Stores the transpose of four rows' four dwords: vector k (FMK_TILE_VECTOR bytes apart) gets dword k
/// of each row.
FMK_ATTR static inline void FMK_NAME(transpose_store)(const __m128i *v, uint8_t *dst) {
    __m128i t0 = _mm_unpacklo_epi32(v[0], v[1]), t1 = _mm_unpackhi_epi32(v[0], v[1]);
    __m128i t2 = _mm_unpacklo_epi32(v[2], v[3]), t3 = _mm_unpackhi_epi32(v[2], v[3]);
    _mm_storeu_si128((__m128i *)dst, _mm_unpacklo_epi64(t0, t2));
    _mm_storeu_si128((__m128i *)(dst + FMK_TILE_VECTOR), _mm_unpackhi_epi64(t0, t2));
    _mm_storeu_si128((__m128i *)(dst + 2 * FMK_TILE_VECTOR), _mm_unpacklo_epi64(t1, t3));
    _mm_storeu_si128((__m128i *)(dst + 3 * FMK_TILE_VECTOR), _mm_unpackhi_epi64(t1, t3));
}

/// Regroups Q4_1 rows r0..r0+FMK_TILE_ROWS-1: per block b, eight vectors at qs + 8·FMK_TILE_VECTOR·b
/// (vector i: elements 4i..4i+3 of each row as bytes), the rows' scales at d + FMK_TILE_ROWS·b and
/// minimums at m + FMK_TILE_ROWS·b.
FMK_ATTR static void FMK_NAME(regroup_q4_1)(const uint8_t *w, size_t row_bytes, int r0, int nb, uint8_t *qs,
                                           float *d, float *m) {
    const __m128i low = _mm_set1_epi8(0x0F);
    for (int b = 0; b < nb; b++) {
        __m128i lo[FMK_TILE_ROWS], hi[FMK_TILE_ROWS];
        for (int r = 0; r < FMK_TILE_ROWS; r++) {
            const uint8_t *block = w + (size_t)(r0 + r) * row_bytes + (size_t)b * FMK_Q4_1_BYTES;
            __m128i packed = _mm_loadu_si128((const __m128i *)(block + 4));
            lo[r] = _mm_and_si128(packed, low);
            hi[r] = _mm_and_si128(_mm_srli_epi16(packed, 4), low);
            d[b * FMK_TILE_ROWS + r] = _cvtsh_ss(fmk_read_u16(block));
            m[b * FMK_TILE_ROWS + r] = _cvtsh_ss(fmk_read_u16(block + 2));
        }
        uint8_t *dst = qs + (size_t)b * 8 * FMK_TILE_VECTOR;
        for (int g = 0; g < FMK_TILE_ROWS / 4; g++) {
            FMK_NAME(transpose_store)(lo + 4 * g, dst + 16 * g);
            FMK_NAME(transpose_store)(hi + 4 * g, dst + 4 * FMK_TILE_VECTOR + 16 * g);
        }
    }
}

/// A tile of regrouped rows × `ntok` tokens (at most FMK_TILE_TOKENS, a constant where inlined):
/// out[t*out_stride + r] for r < FMK_TILE_ROWS.
FMK_ATTR static inline __attribute__((always_inline)) void FMK_NAME(tile_q4_1)(
    const uint8_t *qs, const float *d, const float *m, int nb, size_t n, const int8_t *xq, const float *xd,
    const float *xs, int ntok, float *out, size_t out_stride) {
    // Fully unrolled, so the accumulators live in registers (24 of AVX-512's 32 for three tokens).
    FMK_VF acc[FMK_TILE_TOKENS][8];
#pragma unroll
    for (int t = 0; t < ntok; t++)
#pragma unroll
        for (int i = 0; i < 8; i++) acc[t][i] = FMK_VF_ZERO();
    for (int b = 0; b < nb; b++) {
        FMK_VF dw = FMK_VF_LOAD(d + b * FMK_TILE_ROWS), scale[FMK_TILE_TOKENS];
#pragma unroll
        for (int t = 0; t < ntok; t++) scale[t] = FMK_VF_MUL(dw, FMK_VF_SET1(xd[(size_t)t * nb + b]));
#pragma unroll
        for (int i = 0; i < 8; i++) {
            FMK_VI wq = FMK_VI_LOAD(qs + ((size_t)b * 8 + i) * FMK_TILE_VECTOR);
#pragma unroll
            for (int t = 0; t < ntok; t++) {
                int32_t group;
                memcpy(&group, xq + t * n + (size_t)b * FMK_BLOCK + 4 * i, 4);
                FMK_VF p = FMK_VF_CVT(FMK_TILE_DOT(wq, FMK_VI_SET1(group)));
                acc[t][i] = FMK_VF_FMA(scale[t], p, acc[t][i]);
            }
        }
    }
#pragma unroll
    for (int t = 0; t < ntok; t++) {
        FMK_VF mins = FMK_VF_ZERO();
        for (int b = 0; b < nb; b++) {
            mins = FMK_VF_FMA(FMK_VF_LOAD(m + b * FMK_TILE_ROWS), FMK_VF_SET1(xs[(size_t)t * nb + b]), mins);
        }
        FMK_VF sum = FMK_VF_ADD(FMK_VF_ADD(FMK_VF_ADD(acc[t][0], acc[t][4]), FMK_VF_ADD(acc[t][2], acc[t][6])),
                                FMK_VF_ADD(FMK_VF_ADD(acc[t][1], acc[t][5]), FMK_VF_ADD(acc[t][3], acc[t][7])));
        FMK_VF_STORE(out + t * out_stride, FMK_VF_ADD(sum, mins));
    }
}

FMK_ATTR static void FMK_NAME(matmul_q4_1_tiled)(const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                                                const float *xd, const float *xs, int ntok, float *out,
                                                size_t out_stride) {
    // A 32 KB regroup buffer: widths up to 4096 with eight-row tiles, 2048 with sixteen.
    enum { MAX_BLOCKS = 1024 / FMK_TILE_ROWS, TOKENS = FMK_TILE_TOKENS, ROWS = FMK_TILE_ROWS };
    int nb = n / FMK_BLOCK;
    if (nb > MAX_BLOCKS) {
        FMK_NAME(matmul_q4_1)(w, n, row0, row1, xq, xd, xs, ntok, out, out_stride);
        return;
    }
    size_t row_bytes = (size_t)nb * FMK_Q4_1_BYTES, stride = (size_t)n;
    _Alignas(64) uint8_t qs[MAX_BLOCKS * 8 * FMK_TILE_VECTOR];
    float d[MAX_BLOCKS * ROWS], m[MAX_BLOCKS * ROWS];
    int r = row0;
    for (; r + ROWS <= row1; r += ROWS) {
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
    // Rows past the last whole tile: the row kernel computes the same bits.
    if (r < row1) FMK_NAME(matmul_q4_1)(w, n, r, row1, xq, xd, xs, ntok, out, out_stride);
}

#undef FMK_TILE_VECTOR
#undef FMK_NAME
#undef FMK_CAT
#undef FMK_CAT2
