import FMKernels
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bits per word of a token mask: token `id` is bit `id % tokenMaskWordBits` of word `id / tokenMaskWordBits`.
let tokenMaskWordBits = UInt32.bitWidth

/// Whether `mask` (one bit per vocabulary id, set = allowed) allows token `id`.
@inline(__always) func tokenAllowed(_ id: Int, by mask: UnsafePointer<UInt32>) -> Bool {
    (mask[id / tokenMaskWordBits] >> UInt32(id % tokenMaskWordBits)) & 1 != 0
}

/// The slice of `0..<count` that thread `worker` of `workers` takes.
@inline(__always) func share(_ count: Int, _ worker: Int, _ workers: Int) -> Range<Int> {
    (count * worker / workers)..<(count * (worker + 1) / workers)
}

/// A weight matrix as the hot loop sees it: a pointer and sizes, no reference to count. The model's
/// `weights` keep the memory alive.
struct KernelMatrix {
    /// The first byte of row 0.
    let data: UnsafeRawPointer
    /// Output features (rows) and input features (elements per row).
    let rows: Int, cols: Int
    /// True for Q8_0 blocks, false for Q4_1.
    let isQ8_0: Bool
    /// The rows packed for the decode kernel (`PackedWeights`), or nil.
    let packed: UnsafeRawPointer?
    /// The bytes of one row.
    let rowBytes: Int

    /// The kernel view of `matrix`, with its packed copy in `packing` if it has one.
    init(_ matrix: QuantMatrix, packing: PackedWeights? = nil) {
        data = matrix.data
        rows = matrix.rows
        cols = matrix.cols
        isQ8_0 = matrix.type == .q8_0
        packed = packing?.packed(matrix)
        rowBytes = matrix.type.rowBytes(matrix.cols) ?? 0
    }
}

/// How a thread's share maps onto heads, matrix rows and buffers, and the kernel calls and element-wise
/// maths (RMSNorm, RoPE) the steps use.
extension ForwardPass {
    /// The part of `units` that falls in `first..<first + count`, relative to `first`.
    @inline(__always)
    func slice(_ units: Range<Int>, from first: Int, count: Int) -> Range<Int> {
        let lower = min(max(units.lowerBound, first), first + count) - first
        return lower..<max(lower, min(units.upperBound, first + count) - first)
    }

    /// This thread's part of `count` units (rows, heads or blocks) of `phase`, in multiples of
    /// `granularity`: the learned shares (`WorkShares`) in a decode step, even shares in prefill.
    @inline(__always)
    func part(_ phase: WorkShares.Phase, count: Int, granularity: Int = 1) -> Range<Int> {
        guard decoding else { return share(count, worker, workers) }
        return model.workShares.range(phase, count: count, granularity: granularity, worker: worker)
    }

    /// In a decode step, adds the ticks since `begin` that this thread spent on its `units` of `phase`
    /// to what the next rebalance reads.
    @inline(__always)
    func record(_ phase: WorkShares.Phase, units: Int, since begin: UInt64) {
        guard decoding else { return }
        model.workShares.record(phase, worker: worker, units: units, ticks: fmk_ticks() &- begin)
    }

    /// The matrix rows of `heads`.
    @inline(__always)
    func rows(_ heads: Range<Int>) -> Range<Int> {
        (heads.lowerBound * c.headDim)..<(heads.upperBound * c.headDim)
    }

    /// Whether attention head outputs span whole Q8_1 blocks, so each can be quantized on its own.
    var headsQuantizeAlone: Bool { c.headDim % quantBlock == 0 }

    /// Prefill passes of fewer tokens than this multiply packed Q4_1 rows (`fmk_matmul_q4_1_packed`)
    /// rather than with the model's `prefillKernel`: the tile kernel regroups the weights on every call,
    /// which short passes do not repay. Measured crossover (C harness, all SmolLM2-135M layers, two
    /// threads): packed 2.2× faster at 8 tokens, 1.3× at 16, even at 32, tiles 1.2× faster at 64.
    static let packedPassTokens = 32

    /// `out[t*stride + r] = row r · activations of token t` for `rows`, activations quantized in `input`;
    /// picks the kernel for the weight layout and for one token (decode) or several (prefill, Q4_1 in
    /// the packed kernel below `packedPassTokens` where there is a packed copy, else the model's
    /// `prefillKernel`); the tokens of a batched decode step keep the one-token kernel's floats
    /// (`multiplyDecodeBatch`).
    @inline(__always)
    func multiply(_ m: KernelMatrix, rows: Range<Int>, tokens: Int, out: UnsafeMutablePointer<Float>,
                  stride: Int, input: Activations) {
        if decoding && tokens > 1 {
            multiplyDecodeBatch(m, rows: rows, tokens: tokens, out: out, stride: stride, input: input)
            return
        }
        let (quants, scales, sums) = input
        let (r0, r1, cols) = (Int32(rows.lowerBound), Int32(rows.upperBound), Int32(m.cols))
        // One token always takes the packed kernel, which reads ggml's layout where there is no packed copy.
        let packedKernel = tokens == 1 || (m.packed != nil && tokens < Self.packedPassTokens)
        switch (m.isQ8_0, tokens == 1) {
        case (false, _) where packedKernel:
            fmk_matmul_q4_1_packed(m.data, m.packed, cols, r0, r1, quants, scales, sums, Int32(tokens), out, stride)
        case (false, _) where model.prefillKernel == .tiles:
            fmk_matmul_q4_1_tiled(m.data, cols, r0, r1, quants, scales, sums, Int32(tokens), out, stride)
        case (false, _): fmk_matmul_q4_1(m.data, cols, r0, r1, quants, scales, sums, Int32(tokens), out, stride)
        case (true, true): fmk_matvec_q8_0(m.data, cols, r0, r1, quants, scales, nil, out)
        case (true, false): fmk_matmul_q8_0(m.data, cols, r0, r1, quants, scales, Int32(tokens), out, stride)
        }
    }

    /// Quantizes `count` floats into token `t`'s slot of the activation buffers (rows `count` wide).
    @inline(__always)
    func quantize(_ x: UnsafeMutablePointer<Float>, count: Int, token t: Int) {
        fmk_quantize_q8_1(x, Int32(count), b.actQuants + t * count, b.actScale + t * count / quantBlock,
                          b.actSum + t * count / quantBlock)
    }

    /// Quantizes `count` floats (whole blocks) at element `offset` of a token-major activation array
    /// into the same offset of the activation buffers.
    @inline(__always)
    func quantize(_ x: UnsafeMutablePointer<Float>, at offset: Int, count: Int) {
        fmk_quantize_q8_1(x + offset, Int32(count), b.actQuants + offset, b.actScale + offset / quantBlock,
                          b.actSum + offset / quantBlock)
    }

    /// RMSNorm in place (as ggml: sum of squares in double, in element order), times `gain`, for
    /// `count` rows `stride` floats apart. Each row's sum is its own chain of dependent additions; rows
    /// are summed four at a time so the chains overlap (a lone row's sum waits on every addition).
    @inline(__always)
    func rmsNorm(_ rows: UnsafeMutablePointer<Float>, stride: Int, count: Int, gain: UnsafePointer<Float>) {
        let dim = c.dim
        for first in Swift.stride(from: 0, to: count, by: 4) {
            // A group of fewer than four rows repeats its first row in the missing chains.
            let row = { (k: Int) in rows + (first + (first + k < count ? k : 0)) * stride }
            let (x0, x1, x2, x3) = (row(0), row(1), row(2), row(3))
            var (s0, s1, s2, s3) = (0.0, 0.0, 0.0, 0.0)
            for i in 0..<dim {
                s0 += Double(x0[i] * x0[i])
                s1 += Double(x1[i] * x1[i])
                s2 += Double(x2[i] * x2[i])
                s3 += Double(x3[i] * x3[i])
            }
            for k in 0..<min(4, count - first) {
                let x = rows + (first + k) * stride, sum = k == 0 ? s0 : k == 1 ? s1 : k == 2 ? s2 : s3
                let scale = 1 / (Float(sum / Double(dim)) + c.rmsEpsilon).squareRoot()
                for i in 0..<dim { x[i] = x[i] * scale * gain[i] }
            }
        }
    }

    /// cos/sin of RoPE angles for `position`, as ggml computes them (θ multiplied pair by pair).
    func ropeTable(position: Int, into slot: Int) {
        let pairs = c.ropeDimensions / 2
        let step = powf(c.ropeFrequencyBase, -2 / Float(c.ropeDimensions))
        var theta = Float(position)
        for i in 0..<pairs {
            b.ropeCos[slot * pairs + i] = cosf(theta)
            b.ropeSin[slot * pairs + i] = sinf(theta)
            theta *= step
        }
    }

    /// RoPE, NORM mode: rotates adjacent pairs of the first `ropeDimensions` of each head.
    func rotate(_ x: UnsafeMutablePointer<Float>, heads: Int, token: Int) {
        let pairs = c.ropeDimensions / 2
        fmk_rope(x, Int32(heads), Int32(c.headDim), Int32(pairs), b.ropeCos + token * pairs, b.ropeSin + token * pairs)
    }
}
