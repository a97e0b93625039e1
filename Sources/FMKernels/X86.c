// x86 kernels: AVX2 and AVX-512 VNNI instantiations of X86Template.h (row kernels) and
// X86TileTemplate.h (prefill tiles: eight rows × one token with AVX2's sixteen 256-bit registers,
// sixteen rows × three tokens with AVX-512's thirty-two 512-bit ones), chosen at run time; the
// AVX-512 decode kernels of X86Rows.h take sixteen packed Q4_1 rows or four Q8_0 rows at a time.
#include "Internal.h"

#ifdef FMK_X86
#include <math.h>
#include <string.h>

#define FMK_SUFFIX avx2
#define FMK_ATTR FMK_AVX2
#define FMK_DOT(u, s) _mm256_madd_epi16(_mm256_maddubs_epi16((u), (s)), _mm256_set1_epi16(1))
#define FMK_TILE_ROWS 8
#define FMK_TILE_TOKENS 1
#define FMK_VF __m256
#define FMK_VI __m256i
#define FMK_VF_ZERO _mm256_setzero_ps
#define FMK_VF_LOAD _mm256_loadu_ps
#define FMK_VF_STORE _mm256_storeu_ps
#define FMK_VF_SET1 _mm256_set1_ps
#define FMK_VF_MUL _mm256_mul_ps
#define FMK_VF_ADD _mm256_add_ps
#define FMK_VF_FMA _mm256_fmadd_ps
#define FMK_VF_CVT _mm256_cvtepi32_ps
#define FMK_VI_LOAD(p) _mm256_load_si256((const __m256i *)(p))
#define FMK_VI_SET1 _mm256_set1_epi32
#define FMK_TILE_DOT FMK_DOT
#include "X86Template.h"
#include "X86TileTemplate.h"
#include "X86TileUndef.h"
#undef FMK_SUFFIX
#undef FMK_ATTR
#undef FMK_DOT

#define FMK_SUFFIX vnni
#define FMK_ATTR FMK_VNNI
#define FMK_DOT(u, s) _mm256_dpbusd_epi32(_mm256_setzero_si256(), (u), (s))
#define FMK_TILE_ROWS 16
#define FMK_TILE_TOKENS 3
#define FMK_VF __m512
#define FMK_VI __m512i
#define FMK_VF_ZERO _mm512_setzero_ps
#define FMK_VF_LOAD _mm512_loadu_ps
#define FMK_VF_STORE _mm512_storeu_ps
#define FMK_VF_SET1 _mm512_set1_ps
#define FMK_VF_MUL _mm512_mul_ps
#define FMK_VF_ADD _mm512_add_ps
#define FMK_VF_FMA _mm512_fmadd_ps
#define FMK_VF_CVT _mm512_cvtepi32_ps
#define FMK_VI_LOAD(p) _mm512_load_si512((const void *)(p))
#define FMK_VI_SET1 _mm512_set1_epi32
#define FMK_TILE_DOT(u, s) _mm512_dpbusd_epi32(_mm512_setzero_si512(), (u), (s))
#include "X86Template.h"
#include "X86TileTemplate.h"
#include "X86TileUndef.h"
#undef FMK_SUFFIX
#undef FMK_ATTR
#undef FMK_DOT
#include "X86Rows.h"

void fmk_matvec_q4_1_x86(int vnni, const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                         const float *xd, const float *xs, float *out) {
    if (vnni) matvec_q4_1_vnni(w, n, row0, row1, xq, xd, xs, out);
    else matvec_q4_1_avx2(w, n, row0, row1, xq, xd, xs, out);
}

void fmk_matmul_q4_1_packed_vnni(const uint8_t *w, const uint8_t *packed, int n, int row0, int row1,
                                 const int8_t *xq, const float *xd, const float *xs, int ntok, float *out,
                                 size_t out_stride) {
    matmul_q4_1_packed(w, packed, n, row0, row1, xq, xd, xs, ntok, out, out_stride);
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
    if (vnni) logits_q8_0_rows4(w, n, row0, row1, 1, &xq, &xd, &mask, &out);
    else matvec_q8_0_avx2(w, n, row0, row1, xq, xd, mask, out);
}

void fmk_logits_q8_0_vnni(const uint8_t *w, int n, int row0, int row1, int ntok, const int8_t *const *xq,
                          const float *const *xd, const uint32_t *const *masks, float *const *outs) {
    logits_q8_0_rows4(w, n, row0, row1, ntok, xq, xd, masks, outs);
}

void fmk_matmul_q8_0_x86(int vnni, const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                         const float *xd, int ntok, float *out, size_t out_stride) {
    if (vnni) matmul_q8_0_vnni(w, n, row0, row1, xq, xd, ntok, out, out_stride);
    else matmul_q8_0_avx2(w, n, row0, row1, xq, xd, ntok, out, out_stride);
}
#endif
