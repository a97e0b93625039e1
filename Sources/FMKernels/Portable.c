// Portable scalar kernels: the fallback on CPUs without AVX2 and the reference for the SIMD paths.
#include "Internal.h"
#include <math.h>

static float dot_q4_1_row(const uint8_t *row, int nb, const int8_t *xq, const float *xd, const float *xs) {
    float sum = 0.0f;
    for (int b = 0; b < nb; b++) {
        const uint8_t *block = row + b * FMK_Q4_1_BYTES;
        const uint8_t *qs = block + 4;
        const int8_t *y = xq + b * FMK_BLOCK;
        int dot = 0;
        for (int j = 0; j < 16; j++) {
            dot += (qs[j] & 0x0F) * y[j] + (qs[j] >> 4) * y[j + 16];
        }
        float d = fmk_f16_to_f32(fmk_read_u16(block));
        float m = fmk_f16_to_f32(fmk_read_u16(block + 2));
        sum += d * xd[b] * (float)dot + m * xs[b];
    }
    return sum;
}

static float dot_q8_0_row(const uint8_t *row, int nb, const int8_t *xq, const float *xd) {
    float sum = 0.0f;
    for (int b = 0; b < nb; b++) {
        const uint8_t *block = row + b * FMK_Q8_0_BYTES;
        const int8_t *qs = (const int8_t *)(block + 2);
        const int8_t *y = xq + b * FMK_BLOCK;
        int dot = 0;
        for (int j = 0; j < FMK_BLOCK; j++) dot += qs[j] * y[j];
        sum += fmk_f16_to_f32(fmk_read_u16(block)) * xd[b] * (float)dot;
    }
    return sum;
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
