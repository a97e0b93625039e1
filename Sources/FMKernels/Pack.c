// Weight layouts the kernels read instead of ggml's: Q4_1 rows packed in groups of FMK_Q4_1_PACK_ROWS,
// so the AVX-512 decode kernel (X86Rows.h) reads a block of every row of a group with four vector loads.
// The bytes are ggml's, only reordered.
#include "Internal.h"
#include <string.h>

void fmk_pack_q4_1(const void *w, int rows, int n, void *out) {
    enum { ROWS = FMK_Q4_1_PACK_ROWS };
    const uint8_t *src = (const uint8_t *)w;
    uint8_t *dst = (uint8_t *)out;
    int nb = n / FMK_BLOCK;
    size_t row_bytes = (size_t)nb * FMK_Q4_1_BYTES;
    for (int g = 0; g < rows / ROWS; g++) {
        for (int b = 0; b < nb; b++) {
            uint8_t *block = dst + ((size_t)g * nb + b) * ROWS * FMK_Q4_1_BYTES;
            for (int i = 0; i < ROWS; i++) {
                const uint8_t *from = src + (size_t)(ROWS * g + i) * row_bytes + (size_t)b * FMK_Q4_1_BYTES;
                memcpy(block + 2 * i, from, 2);
                memcpy(block + 2 * ROWS + 2 * i, from + 2, 2);
                for (int v = 0; v < 4; v++) memcpy(block + 4 * ROWS + v * 4 * ROWS + 4 * i, from + 4 + 4 * v, 4);
            }
        }
    }
}
