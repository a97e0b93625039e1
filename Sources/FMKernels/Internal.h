// Shared declarations between the FMKernels translation units (not part of the public header).
#pragma once
#include "include/FMKernels.h"

#if defined(__x86_64__) || defined(__i386__)
#define FMK_X86 1
#include <immintrin.h>
#define FMK_AVX2 __attribute__((target("avx2,fma,f16c")))
#define FMK_VNNI __attribute__((target("avx2,fma,f16c,avx512f,avx512vl,avx512bw,avx512dq,avx512vnni")))
#endif

/// Bytes of one Q4_1 block.
#define FMK_Q4_1_BYTES 20
/// Bytes of one Q8_0 block.
#define FMK_Q8_0_BYTES 34

static inline uint16_t fmk_read_u16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }

// Per-level implementations.
void fmk_matvec_q4_1_portable(const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                              const float *xd, const float *xs, float *out);
void fmk_matmul_q4_1_portable(const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                              const float *xd, const float *xs, int ntok, float *out, size_t out_stride);
void fmk_matvec_q8_0_portable(const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                              const float *xd, const uint32_t *mask, float *out);
void fmk_matmul_q8_0_portable(const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                              const float *xd, int ntok, float *out, size_t out_stride);
#ifdef FMK_X86
void fmk_matvec_q4_1_x86(int vnni, const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                         const float *xd, const float *xs, float *out);
void fmk_matmul_q4_1_x86(int vnni, const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                         const float *xd, const float *xs, int ntok, float *out, size_t out_stride);
void fmk_matmul_q4_1_tiled_x86(int vnni, const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                               const float *xd, const float *xs, int ntok, float *out, size_t out_stride);
void fmk_matvec_q8_0_x86(int vnni, const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                         const float *xd, const uint32_t *mask, float *out);
void fmk_matmul_q8_0_x86(int vnni, const uint8_t *w, int n, int row0, int row1, const int8_t *xq,
                         const float *xd, int ntok, float *out, size_t out_stride);
#endif
