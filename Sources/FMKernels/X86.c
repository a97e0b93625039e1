// x86 kernels: AVX2 and AVX-512 VNNI instantiations of X86Template.h (row kernels) and
// X86TileTemplate.h (prefill tiles: one token per tile with AVX2's 16 vector registers, three with
// AVX-512's 32), chosen at run time.
#include "Internal.h"

#ifdef FMK_X86
#include <math.h>
#include <string.h>

#define FMK_SUFFIX avx2
#define FMK_ATTR FMK_AVX2
#define FMK_DOT(u, s) _mm256_madd_epi16(_mm256_maddubs_epi16((u), (s)), _mm256_set1_epi16(1))
#define FMK_TILE_TOKENS 1
#include "X86Template.h"
#include "X86TileTemplate.h"
#undef FMK_TILE_TOKENS
#undef FMK_SUFFIX
#undef FMK_ATTR
#undef FMK_DOT

#define FMK_SUFFIX vnni
#define FMK_ATTR FMK_VNNI
#define FMK_DOT(u, s) _mm256_dpbusd_epi32(_mm256_setzero_si256(), (u), (s))
#define FMK_TILE_TOKENS 3
#include "X86Template.h"
#include "X86TileTemplate.h"
#undef FMK_TILE_TOKENS
#undef FMK_SUFFIX
#undef FMK_ATTR
#undef FMK_DOT

void fmk_matvec_q4_1_x86(int vnni, const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                         const float *xd, const float *xs, float *out) {
    if (vnni) matvec_q4_1_vnni(w, n, row0, row1, xq, xd, xs, out);
    else matvec_q4_1_avx2(w, n, row0, row1, xq, xd, xs, out);
}

void fmk_matmul_q4_1_x86(int vnni, const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                         const float *xd, const float *xs, int ntok, float *out, size_t out_stride) {
    if (vnni) matmul_q4_1_vnni(w, n, row0, row1, xq, xd, xs, ntok, out, out_stride);
    else matmul_q4_1_avx2(w, n, row0, row1, xq, xd, xs, ntok, out, out_stride);
}

void fmk_matmul_q4_1_tiled_x86(int vnni, const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                               const float *xd, const float *xs, int ntok, float *out, size_t out_stride) {
    if (vnni) matmul_q4_1_tiled_vnni(w, n, row0, row1, xq, xd, xs, ntok, out, out_stride);
    else matmul_q4_1_tiled_avx2(w, n, row0, row1, xq, xd, xs, ntok, out, out_stride);
}

void fmk_matvec_q8_0_x86(int vnni, const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                         const float *xd, const uint32_t *mask, float *out) {
    if (vnni) matvec_q8_0_vnni(w, n, row0, row1, xq, xd, mask, out);
    else matvec_q8_0_avx2(w, n, row0, row1, xq, xd, mask, out);
}

void fmk_matmul_q8_0_x86(int vnni, const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                         const float *xd, int ntok, float *out, size_t out_stride) {
    if (vnni) matmul_q8_0_vnni(w, n, row0, row1, xq, xd, ntok, out, out_stride);
    else matmul_q8_0_avx2(w, n, row0, row1, xq, xd, ntok, out, out_stride);
}
#endif
