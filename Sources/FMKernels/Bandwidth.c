#include "Internal.h"
#include <string.h>

// The read loop must be bound by memory, not by its own arithmetic: left to the compiler, eight scalar sums
// became a 128-bit loop that shuttled every sum between general and vector registers and read 16 GB/s a
// core, half of what the same core reads with plain vector loads (so decode seemed to beat its bound).
// Each level reads with its widest loads into four independent sums, and asks for the lines 8 KB ahead
// into the second-level cache: the hardware prefetcher alone left 6–11 % of the bandwidth unread on a Zen 4
// EPYC (one and two threads; 2 and 4 KB ahead helped less), and the bound is what the memory can deliver.

/// Bytes ahead of its loads that the read loop prefetches.
#define FMK_STREAM_AHEAD 8192

/// Prefetches the `bytes` that lie FMK_STREAM_AHEAD bytes past `p`.
static inline void stream_ahead(const uint64_t *p, size_t bytes) {
    fmk_prefetch_l2((const char *)p + FMK_STREAM_AHEAD, bytes);
}

#ifdef FMK_X86
FMK_VNNI static uint64_t stream_sum_avx512(const uint64_t *words, size_t count, size_t *done) {
    __m512i a0 = _mm512_setzero_si512(), a1 = a0, a2 = a0, a3 = a0;
    size_t i = 0;
    for (; i + 32 <= count; i += 32) {
        stream_ahead(words + i, 32 * sizeof *words);
        a0 = _mm512_add_epi64(a0, _mm512_loadu_si512(words + i));
        a1 = _mm512_add_epi64(a1, _mm512_loadu_si512(words + i + 8));
        a2 = _mm512_add_epi64(a2, _mm512_loadu_si512(words + i + 16));
        a3 = _mm512_add_epi64(a3, _mm512_loadu_si512(words + i + 24));
    }
    *done = i;
    return (uint64_t)_mm512_reduce_add_epi64(_mm512_add_epi64(_mm512_add_epi64(a0, a1), _mm512_add_epi64(a2, a3)));
}

FMK_AVX2 static uint64_t stream_sum_avx2(const uint64_t *words, size_t count, size_t *done) {
    __m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
    size_t i = 0;
    for (; i + 16 <= count; i += 16) {
        stream_ahead(words + i, 16 * sizeof *words);
        a0 = _mm256_add_epi64(a0, _mm256_loadu_si256((const __m256i *)(words + i)));
        a1 = _mm256_add_epi64(a1, _mm256_loadu_si256((const __m256i *)(words + i + 4)));
        a2 = _mm256_add_epi64(a2, _mm256_loadu_si256((const __m256i *)(words + i + 8)));
        a3 = _mm256_add_epi64(a3, _mm256_loadu_si256((const __m256i *)(words + i + 12)));
    }
    *done = i;
    uint64_t lanes[4];
    _mm256_storeu_si256((__m256i *)lanes, _mm256_add_epi64(_mm256_add_epi64(a0, a1), _mm256_add_epi64(a2, a3)));
    return lanes[0] + lanes[1] + lanes[2] + lanes[3];
}
#endif

/// 128-bit vectors every target has (SSE2 on x86-64, NEON on arm64), written with the compilers' vector type.
typedef uint64_t fmk_u64x2 __attribute__((vector_size(16)));

static uint64_t stream_sum_portable(const uint64_t *words, size_t count, size_t *done) {
    fmk_u64x2 a0 = {0, 0}, a1 = a0, a2 = a0, a3 = a0;
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        stream_ahead(words + i, 8 * sizeof *words);
        fmk_u64x2 x0, x1, x2, x3;
        memcpy(&x0, words + i, sizeof x0);
        memcpy(&x1, words + i + 2, sizeof x1);
        memcpy(&x2, words + i + 4, sizeof x2);
        memcpy(&x3, words + i + 6, sizeof x3);
        a0 += x0;
        a1 += x1;
        a2 += x2;
        a3 += x3;
    }
    *done = i;
    fmk_u64x2 total = (a0 + a1) + (a2 + a3);
    return total[0] + total[1];
}

uint64_t fmk_stream_sum(const uint64_t *words, size_t count) {
    size_t done = 0;
    uint64_t sum;
#ifdef FMK_X86
    int level = fmk_active_level();
    if (level == FMK_LEVEL_AVX512VNNI) sum = stream_sum_avx512(words, count, &done);
    else if (level == FMK_LEVEL_AVX2) sum = stream_sum_avx2(words, count, &done);
    else sum = stream_sum_portable(words, count, &done);
#else
    sum = stream_sum_portable(words, count, &done);
#endif
    for (size_t i = done; i < count; i++) sum += words[i];
    return sum;
}
