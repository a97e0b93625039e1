// Portable C kernels: the fallback where no SIMD level runs, computing the bits of the SIMD levels.
// Each block dot product is summed as ggml's x86 vec_dot (and X86Template.h) sums it: the block's
// integer products in eight lanes of four elements (exact in any order), each lane's float
// accumulator advanced by one fused multiply-add per block, scale d_w·d_x rounded to float first;
// Q4_1's minimums m_w·s_x in their own fused chain in block order; the lanes added as
// `fmk_sum_lanes`, then the minimums.
#include "Internal.h"

/// Element j (0..31) of a Q4_1 block's quants: low nibbles hold elements 0..15, high nibbles 16..31.
static inline int q4_1_quant(const uint8_t *qs, int j) { return j < 16 ? qs[j] & 0x0F : qs[j - 16] >> 4; }

static float dot_q4_1_row(const uint8_t *row, int nb, const int8_t *xq, const float *xd, const float *xs) {
    float acc[8] = {0};
    float mins = 0.0f;
    for (int b = 0; b < nb; b++) {
        const uint8_t *block = row + b * FMK_Q4_1_BYTES;
        const int8_t *y = xq + b * FMK_BLOCK;
        float scale = fmk_f16_to_f32(fmk_read_u16(block)) * xd[b];
        for (int lane = 0; lane < 8; lane++) {
            int dot = 0;
            for (int j = 4 * lane; j < 4 * lane + 4; j++) dot += q4_1_quant(block + 4, j) * y[j];
            acc[lane] = fmaf(scale, (float)dot, acc[lane]);
        }
        mins = fmaf(fmk_f16_to_f32(fmk_read_u16(block + 2)), xs[b], mins);
    }
    return fmk_sum_lanes(acc) + mins;
}

static float dot_q8_0_row(const uint8_t *row, int nb, const int8_t *xq, const float *xd) {
    float acc[8] = {0};
    for (int b = 0; b < nb; b++) {
        const uint8_t *block = row + b * FMK_Q8_0_BYTES;
        const int8_t *qs = (const int8_t *)(block + 2);
        const int8_t *y = xq + b * FMK_BLOCK;
        float scale = fmk_f16_to_f32(fmk_read_u16(block)) * xd[b];
        for (int lane = 0; lane < 8; lane++) {
            int dot = 0;
            for (int j = 4 * lane; j < 4 * lane + 4; j++) dot += qs[j] * y[j];
            acc[lane] = fmaf(scale, (float)dot, acc[lane]);
        }
    }
    return fmk_sum_lanes(acc);
}

void fmk_matvec_q4_1_portable(const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                              const float *xd, const float *xs, float *out) {
    int nb = n / FMK_BLOCK;
    size_t row_bytes = (size_t)nb * FMK_Q4_1_BYTES;
    for (int r = row0; r < row1; r++) out[r] = dot_q4_1_row(w + r * row_bytes, nb, xq, xd, xs);
}

void fmk_matmul_q4_1_portable(const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                              const float *xd, const float *xs, int ntok, float *out, size_t out_stride) {
    int nb = n / FMK_BLOCK;
    size_t row_bytes = (size_t)nb * FMK_Q4_1_BYTES;
    for (int r = row0; r < row1; r++) {
        for (int t = 0; t < ntok; t++) {
            out[t * out_stride + r] = dot_q4_1_row(w + r * row_bytes, nb, xq + (size_t)t * n,
                                                   xd + (size_t)t * nb, xs + (size_t)t * nb);
        }
    }
}

void fmk_matvec_q8_0_portable(const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                              const float *xd, const uint32_t *mask, float *out) {
    int nb = n / FMK_BLOCK;
    size_t row_bytes = (size_t)nb * FMK_Q8_0_BYTES;
    for (int r = row0; r < row1; r++) {
        if (mask && !((mask[r >> 5] >> (r & 31)) & 1u)) {
            out[r] = -INFINITY;
            continue;
        }
        out[r] = dot_q8_0_row(w + r * row_bytes, nb, xq, xd);
    }
}

void fmk_matmul_q8_0_portable(const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                              const float *xd, int ntok, float *out, size_t out_stride) {
    int nb = n / FMK_BLOCK;
    size_t row_bytes = (size_t)nb * FMK_Q8_0_BYTES;
    for (int r = row0; r < row1; r++) {
        for (int t = 0; t < ntok; t++) {
            out[t * out_stride + r] = dot_q8_0_row(w + r * row_bytes, nb, xq + (size_t)t * n, xd + (size_t)t * nb);
        }
    }
}
