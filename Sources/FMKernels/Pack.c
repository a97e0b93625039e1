// Weight layouts the kernels read instead of ggml's: Q4_1 rows packed in groups of four, so the AVX-512
// decode kernel (X86Rows.h) loads one block of four rows at once. The bytes are ggml's, only reordered.
#include "Internal.h"
#include <string.h>

void fmk_pack_q4_1(const void *w, int rows, int n, void *out) {
    const uint8_t *src = (const uint8_t *)w;
    uint8_t *dst = (uint8_t *)out;
    int nb = n / FMK_BLOCK;
    size_t row_bytes = (size_t)nb * FMK_Q4_1_BYTES;
    for (int g = 0; g < rows / 4; g++) {
        for (int b = 0; b < nb; b++) {
            uint8_t *block = dst + ((size_t)g * nb + b) * 4 * FMK_Q4_1_BYTES;
            for (int i = 0; i < 4; i++) {
                const uint8_t *from = src + (size_t)(4 * g + i) * row_bytes + (size_t)b * FMK_Q4_1_BYTES;
                memcpy(block + 2 * i, from, 2);
                memcpy(block + 8 + 2 * i, from + 2, 2);
                memcpy(block + 16 + 16 * i, from + 4, 16);
            }
        }
    }
}
