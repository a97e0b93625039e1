// arm64 kernels: NEON instantiations of NeonTemplate.h, with the dot-product extension (`sdot`,
// vdotq_s32) and without it (widening multiplies and pairwise adds), chosen at run time. Both compute
// the bits of the portable level: the same exact integer lanes, the same float operations in order.
#include "Internal.h"

#ifdef FMK_ARM64
#include <string.h>

/// The four-element lane sums of a·b (16 signed bytes each) with plain NEON: lane i is Σ a[4i+k]·b[4i+k].
static inline int32x4_t dot_lanes_plain(int8x16_t a, int8x16_t b) {
    int16x8_t low = vmull_s8(vget_low_s8(a), vget_low_s8(b)), high = vmull_high_s8(a, b);
    return vpaddq_s32(vpaddlq_s16(low), vpaddlq_s16(high));
}

/// `dot_lanes_plain` with one `sdot` instruction.
FMK_DOTPROD static inline int32x4_t dot_lanes_dotprod(int8x16_t a, int8x16_t b) {
    return vdotq_s32(vdupq_n_s32(0), a, b);
}

#define FMK_SUFFIX plain
#define FMK_ATTR
#define FMK_DOT dot_lanes_plain
#include "NeonTemplate.h"
#undef FMK_SUFFIX
#undef FMK_ATTR
#undef FMK_DOT

#define FMK_SUFFIX dotprod
#define FMK_ATTR FMK_DOTPROD
#define FMK_DOT dot_lanes_dotprod
#include "NeonTemplate.h"
#undef FMK_SUFFIX
#undef FMK_ATTR
#undef FMK_DOT

void fmk_matvec_q4_1_neon(int dotprod, const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                          const float *xd, const float *xs, float *out) {
    if (dotprod) matvec_q4_1_dotprod(w, n, row0, row1, xq, xd, xs, out);
    else matvec_q4_1_plain(w, n, row0, row1, xq, xd, xs, out);
}

void fmk_matmul_q4_1_neon(int dotprod, const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                          const float *xd, const float *xs, int ntok, float *out, size_t out_stride) {
    if (dotprod) matmul_q4_1_dotprod(w, n, row0, row1, xq, xd, xs, ntok, out, out_stride);
    else matmul_q4_1_plain(w, n, row0, row1, xq, xd, xs, ntok, out, out_stride);
}

void fmk_matvec_q8_0_neon(int dotprod, const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                          const float *xd, const uint32_t *mask, float *out) {
    if (dotprod) matvec_q8_0_dotprod(w, n, row0, row1, xq, xd, mask, out);
    else matvec_q8_0_plain(w, n, row0, row1, xq, xd, mask, out);
}

void fmk_matmul_q8_0_neon(int dotprod, const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                          const float *xd, int ntok, float *out, size_t out_stride) {
    if (dotprod) matmul_q8_0_dotprod(w, n, row0, row1, xq, xd, ntok, out, out_stride);
    else matmul_q8_0_plain(w, n, row0, row1, xq, xd, ntok, out, out_stride);
}
#endif
