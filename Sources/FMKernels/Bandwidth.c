#include "FMKernels.h"

// Eight independent sums keep eight loads in flight; the compiler turns them into vector loads and adds.
uint64_t fmk_stream_sum(const uint64_t *words, size_t count) {
    uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        s0 += words[i];
        s1 += words[i + 1];
        s2 += words[i + 2];
        s3 += words[i + 3];
        s4 += words[i + 4];
        s5 += words[i + 5];
        s6 += words[i + 6];
        s7 += words[i + 7];
    }
    for (; i < count; i++) s0 += words[i];
    return s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7;
}
