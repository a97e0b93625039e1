// Run-time CPU dispatch, half-float conversion and the dispatching entry points of the matrix kernels.
// Every level gives the same bits (see FMKernels.h), checked by KernelLevelTests and .ci/kernels-aarch64.
#include "Internal.h"
#include <math.h>
#include <string.h>

/// The process-wide level: the detected one, or -1 before the first use. Every pool thread reads it on
/// every kernel call, so it is only touched atomically; racing first callers store the same value.
static int process_level = -1;
/// The calling thread's override from `fmk_set_level`, or -1 for none. Per thread, so a test that
/// runs the kernels at each level cannot change the level of a model running on other threads.
static _Thread_local int thread_level = -1;

#if defined(FMK_ARM64) && defined(__linux__)
#include <sys/auxv.h>
#ifndef HWCAP_ASIMDDP
#define HWCAP_ASIMDDP (1 << 20)
#endif
#endif

#ifdef FMK_ARM64
/// Whether the CPU has the Armv8.2 dot-product instructions (`sdot`): the kernel's hardware
/// capabilities on Linux; every Apple silicon core has them; elsewhere assumed absent.
static int has_dotprod(void) {
#if defined(__APPLE__)
    return 1;
#elif defined(__linux__)
    return (getauxval(AT_HWCAP) & HWCAP_ASIMDDP) != 0;
#else
    return 0;
#endif
}
#endif

int fmk_level_available(int level) {
    switch (level) {
    case FMK_LEVEL_PORTABLE: return 1;
#ifdef FMK_X86
    case FMK_LEVEL_AVX2:
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case FMK_LEVEL_AVX512VNNI:
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
               __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
               __builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("avx2") &&
               __builtin_cpu_supports("fma");
#endif
#ifdef FMK_ARM64
    case FMK_LEVEL_NEON: return 1;
    case FMK_LEVEL_NEON_DOTPROD: return has_dotprod();
#endif
    default: return 0;
    }
}

int fmk_detected_level(void) {
    static const int fastest_first[] = {FMK_LEVEL_AVX512VNNI, FMK_LEVEL_AVX2, FMK_LEVEL_NEON_DOTPROD, FMK_LEVEL_NEON};
    for (size_t i = 0; i < sizeof fastest_first / sizeof fastest_first[0]; i++) {
        if (fmk_level_available(fastest_first[i])) return fastest_first[i];
    }
    return FMK_LEVEL_PORTABLE;
}

int fmk_active_level(void) {
    if (thread_level >= 0) return thread_level;
    int level = __atomic_load_n(&process_level, __ATOMIC_RELAXED);
    if (level >= 0) return level;
    level = fmk_detected_level();
    __atomic_store_n(&process_level, level, __ATOMIC_RELAXED);
    return level;
}

int fmk_set_level(int level) {
    if (level != -1 && !fmk_level_available(level)) return -1;
    thread_level = level;
    return 0;
}

int fmk_thread_level(void) { return thread_level; }

const char *fmk_level_name(int level) {
    switch (level) {
    case FMK_LEVEL_AVX2: return "avx2";
    case FMK_LEVEL_AVX512VNNI: return "avx512-vnni";
    case FMK_LEVEL_NEON: return "neon";
    case FMK_LEVEL_NEON_DOTPROD: return "neon-dotprod";
    default: return "portable";
    }
}

float fmk_f16_to_f32(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000) << 16;
    uint32_t exponent = (h >> 10) & 0x1F;
    uint32_t mantissa = h & 0x3FF;
    uint32_t bits;
    if (exponent == 0x1F) {
        bits = sign | 0x7F800000u | (mantissa << 13);
    } else if (exponent != 0) {
        bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
    } else if (mantissa == 0) {
        bits = sign;
    } else {
        float value = (float)mantissa * 0x1p-24f;
        memcpy(&bits, &value, 4);
        bits |= sign;
    }
    float result;
    memcpy(&result, &bits, 4);
    return result;
}

uint16_t fmk_f32_to_f16(float f) {
    uint32_t bits;
    memcpy(&bits, &f, 4);
    uint16_t sign = (uint16_t)((bits >> 16) & 0x8000);
    uint32_t magnitude = bits & 0x7FFFFFFFu;
    if (magnitude >= 0x7F800000u) {
        return sign | 0x7C00 | (magnitude > 0x7F800000u ? 0x200 : 0);
    }
    if (magnitude >= 0x477FF000u) return sign | 0x7C00; // rounds to infinity
    if (magnitude < 0x38800000u) {
        // Subnormal half (or zero): scale into the integer mantissa, rounding to nearest even.
        float absolute;
        memcpy(&absolute, &magnitude, 4);
        return sign | (uint16_t)nearbyintf(absolute * 0x1p24f);
    }
    uint32_t rounded = magnitude + 0xFFFu + ((magnitude >> 13) & 1u);
    return sign | (uint16_t)((rounded - 0x38000000u) >> 13);
}

#ifdef FMK_X86
FMK_AVX2 static void f32_to_f16_row_f16c(const float *x, uint16_t *y, int n) {
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(x + i), _MM_FROUND_TO_NEAREST_INT);
        _mm_storeu_si128((__m128i *)(y + i), h);
    }
    for (; i < n; i++) y[i] = fmk_f32_to_f16(x[i]);
}
#endif

void fmk_f32_to_f16_row(const float *x, uint16_t *y, int n) {
#ifdef FMK_X86
    if (fmk_active_level() >= FMK_LEVEL_AVX2) { f32_to_f16_row_f16c(x, y, n); return; }
#endif
    for (int i = 0; i < n; i++) y[i] = fmk_f32_to_f16(x[i]);
}

#ifdef FMK_X86
FMK_AVX2 static void f32_to_f16_strided_f16c(const float *x, uint16_t *y, size_t y_stride, int n) {
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        uint16_t halves[8];
        _mm_storeu_si128((__m128i *)halves, _mm256_cvtps_ph(_mm256_loadu_ps(x + i), _MM_FROUND_TO_NEAREST_INT));
        for (int j = 0; j < 8; j++) y[(size_t)(i + j) * y_stride] = halves[j];
    }
    for (; i < n; i++) y[(size_t)i * y_stride] = fmk_f32_to_f16(x[i]);
}
#endif

void fmk_f32_to_f16_strided(const float *x, uint16_t *y, size_t y_stride, int n) {
#ifdef FMK_X86
    if (fmk_active_level() >= FMK_LEVEL_AVX2) { f32_to_f16_strided_f16c(x, y, y_stride, n); return; }
#endif
    for (int i = 0; i < n; i++) y[(size_t)i * y_stride] = fmk_f32_to_f16(x[i]);
}

void fmk_matvec_q4_1(const void *w, int n, int row0, int row1,
                     const int8_t *xq, const float *xd, const float *xs, float *out) {
    int level = fmk_active_level();
#ifdef FMK_X86
    if (level >= FMK_LEVEL_AVX2) {
        fmk_matvec_q4_1_x86(level == FMK_LEVEL_AVX512VNNI, w, n, row0, row1, xq, xd, xs, out);
        return;
    }
#endif
#ifdef FMK_ARM64
    if (level >= FMK_LEVEL_NEON) {
        fmk_matvec_q4_1_neon(level == FMK_LEVEL_NEON_DOTPROD, w, n, row0, row1, xq, xd, xs, out);
        return;
    }
#endif
    (void)level;
    fmk_matvec_q4_1_portable(w, n, row0, row1, xq, xd, xs, out);
}

int fmk_level_packs_q4_1(int level) { return level == FMK_LEVEL_AVX512VNNI || level == FMK_LEVEL_AVX2; }

void fmk_matmul_q4_1_packed(const void *w, const void *packed, int n, int row0, int row1, const int8_t *xq,
                            const float *xd, const float *xs, int ntok, float *out, size_t out_stride) {
#ifdef FMK_X86
    int level = fmk_active_level();
    if (packed && level == FMK_LEVEL_AVX512VNNI) {
        fmk_matmul_q4_1_packed_vnni(w, packed, n, row0, row1, xq, xd, xs, ntok, out, out_stride);
        return;
    }
    if (packed && level == FMK_LEVEL_AVX2) {
        fmk_matmul_q4_1_packed_avx2(w, packed, n, row0, row1, xq, xd, xs, ntok, out, out_stride);
        return;
    }
#endif
    (void)packed;
    if (ntok == 1) fmk_matvec_q4_1(w, n, row0, row1, xq, xd, xs, out);
    else fmk_matmul_q4_1(w, n, row0, row1, xq, xd, xs, ntok, out, out_stride);
}

void fmk_matmul_q4_1(const void *w, int n, int row0, int row1,
                     const int8_t *xq, const float *xd, const float *xs,
                     int ntok, float *out, size_t out_stride) {
    int level = fmk_active_level();
#ifdef FMK_X86
    if (level >= FMK_LEVEL_AVX2) {
        fmk_matmul_q4_1_x86(level == FMK_LEVEL_AVX512VNNI, w, n, row0, row1, xq, xd, xs, ntok, out, out_stride);
        return;
    }
#endif
#ifdef FMK_ARM64
    if (level >= FMK_LEVEL_NEON) {
        fmk_matmul_q4_1_neon(level == FMK_LEVEL_NEON_DOTPROD, w, n, row0, row1, xq, xd, xs, ntok, out, out_stride);
        return;
    }
#endif
    (void)level;
    fmk_matmul_q4_1_portable(w, n, row0, row1, xq, xd, xs, ntok, out, out_stride);
}

void fmk_matmul_q4_1_tiled(const void *w, int n, int row0, int row1,
                           const int8_t *xq, const float *xd, const float *xs,
                           int ntok, float *out, size_t out_stride) {
    int level = fmk_active_level();
#ifdef FMK_X86
    if (level >= FMK_LEVEL_AVX2) {
        fmk_matmul_q4_1_tiled_x86(level == FMK_LEVEL_AVX512VNNI, w, n, row0, row1, xq, xd, xs, ntok, out, out_stride);
        return;
    }
#endif
    (void)level;
    fmk_matmul_q4_1(w, n, row0, row1, xq, xd, xs, ntok, out, out_stride);
}

void fmk_matvec_q8_0(const void *w, int n, int row0, int row1,
                     const int8_t *xq, const float *xd, const uint32_t *mask, float *out) {
    int level = fmk_active_level();
#ifdef FMK_X86
    if (level >= FMK_LEVEL_AVX2) {
        fmk_matvec_q8_0_x86(level == FMK_LEVEL_AVX512VNNI, w, n, row0, row1, xq, xd, mask, out);
        return;
    }
#endif
#ifdef FMK_ARM64
    if (level >= FMK_LEVEL_NEON) {
        fmk_matvec_q8_0_neon(level == FMK_LEVEL_NEON_DOTPROD, w, n, row0, row1, xq, xd, mask, out);
        return;
    }
#endif
    (void)level;
    fmk_matvec_q8_0_portable(w, n, row0, row1, xq, xd, mask, out);
}

void fmk_logits_q8_0(const void *w, int n, int row0, int row1, int ntok, const int8_t *const *xq,
                     const float *const *xd, const uint32_t *const *masks, float *const *outs) {
#ifdef FMK_X86
    if (fmk_active_level() == FMK_LEVEL_AVX512VNNI) {
        fmk_logits_q8_0_vnni(w, n, row0, row1, ntok, xq, xd, masks, outs);
        return;
    }
#endif
    for (int t = 0; t < ntok; t++) fmk_matvec_q8_0(w, n, row0, row1, xq[t], xd[t], masks[t], outs[t]);
}

void fmk_matmul_q8_0(const void *w, int n, int row0, int row1,
                     const int8_t *xq, const float *xd,
                     int ntok, float *out, size_t out_stride) {
    int level = fmk_active_level();
#ifdef FMK_X86
    if (level >= FMK_LEVEL_AVX2) {
        fmk_matmul_q8_0_x86(level == FMK_LEVEL_AVX512VNNI, w, n, row0, row1, xq, xd, ntok, out, out_stride);
        return;
    }
#endif
#ifdef FMK_ARM64
    if (level >= FMK_LEVEL_NEON) {
        fmk_matmul_q8_0_neon(level == FMK_LEVEL_NEON_DOTPROD, w, n, row0, row1, xq, xd, ntok, out, out_stride);
        return;
    }
#endif
    (void)level;
    fmk_matmul_q8_0_portable(w, n, row0, row1, xq, xd, ntok, out, out_stride);
}
