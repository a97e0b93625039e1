// NEON kernel bodies, instantiated twice by Neon.c. Define FMK_SUFFIX, FMK_ATTR and FMK_DOT (16 signed
// bytes · 16 → four int32 lanes of four-element sums) before including. A block's eight lanes are two
// vectors: `low` holds lanes 0..3 (elements 0..15), `high` lanes 4..7 (elements 16..31), so each lane
// sums the elements the x86 levels' lane does, and `sum_lanes` adds them in `fmk_sum_lanes`' order.
#define FMK_CAT2(a, b) a##_##b
#define FMK_CAT(a, b) FMK_CAT2(a, b)
#define FMK_NAME(base) FMK_CAT(base, FMK_SUFFIX)

/// ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) for lanes a0..a3 in `low` and a4..a7 in `high`.
FMK_ATTR static inline float FMK_NAME(sum_lanes)(float32x4_t low, float32x4_t high) {
    float32x4_t halves = vaddq_f32(low, high);
    float32x2_t quarters = vadd_f32(vget_low_f32(halves), vget_high_f32(halves));
    return vget_lane_f32(quarters, 0) + vget_lane_f32(quarters, 1);
}

/// The first two halves at `p` (a Q4_1 block's scale and minimum, or a Q8_0 scale), widened.
FMK_ATTR static inline float32x4_t FMK_NAME(halves)(const uint8_t *p) {
    uint32_t bits;
    memcpy(&bits, p, 4);
    return vcvt_f32_f16(vreinterpret_f16_u32(vdup_n_u32(bits)));
}

FMK_ATTR static float FMK_NAME(dot_q4_1)(const uint8_t *row, int nb, const int8_t *xq, const float *xd,
                                         const float *xs) {
    float32x4_t low = vdupq_n_f32(0.0f), high = vdupq_n_f32(0.0f);
    float mins = 0.0f;
    const uint8x16_t nibble = vdupq_n_u8(0x0F);
    for (int b = 0; b < nb; b++) {
        const uint8_t *block = row + b * FMK_Q4_1_BYTES;
        float32x4_t dm = FMK_NAME(halves)(block);
        uint8x16_t packed = vld1q_u8(block + 4);
        const int8_t *y = xq + b * FMK_BLOCK;
        int32x4_t p0 = FMK_DOT(vreinterpretq_s8_u8(vandq_u8(packed, nibble)), vld1q_s8(y));
        int32x4_t p1 = FMK_DOT(vreinterpretq_s8_u8(vshrq_n_u8(packed, 4)), vld1q_s8(y + 16));
        float scale = vgetq_lane_f32(dm, 0) * xd[b];
        low = vfmaq_n_f32(low, vcvtq_f32_s32(p0), scale);
        high = vfmaq_n_f32(high, vcvtq_f32_s32(p1), scale);
        mins = fmaf(vgetq_lane_f32(dm, 1), xs[b], mins);
    }
    return FMK_NAME(sum_lanes)(low, high) + mins;
}

FMK_ATTR static void FMK_NAME(matvec_q4_1)(const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                                          const float *xd, const float *xs, float *out) {
    int nb = n / FMK_BLOCK;
    size_t row_bytes = (size_t)nb * FMK_Q4_1_BYTES;
    for (int r = row0; r < row1; r++) out[r] = FMK_NAME(dot_q4_1)(w + r * row_bytes, nb, xq, xd, xs);
}

/// One Q4_1 row against four tokens (each weight block unpacked once), every token's floats exactly
/// those of `dot_q4_1`.
FMK_ATTR static void FMK_NAME(row_q4_1_x4)(const uint8_t *row, int nb, const int8_t *xq, const float *xd,
                                          const float *xs, size_t n, float *out, size_t out_stride) {
    float32x4_t low[4], high[4];
    float mins[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int t = 0; t < 4; t++) low[t] = high[t] = vdupq_n_f32(0.0f);
    const uint8x16_t nibble = vdupq_n_u8(0x0F);
    for (int b = 0; b < nb; b++) {
        const uint8_t *block = row + b * FMK_Q4_1_BYTES;
        float32x4_t dm = FMK_NAME(halves)(block);
        uint8x16_t packed = vld1q_u8(block + 4);
        int8x16_t q0 = vreinterpretq_s8_u8(vandq_u8(packed, nibble)), q1 = vreinterpretq_s8_u8(vshrq_n_u8(packed, 4));
        for (int t = 0; t < 4; t++) {
            const int8_t *y = xq + t * n + b * FMK_BLOCK;
            float scale = vgetq_lane_f32(dm, 0) * xd[t * (n / FMK_BLOCK) + b];
            low[t] = vfmaq_n_f32(low[t], vcvtq_f32_s32(FMK_DOT(q0, vld1q_s8(y))), scale);
            high[t] = vfmaq_n_f32(high[t], vcvtq_f32_s32(FMK_DOT(q1, vld1q_s8(y + 16))), scale);
            mins[t] = fmaf(vgetq_lane_f32(dm, 1), xs[t * (n / FMK_BLOCK) + b], mins[t]);
        }
    }
    for (int t = 0; t < 4; t++) out[t * out_stride] = FMK_NAME(sum_lanes)(low[t], high[t]) + mins[t];
}

FMK_ATTR static void FMK_NAME(matmul_q4_1)(const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                                          const float *xd, const float *xs, int ntok, float *out,
                                          size_t out_stride) {
    int nb = n / FMK_BLOCK;
    size_t row_bytes = (size_t)nb * FMK_Q4_1_BYTES;
    for (int r = row0; r < row1; r++) {
        const uint8_t *row = w + r * row_bytes;
        int t = 0;
        for (; t + 4 <= ntok; t += 4) {
            FMK_NAME(row_q4_1_x4)(row, nb, xq + (size_t)t * n, xd + (size_t)t * nb, xs + (size_t)t * nb, (size_t)n,
                                  out + t * out_stride + r, out_stride);
        }
        for (; t < ntok; t++) {
            out[t * out_stride + r] = FMK_NAME(dot_q4_1)(row, nb, xq + (size_t)t * n, xd + (size_t)t * nb,
                                                          xs + (size_t)t * nb);
        }
    }
}

FMK_ATTR static float FMK_NAME(dot_q8_0)(const uint8_t *row, int nb, const int8_t *xq, const float *xd) {
    float32x4_t low = vdupq_n_f32(0.0f), high = vdupq_n_f32(0.0f);
    for (int b = 0; b < nb; b++) {
        const uint8_t *block = row + b * FMK_Q8_0_BYTES;
        const int8_t *qs = (const int8_t *)(block + 2), *y = xq + b * FMK_BLOCK;
        float scale = vgetq_lane_f32(FMK_NAME(halves)(block), 0) * xd[b];
        low = vfmaq_n_f32(low, vcvtq_f32_s32(FMK_DOT(vld1q_s8(qs), vld1q_s8(y))), scale);
        high = vfmaq_n_f32(high, vcvtq_f32_s32(FMK_DOT(vld1q_s8(qs + 16), vld1q_s8(y + 16))), scale);
    }
    return FMK_NAME(sum_lanes)(low, high);
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
        for (int t = 0; t < ntok; t++) {
            out[t * out_stride + r] = FMK_NAME(dot_q8_0)(w + r * row_bytes, nb, xq + (size_t)t * n, xd + (size_t)t * nb);
        }
    }
}

#undef FMK_NAME
#undef FMK_CAT
#undef FMK_CAT2
