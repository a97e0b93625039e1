// Rotary position embedding as ggml's CPU path applies it: each pair (x0, x1) of a head becomes
// (x0·cos − x1·sin, x0·sin + x1·cos), which GCC contracts into one fused multiply-add each (the other
// product rounded first), so the fused forms are written out here.
#include "Internal.h"

#define FMK_ROPE_BODY                                                            \
    for (int h = 0; h < heads; h++) {                                            \
        float *v = x + (size_t)h * head_dim;                                     \
        for (int i = 0; i < pairs; i++) {                                        \
            float x0 = v[2 * i], x1 = v[2 * i + 1], c = cosines[i], s = sines[i]; \
            v[2 * i] = fmaf(x0, c, -(x1 * s));                                   \
            v[2 * i + 1] = fmaf(x0, s, x1 * c);                                  \
        }                                                                        \
    }

#ifdef FMK_X86
/// The same loop where `fmaf` is one instruction instead of a library call.
FMK_AVX2 static void rope_fma(float *x, int heads, int head_dim, int pairs, const float *cosines,
                              const float *sines) {
    FMK_ROPE_BODY
}
#endif

void fmk_rope(float *x, int heads, int head_dim, int pairs, const float *cosines, const float *sines) {
#ifdef FMK_X86
    if (fmk_active_level() >= FMK_LEVEL_AVX2) { rope_fma(x, heads, head_dim, pairs, cosines, sines); return; }
#endif
    FMK_ROPE_BODY
}
