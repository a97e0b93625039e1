// The AVX2 decode kernel for Q4_1 rows packed in groups of FMK_Q4_1_PACK_ROWS (`fmk_pack_q4_1`, the
// layout X86Rows.h reads at AVX-512 VNNI): each group is taken as halves of eight rows, a vector lane per
// row, so a block of eight rows is four loads and two nibble masks per load, against the row kernel's
// unpacking of every row's block on its own. Each row keeps `dot_q4_1_avx2`'s eight lane accumulators
// (accumulator i sums elements 4i..4i+3 of a block), block order and roundings, so the outputs have its
// bits. One token at a time: a token's eight accumulators fill half of AVX2's sixteen registers.
#include "Internal.h"

#ifdef FMK_X86
#include <string.h>

/// Eight packed rows (half `half` of a group) against one token: row r goes to out[r].
FMK_AVX2 static void packed_half_avx2(const uint8_t *group, int half, int nb, const int8_t *xq, const float *xd,
                                      const float *xs, float *out) {
    enum { ROWS = FMK_Q4_1_PACK_ROWS, VECTOR = 4 * ROWS, BLOCK = ROWS * FMK_Q4_1_BYTES };
    const __m256i low_nibbles = _mm256_set1_epi8(0x0F), ones = _mm256_set1_epi16(1);
    __m256 acc[8];
    for (int i = 0; i < 8; i++) acc[i] = _mm256_setzero_ps();
    for (int b = 0; b < nb; b++) {
        const uint8_t *block = group + (size_t)b * BLOCK;
        __m256 dw = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(block + 16 * half)));
        __m256 scale = _mm256_mul_ps(dw, _mm256_set1_ps(xd[b]));
        for (int v = 0; v < 4; v++) {
            // Dword v of each row's nibbles: elements 4v..4v+3 below, 16+4v..19+4v above.
            __m256i q = _mm256_loadu_si256((const __m256i *)(block + 4 * ROWS + v * VECTOR + 32 * half));
            __m256i q_low = _mm256_and_si256(q, low_nibbles);
            __m256i q_high = _mm256_and_si256(_mm256_srli_epi16(q, 4), low_nibbles);
            int32_t x_low, x_high;
            memcpy(&x_low, xq + (size_t)b * FMK_BLOCK + 4 * v, 4);
            memcpy(&x_high, xq + (size_t)b * FMK_BLOCK + 16 + 4 * v, 4);
            __m256i p_low = _mm256_madd_epi16(_mm256_maddubs_epi16(q_low, _mm256_set1_epi32(x_low)), ones);
            __m256i p_high = _mm256_madd_epi16(_mm256_maddubs_epi16(q_high, _mm256_set1_epi32(x_high)), ones);
            acc[v] = _mm256_fmadd_ps(scale, _mm256_cvtepi32_ps(p_low), acc[v]);
            acc[v + 4] = _mm256_fmadd_ps(scale, _mm256_cvtepi32_ps(p_high), acc[v + 4]);
        }
    }
    __m256 mins = _mm256_setzero_ps();
    for (int b = 0; b < nb; b++) {
        const uint8_t *at = group + (size_t)b * BLOCK + 2 * ROWS + 16 * half;
        mins = _mm256_fmadd_ps(_mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)at)), _mm256_set1_ps(xs[b]), mins);
    }
    __m256 sum = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(acc[0], acc[4]), _mm256_add_ps(acc[2], acc[6])),
                               _mm256_add_ps(_mm256_add_ps(acc[1], acc[5]), _mm256_add_ps(acc[3], acc[7])));
    _mm256_storeu_ps(out, _mm256_add_ps(sum, mins));
}

void fmk_matmul_q4_1_packed_avx2(const uint8_t *w, const uint8_t *packed, int n, int row0, int row1,
                                 const int8_t *xq, const float *xd, const float *xs, int ntok, float *out,
                                 size_t out_stride) {
    enum { ROWS = FMK_Q4_1_PACK_ROWS };
    int nb = n / FMK_BLOCK;
    size_t row_bytes = (size_t)nb * FMK_Q4_1_BYTES;
    int first, last;
    fmk_packed_span(row0, row1, &first, &last);
    fmk_matmul_q4_1_x86(0, w, n, row0, first, xq, xd, xs, ntok, out, out_stride);
    for (int r = first; r < last; r += ROWS) {
        const uint8_t *group = packed + (size_t)r * row_bytes;
        for (int t = 0; t < ntok; t++) {
            const int8_t *x = xq + (size_t)t * n;
            const float *d = xd + (size_t)t * nb, *s = xs + (size_t)t * nb;
            for (int half = 0; half < ROWS / 8; half++)
                packed_half_avx2(group, half, nb, x, d, s, out + t * out_stride + r + 8 * half);
        }
    }
    fmk_matmul_q4_1_x86(0, w, n, last, row1, xq, xd, xs, ntok, out, out_stride);
}
#endif
