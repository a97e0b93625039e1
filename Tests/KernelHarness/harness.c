// The kernel bit-identity harness run by .ci/kernels-aarch64: every FMKernels kernel on fixed
// pseudo-random inputs at one level, each output row printed as the hex bits of its values, so two
// levels (or two machines) agree exactly when their outputs are byte-identical.
//
//   kernel-harness list     the levels this CPU runs, one name per line
//   kernel-harness LEVEL    one line per output row: "<kernel> <shape> <row>: <bits> <bits> ..."
//
// C only (no Swift), so it cross-compiles for aarch64 and runs under qemu-aarch64.
#include "FMKernels.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// SplitMix64 from a fixed seed: the same inputs on every machine.
static uint64_t state = 0x5EEDF00DULL;
static uint64_t next_random(void) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
/// Uniform in [-1, 1).
static float signed_random(void) { return (float)(next_random() >> 40) / (float)(1 << 23) - 1.0f; }

static long rows_printed = 0;

static void print_row(const char *kernel, const char *shape, int row, const void *data, size_t bytes) {
    const uint8_t *p = data;
    printf("%s %s %d:", kernel, shape, row);
    for (size_t i = 0; i < bytes; i += 4) {
        uint32_t word = 0;
        memcpy(&word, p + i, bytes - i < 4 ? bytes - i : 4);
        printf(" %08x", word);
    }
    printf("\n");
    rows_printed++;
}

static void put_half(uint8_t *p, float value) {
    uint16_t h = fmk_f32_to_f16(value);
    p[0] = (uint8_t)h;
    p[1] = (uint8_t)(h >> 8);
}

/// Q4_1 rows in ggml's layout: a half scale and minimum of plausible sizes, then random nibbles.
static uint8_t *random_q4_1(int rows, int cols) {
    size_t blocks = (size_t)rows * cols / 32;
    uint8_t *w = malloc(blocks * 20);
    for (size_t b = 0; b < blocks; b++) {
        put_half(w + 20 * b, 0.01f + fabsf(signed_random()) * 0.05f);
        put_half(w + 20 * b + 2, signed_random() * 0.2f);
        for (int j = 0; j < 16; j++) w[20 * b + 4 + j] = (uint8_t)next_random();
    }
    return w;
}

/// Q8_0 rows: a half scale, then 32 random bytes (the whole int8 range).
static uint8_t *random_q8_0(int rows, int cols) {
    size_t blocks = (size_t)rows * cols / 32;
    uint8_t *w = malloc(blocks * 34);
    for (size_t b = 0; b < blocks; b++) {
        put_half(w + 34 * b, 0.001f + fabsf(signed_random()) * 0.01f);
        for (int j = 0; j < 32; j++) w[34 * b + 2 + j] = (uint8_t)next_random();
    }
    return w;
}

/// Activations with SmolLM2-like outliers (every 97th value 20× larger), so block scales vary widely.
static float *random_activations(size_t count) {
    float *x = malloc(count * sizeof(float));
    for (size_t i = 0; i < count; i++) x[i] = signed_random() * (i % 97 == 0 ? 60.0f : 3.0f);
    return x;
}

/// One matrix shape: Q4_1 and Q8_0 weights × `tokens` quantized activation rows, every kernel.
static void matrix_case(int cols, int rows, int first, int tokens) {
    char shape[64];
    snprintf(shape, sizeof shape, "%dx%d/%d/%d", rows, cols, first, tokens);
    int nb = cols / 32;
    size_t stride = (size_t)rows + 3;
    float *x = random_activations((size_t)tokens * cols);
    int8_t *qs = malloc((size_t)tokens * cols), *q0 = malloc((size_t)tokens * cols);
    float *d = malloc((size_t)tokens * nb * sizeof(float)), *s = malloc((size_t)tokens * nb * sizeof(float));
    float *d0 = malloc((size_t)tokens * nb * sizeof(float));
    fmk_quantize_q8_1(x, tokens * cols, qs, d, s);
    fmk_quantize_q8_0(x, tokens * cols, q0, d0);
    for (int t = 0; t < tokens; t++) {
        print_row("quantize_q8_1.qs", shape, t, qs + (size_t)t * cols, (size_t)cols);
        print_row("quantize_q8_1.d", shape, t, d + (size_t)t * nb, nb * sizeof(float));
        print_row("quantize_q8_1.s", shape, t, s + (size_t)t * nb, nb * sizeof(float));
        print_row("quantize_q8_0.qs", shape, t, q0 + (size_t)t * cols, (size_t)cols);
        print_row("quantize_q8_0.d", shape, t, d0 + (size_t)t * nb, nb * sizeof(float));
    }
    float *out = malloc((size_t)tokens * stride * sizeof(float));
    uint8_t *w4 = random_q4_1(rows, cols), *w8 = random_q8_0(rows, cols);
    uint32_t mask[64] = {0};
    for (int r = 0; r < rows; r++) if (next_random() % 3) mask[r / 32] |= 1u << (r % 32);
    // The whole groups of rows, packed; the packed kernel reads any other row from `w4`.
    uint8_t *packed = malloc((size_t)rows * nb * 20);
    fmk_pack_q4_1(w4, rows / FMK_Q4_1_PACK_ROWS * FMK_Q4_1_PACK_ROWS, cols, packed);

    for (int t = 0; t < tokens; t++) {
        memset(out, 0, stride * sizeof(float));
        fmk_matvec_q4_1(w4, cols, first, rows, qs + (size_t)t * cols, d + (size_t)t * nb, s + (size_t)t * nb, out);
        print_row("matvec_q4_1", shape, t, out + first, (size_t)(rows - first) * sizeof(float));
        fmk_matvec_q8_0(w8, cols, first, rows, q0 + (size_t)t * cols, d0 + (size_t)t * nb, NULL, out);
        print_row("matvec_q8_0", shape, t, out + first, (size_t)(rows - first) * sizeof(float));
        fmk_matvec_q8_0(w8, cols, first, rows, q0 + (size_t)t * cols, d0 + (size_t)t * nb, mask, out);
        print_row("matvec_q8_0.mask", shape, t, out + first, (size_t)(rows - first) * sizeof(float));
    }
    memset(out, 0, (size_t)tokens * stride * sizeof(float));
    fmk_matmul_q4_1(w4, cols, first, rows, qs, d, s, tokens, out, stride);
    for (int t = 0; t < tokens; t++) print_row("matmul_q4_1", shape, t, out + t * stride + first, (size_t)(rows - first) * sizeof(float));
    // One token (a decode step) and every token at once (a batched decode step).
    const int batches[] = {1, tokens};
    for (int i = tokens > 1 ? 0 : 1; i < 2; i++) {
        int batch = batches[i];
        memset(out, 0, (size_t)tokens * stride * sizeof(float));
        fmk_matmul_q4_1_packed(w4, packed, cols, first, rows, qs, d, s, batch, out, stride);
        for (int t = 0; t < batch; t++) {
            print_row("matmul_q4_1_packed", shape, t, out + t * stride + first, (size_t)(rows - first) * sizeof(float));
        }
    }
    memset(out, 0, (size_t)tokens * stride * sizeof(float));
    fmk_matmul_q4_1_tiled(w4, cols, first, rows, qs, d, s, tokens, out, stride);
    for (int t = 0; t < tokens; t++) {
        print_row("matmul_q4_1_tiled", shape, t, out + t * stride + first, (size_t)(rows - first) * sizeof(float));
    }
    // The output layer of a batched step: every token at once, odd tokens under the mask.
    const int8_t *token_q[16];
    const float *token_d[16];
    const uint32_t *token_mask[16];
    float *token_out[16];
    for (int t = 0; t < tokens; t++) {
        token_q[t] = q0 + (size_t)t * cols;
        token_d[t] = d0 + (size_t)t * nb;
        token_mask[t] = t % 2 ? mask : NULL;
        token_out[t] = out + t * stride;
    }
    memset(out, 0, (size_t)tokens * stride * sizeof(float));
    fmk_logits_q8_0(w8, cols, first, rows, tokens, token_q, token_d, token_mask, token_out);
    for (int t = 0; t < tokens; t++) {
        print_row("logits_q8_0", shape, t, out + t * stride + first, (size_t)(rows - first) * sizeof(float));
    }
    memset(out, 0, (size_t)tokens * stride * sizeof(float));
    fmk_matmul_q8_0(w8, cols, first, rows, q0, d0, tokens, out, stride);
    for (int t = 0; t < tokens; t++) print_row("matmul_q8_0", shape, t, out + t * stride + first, (size_t)(rows - first) * sizeof(float));
    float *row = malloc((size_t)cols * sizeof(float));
    fmk_dequantize_row(FMK_TYPE_Q4_1, w4, cols, row);
    print_row("dequantize_q4_1", shape, 0, row, (size_t)cols * sizeof(float));
    fmk_dequantize_row(FMK_TYPE_Q8_0, w8, cols, row);
    print_row("dequantize_q8_0", shape, 0, row, (size_t)cols * sizeof(float));
    free(row);
    free(x); free(qs); free(q0); free(d); free(s); free(d0); free(out); free(w4); free(w8); free(packed);
}

/// Attention over a half KV cache: every position count shape the engine meets, prefill and decode order,
/// one head alone and three heads sharing keys and values; heads 64 wide (the model's, which the x86
/// levels take several at a time), 80 (a last 64 short of whole) and 128.
static void attention_cases(void) {
    enum { MAX_DIM = 128, STRIDE = 3 * MAX_DIM, CAPACITY = 200, HEADS = 3 };
    uint16_t *q = malloc(HEADS * MAX_DIM * 2), *k = malloc(CAPACITY * STRIDE * 2), *v = malloc(MAX_DIM * CAPACITY * 2);
    for (int i = 0; i < HEADS * MAX_DIM; i++) q[i] = fmk_f32_to_f16(signed_random());
    for (int i = 0; i < CAPACITY * STRIDE; i++) k[i] = fmk_f32_to_f16(signed_random() * 2);
    for (int i = 0; i < MAX_DIM * CAPACITY; i++) v[i] = fmk_f32_to_f16(signed_random());
    static const int positions[] = {1, 13, 16, 37, 64, 96, 100, 150, 200}, dims[] = {64, 80, 128};
    float scores[HEADS * 208], out[HEADS * MAX_DIM];
    for (size_t w = 0; w < sizeof dims / sizeof dims[0]; w++) {
        int dim = dims[w];
        for (size_t p = 0; p < sizeof positions / sizeof positions[0]; p++) {
            for (int single = 0; single < 2; single++) {
                char shape[32];
                snprintf(shape, sizeof shape, "%d/%d/%d", dim, positions[p], single);
                fmk_attend_f16(q, 1, k, STRIDE, v, CAPACITY, positions[p], dim, 0.125f, single, scores, 208, out);
                print_row("attend_f16", shape, 0, out, (size_t)dim * sizeof(float));
                fmk_attend_f16(q, HEADS, k, STRIDE, v, CAPACITY, positions[p], dim, 0.125f, single, scores, 208, out);
                for (int h = 0; h < HEADS; h++)
                    print_row("attend_f16.heads", shape, h, out + h * dim, (size_t)dim * sizeof(float));
            }
        }
    }
    free(q); free(k); free(v);
}

/// Element-wise kernels: exp, SwiGLU, float-to-half rows and columns, half-to-float rows, RoPE, and the
/// greedy choice (ties, NaN and an all -infinity row among its inputs).
static void elementwise_cases(void) {
    enum { N = 1000 };
    float x[N], up[N];
    uint16_t halves[N];
    for (int i = 0; i < N; i++) { x[i] = signed_random() * 12; up[i] = signed_random() * 4; }
    float e[N];
    for (int i = 0; i < N; i++) e[i] = fmk_exp(x[i] * 8);
    print_row("exp", "1000", 0, e, sizeof e);
    fmk_f32_to_f16_row(x, halves, N);
    print_row("f32_to_f16_row", "1000", 0, halves, sizeof halves);
    fmk_dequantize_row(FMK_TYPE_F16, halves, N, e);
    print_row("dequantize_f16", "1000", 0, e, sizeof e);
    fmk_f32_to_f16_strided(x, halves, 3, N / 3);
    print_row("f32_to_f16_strided", "333/3", 0, halves, sizeof halves);
    float rotated[N];
    memcpy(rotated, x, sizeof rotated);
    fmk_rope(rotated, 5, 192, 48, up, up + 48);
    print_row("rope", "5x192/48", 0, rotated, sizeof rotated);
    int32_t chosen[6];
    float ties[N];
    for (int i = 0; i < N; i++) ties[i] = i % 7 == 3 ? NAN : (float)(int)(x[i] / 4);
    chosen[0] = fmk_argmax_f32(x, N);
    chosen[1] = fmk_argmax_f32(x, 13);
    chosen[2] = fmk_argmax_f32(ties, N);
    chosen[3] = fmk_argmax_f32(ties + 1, 37);
    for (int i = 0; i < N; i++) ties[i] = -INFINITY;
    chosen[4] = fmk_argmax_f32(ties, N);
    chosen[5] = fmk_argmax_f32(ties, 0);
    print_row("argmax_f32", "6 rows", 0, chosen, sizeof chosen);
    fmk_swiglu(x, up, N);
    print_row("swiglu", "1000", 0, x, sizeof x);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: kernel-harness list | LEVEL\n");
        return 2;
    }
    if (strcmp(argv[1], "list") == 0) {
        for (int level = 0; level < FMK_LEVEL_COUNT; level++) {
            if (fmk_level_available(level)) printf("%s\n", fmk_level_name(level));
        }
        return 0;
    }
    int level = 0;
    while (level < FMK_LEVEL_COUNT && strcmp(fmk_level_name(level), argv[1]) != 0) level++;
    if (level == FMK_LEVEL_COUNT || fmk_set_level(level) != 0 || fmk_active_level() != level) {
        fprintf(stderr, "kernel-harness: this CPU does not run level '%s' (see 'kernel-harness list')\n", argv[1]);
        return 3;
    }
    static const int shapes[][4] = {
        {32, 16, 0, 1},   {576, 37, 3, 7},  {576, 64, 8, 9},  {1536, 45, 5, 5},
        {2080, 24, 0, 3}, {4128, 11, 2, 4}, {96, 48, 0, 4},
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        matrix_case(shapes[i][0], shapes[i][1], shapes[i][2], shapes[i][3]);
    }
    attention_cases();
    elementwise_cases();
    fprintf(stderr, "kernel-harness: %s: %ld rows\n", argv[1], rows_printed);
    return 0;
}
