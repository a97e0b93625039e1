// FMKernels: innermost quantized dot-product kernels with run-time CPU dispatch.
//
// Weights stay in ggml's block layouts (Q4_1: f16 d, f16 m, 16 nibble bytes; Q8_0: f16 d, 32 int8).
// Activations are quantized per 32-element block into a struct-of-arrays row: `qs` (n int8),
// `d` (n/32 scales, already rounded to f16 and widened) and, for Q8_1, `s` (n/32 values d*sum(qs),
// rounded through f16). This is llama.cpp's numerics: integer block dot products, F32 accumulation.
#pragma once
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Elements per quantization block.
#define FMK_BLOCK 32

/// Kernel implementation levels. Every level computes the same bits: the integer block dot products
/// are exact, and the floats are summed in one order (ggml's x86 one: eight lane accumulators, one fused
/// multiply-add per block and lane, the lanes added pairwise, the minimums in their own fused chain).
typedef enum {
    FMK_LEVEL_PORTABLE = 0,
    FMK_LEVEL_AVX2 = 1,
    FMK_LEVEL_AVX512VNNI = 2,
    FMK_LEVEL_NEON = 3,
    FMK_LEVEL_NEON_DOTPROD = 4,
} fmk_level;

/// Level values run from 0 to FMK_LEVEL_COUNT - 1.
#define FMK_LEVEL_COUNT 5

/// Whether this CPU runs `level`: portable everywhere, AVX2 and AVX-512 VNNI on x86-64 CPUs with those
/// extensions, plain NEON on arm64, NEON with the dot-product extension where the CPU has it.
int fmk_level_available(int level);
/// The fastest level this CPU supports.
int fmk_detected_level(void);
/// The level kernels use on the calling thread: its `fmk_set_level` choice, else the detected level.
int fmk_active_level(void);
/// Selects `level` for the calling thread only (-1: none, back to the detected level); returns 0, or
/// -1 without changing anything when this CPU does not run `level`.
int fmk_set_level(int level);
/// The calling thread's `fmk_set_level` choice, or -1 when it has none.
int fmk_thread_level(void);
/// A short name for a level ("portable", "avx2", "avx512-vnni", "neon", "neon-dotprod").
const char *fmk_level_name(int level);

/// IEEE half (bits) to float.
float fmk_f16_to_f32(uint16_t h);
/// Float to IEEE half bits, rounding to nearest even.
uint16_t fmk_f32_to_f16(float f);
/// Converts `n` floats to halves.
void fmk_f32_to_f16_row(const float *x, uint16_t *y, int n);
/// Converts `n` floats to halves `y_stride` halves apart (a column of a transposed half matrix).
void fmk_f32_to_f16_strided(const float *x, uint16_t *y, size_t y_stride, int n);
/// Rotates each pair (2i, 2i+1) of `heads` heads (`head_dim` floats apart; the first `pairs` pairs of
/// each) by the angle whose cosine and sine are cosines[i], sines[i], with ggml's fused roundings.
void fmk_rope(float *x, int heads, int head_dim, int pairs, const float *cosines, const float *sines);

/// Quantizes `n` floats (a multiple of 32) to Q8_1 blocks: qs[n], d[n/32], s[n/32].
void fmk_quantize_q8_1(const float *x, int n, int8_t *qs, float *d, float *s);
/// Quantizes `n` floats (a multiple of 32) to Q8_0 blocks: qs[n], d[n/32].
void fmk_quantize_q8_0(const float *x, int n, int8_t *qs, float *d);

/// out[r] = row r of Q4_1 matrix `w` (rows of `n` elements) · Q8_1 activations, for r in [row0, row1).
void fmk_matvec_q4_1(const void *w, int n, int row0, int row1,
                     const int8_t *xq, const float *xd, const float *xs, float *out);
/// Whether `level`'s decode kernel (`fmk_matmul_q4_1_packed`) reads Q4_1 rows packed by `fmk_pack_q4_1`
/// (AVX-512 VNNI, AVX2); the other levels read ggml's layout only.
int fmk_level_packs_q4_1(int level);
/// Rows in a group of Q4_1 rows packed by `fmk_pack_q4_1`.
#define FMK_Q4_1_PACK_ROWS 16
/// Copies `rows` (a multiple of `FMK_Q4_1_PACK_ROWS`) Q4_1 rows of `n` elements from `w` into `out` (as
/// many bytes) in groups of that many rows: for each block of a group, the rows' f16 scales, their f16
/// minimums, then four vectors of which vector v holds nibble bytes 4v..4v+3 of each row in turn, so
/// one load serves every row of the group (the layout of the AVX-512 prefill tile).
void fmk_pack_q4_1(const void *w, int rows, int n, void *out);
/// The decode product: `fmk_matvec_q4_1` for each of `ntok` tokens (laid out as for `fmk_matmul_q4_1`),
/// with identical bits, reading the whole groups of rows inside [row0, row1) from `packed` (`w`
/// packed by `fmk_pack_q4_1`, or NULL) at a level that packs (AVX-512: three tokens per weight block;
/// AVX2: one, eight rows at a time), and the rest from `w`.
void fmk_matmul_q4_1_packed(const void *w, const void *packed, int n, int row0, int row1, const int8_t *xq,
                            const float *xd, const float *xs, int ntok, float *out, size_t out_stride);
/// Batched: out[t*out_stride + r] = row r · token t, for `ntok` tokens stored consecutively
/// (token t at xq + t*n, xd + t*n/32, xs + t*n/32).
void fmk_matmul_q4_1(const void *w, int n, int row0, int row1,
                     const int8_t *xq, const float *xd, const float *xs,
                     int ntok, float *out, size_t out_stride);
/// Batched as `fmk_matmul_q4_1`, with identical bits, for prefill: register tiles of sixteen rows × three
/// tokens (AVX-512; eight × one with AVX2) over weights regrouped per call (unpacked once per call, not
/// once per four tokens). On the portable and NEON levels it is `fmk_matmul_q4_1`.
void fmk_matmul_q4_1_tiled(const void *w, int n, int row0, int row1,
                           const int8_t *xq, const float *xd, const float *xs,
                           int ntok, float *out, size_t out_stride);

/// out[r] = row r of Q8_0 matrix `w` · Q8_0 activations (quants in -127...127, as the quantizer makes
/// them), for r in [row0, row1). When `mask` is not
/// NULL, rows whose bit (mask[r/32] >> (r%32)) & 1 is 0 are skipped and get -infinity.
void fmk_matvec_q8_0(const void *w, int n, int row0, int row1,
                     const int8_t *xq, const float *xd, const uint32_t *mask, float *out);
/// The output layer of a step: for each of `ntok` tokens, `fmk_matvec_q8_0` (the same bits) with the
/// token's activations at xq[t], xd[t], its mask masks[t] (NULL: every row allowed) and its logits into
/// outs[t]. At AVX-512 VNNI each weight block is read once for up to four tokens whose masks allow its
/// four rows.
void fmk_logits_q8_0(const void *w, int n, int row0, int row1, int ntok, const int8_t *const *xq,
                     const float *const *xd, const uint32_t *const *masks, float *const *outs);
/// Batched Q8_0 × Q8_0, layout as `fmk_matmul_q4_1`.
void fmk_matmul_q8_0(const void *w, int n, int row0, int row1,
                     const int8_t *xq, const float *xd,
                     int ntok, float *out, size_t out_stride);

/// Attention for `heads` query heads that share keys and values, over `npos` cached positions with half
/// keys and values, llama.cpp's numerics: for head h, scores[t] = scale · q_h·k_t, softmax,
/// out_h[d] = Σ_t p_t v[d][t]. Head h's query is the `dim` halves at q + h*dim (`dim` a multiple of 16),
/// its output at out + h*dim, its scores at scores + h*score_stride (room for `npos` rounded up to 16
/// floats); key t is at k + t*k_stride; values are transposed: element (t, d) at v[d*v_stride + t].
/// `single` selects the summation order llama.cpp uses when the batch is one token (decode). Each head
/// gets the bits it gets alone.
void fmk_attend_f16(const uint16_t *q, int heads, const uint16_t *k, size_t k_stride,
                    const uint16_t *v, size_t v_stride, int npos, int dim, float scale, int single,
                    float *scores, size_t score_stride, float *out);

/// Asks the caches, without waiting, for what `fmk_attend_f16` will read of one key/value head (same
/// layout; the first positions only when there are many), so a decode step can fetch it from memory while
/// it computes the projections before attention.
void fmk_prefetch_kv(const uint16_t *k, size_t k_stride, const uint16_t *v, size_t v_stride, int npos, int dim);

/// The lowest index of the largest of `n` floats above -infinity (NaN never chosen), or -1 when none is.
int32_t fmk_argmax_f32(const float *x, int32_t n);

/// e^x as ggml's AVX-512 vector expf computes it (an approximation within 1.5 ulp, bit-reproducible).
float fmk_exp(float x);
/// gate[i] = silu(gate[i]) × up[i], with silu(x) = x / (1 + fmk_exp(-x)) as ggml's SwiGLU.
void fmk_swiglu(float *gate, const float *up, int n);

/// The ggml tensor types `fmk_dequantize_row` reads, by their ggml (and GGUF) type numbers.
typedef enum {
    FMK_TYPE_F32 = 0,
    FMK_TYPE_F16 = 1,
    FMK_TYPE_Q4_1 = 3,
    FMK_TYPE_Q8_0 = 8,
} fmk_type;

/// Dequantizes one row of `n` elements of ggml type `type` (an `fmk_type`) into floats;
/// returns 0, or -1 for a type this library does not handle.
int fmk_dequantize_row(int type, const void *row, int n, float *out);

/// Reads every 64-bit word of `words[0..count)` once, front to back, and returns their sum (so the reads
/// cannot be left out): the streaming read that the bandwidth probe times.
uint64_t fmk_stream_sum(const uint64_t *words, size_t count);

/// Atomically loads a 64-bit counter (acquire).
int64_t fmk_atomic_load(const int64_t *p);
/// Atomically stores a 64-bit counter (release).
void fmk_atomic_store(int64_t *p, int64_t value);
/// Atomically adds to a 64-bit counter and returns the new value (acquire-release).
int64_t fmk_atomic_add(int64_t *p, int64_t delta);
/// A spin-wait hint to the CPU (`pause` on x86, `yield` on arm64).
void fmk_cpu_relax(void);
/// A cheap monotonic tick count (the time-stamp counter on x86-64, the virtual counter on arm64,
/// nanoseconds elsewhere): only differences on one thread, and their ratios across threads, mean anything.
uint64_t fmk_ticks(void);

#ifdef __cplusplus
}
#endif
