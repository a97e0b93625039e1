// Atomics, spin hints and ticks for the engine's thread pool, plus row dequantization for embeddings.
#include "Internal.h"
#include <string.h>
#include <time.h>

int64_t fmk_atomic_load(const int64_t *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }

void fmk_atomic_store(int64_t *p, int64_t value) { __atomic_store_n(p, value, __ATOMIC_RELEASE); }

int64_t fmk_atomic_add(int64_t *p, int64_t delta) { return __atomic_add_fetch(p, delta, __ATOMIC_ACQ_REL); }

void fmk_cpu_relax(void) {
#ifdef FMK_X86
    _mm_pause();
#elif defined(FMK_ARM64)
    __asm__ __volatile__("yield");
#endif
}

uint64_t fmk_ticks(void) {
#ifdef FMK_X86
    return __builtin_ia32_rdtsc();
#elif defined(FMK_ARM64)
    uint64_t ticks;
    __asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(ticks));
    return ticks;
#else
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
#endif
}

int fmk_dequantize_row(int type, const void *row, int n, float *out) {
    const uint8_t *bytes = (const uint8_t *)row;
    switch (type) {
    case FMK_TYPE_F32:
        for (int i = 0; i < n; i++) memcpy(&out[i], bytes + 4 * i, 4);
        return 0;
    case FMK_TYPE_F16:
        for (int i = 0; i < n; i++) out[i] = fmk_f16_to_f32(fmk_read_u16(bytes + 2 * i));
        return 0;
    case FMK_TYPE_Q4_1:
        for (int b = 0; b < n / FMK_BLOCK; b++) {
            const uint8_t *block = bytes + b * FMK_Q4_1_BYTES;
            float d = fmk_f16_to_f32(fmk_read_u16(block)), m = fmk_f16_to_f32(fmk_read_u16(block + 2));
            for (int j = 0; j < FMK_BLOCK / 2; j++) {
                out[b * FMK_BLOCK + j] = d * (float)(block[4 + j] & 0x0F) + m;
                out[b * FMK_BLOCK + j + FMK_BLOCK / 2] = d * (float)(block[4 + j] >> 4) + m;
            }
        }
        return 0;
    case FMK_TYPE_Q8_0:
        for (int b = 0; b < n / FMK_BLOCK; b++) {
            const uint8_t *block = bytes + b * FMK_Q8_0_BYTES;
            float d = fmk_f16_to_f32(fmk_read_u16(block));
            for (int j = 0; j < FMK_BLOCK; j++) out[b * FMK_BLOCK + j] = d * (float)(int8_t)block[2 + j];
        }
        return 0;
    default:
        return -1;
    }
}
