import FMKernels
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The slice of `0..<count` that thread `worker` of `workers` takes.
@inline(__always) func share(_ count: Int, _ worker: Int, _ workers: Int) -> Range<Int> {
    (count * worker / workers)..<(count * (worker + 1) / workers)
}

/// Quantized activations a matrix product reads: Q8_1 quants, block scales, block sums.
typealias Activations = (UnsafeMutablePointer<Int8>, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>)

extension LlamaModel {
    /// One pass over `tokens` (at most `maxBatch`) at positions `start…`, run by every pool thread.
    /// Threads split matrix rows (each weight byte is read once per pass, by both cores at once) and
    /// tokens or heads for the element-wise steps, meeting at barriers in between.
    func forwardBatch(_ tokens: UnsafeBufferPointer<Int32>, start: Int, worker: Int, logits: Bool,
                      mask: UnsafePointer<UInt32>?) {
        let c = config, b = buffers, n = tokens.count, workers = pool.activeCount
        let dim = c.dim, kvDim = c.kvDim, hiddenDim = c.hiddenDim, headDim = c.headDim
        let mine = share(n, worker, workers)
        for t in mine {
            weights.embed(Int(tokens[t]), into: b.x + t * dim)
            ropeTable(position: start + t, into: t)
        }
        pool.barrier()
        // Each thread normalizes every token into its own buffers (no barrier); only a token's owner
        // writes the updated residual, into the buffer nobody reads in this step.
        let own: Activations = (b.ownQuants + worker * b.batch * dim, b.ownScale + worker * b.batch * dim / 32,
                                b.ownSum + worker * b.batch * dim / 32)
        let normed = b.ownNormed + worker * b.batch * dim
        var current = b.x, next = b.residual
        func residualNorm(_ gain: UnsafePointer<Float>, adding: Bool) {
            for t in 0..<n {
                let y = normed + t * dim, x = current + t * dim, delta = b.projected + t * dim
                if adding {
                    for i in 0..<dim { y[i] = x[i] + delta[i] }
                    if mine.contains(t) { (next + t * dim).update(from: y, count: dim) }
                } else {
                    y.update(from: x, count: dim)
                }
                normalize(y, gain: gain)
                fmk_quantize_q8_1(y, Int32(dim), own.0 + t * dim, own.1 + t * dim / 32, own.2 + t * dim / 32)
            }
            if adding { swap(&current, &next) }
        }
        for l in 0..<c.layerCount {
            let layer = layers[l]
            residualNorm(layer.attentionNorm, adding: l > 0)
            // Q, K and V rows split in whole heads, so each thread rotates and caches the heads it computed.
            let units = share(c.headCount + 2 * c.kvHeadCount, worker, workers), normalized = own
            let qHeads = slice(units, from: 0, count: c.headCount)
            let kHeads = slice(units, from: c.headCount, count: c.kvHeadCount)
            let vHeads = slice(units, from: c.headCount + c.kvHeadCount, count: c.kvHeadCount)
            multiply(layer.query, rows: rows(qHeads), tokens: n, out: b.q, stride: dim, input: normalized)
            multiply(layer.key, rows: rows(kHeads), tokens: n, out: b.k, stride: kvDim, input: normalized)
            multiply(layer.value, rows: rows(vHeads), tokens: n, out: b.v, stride: kvDim, input: normalized)
            let keys = cache.keys(layer: l), values = cache.values(layer: l), capacity = cache.capacity
            for t in 0..<n {
                let position = start + t
                if !qHeads.isEmpty {
                    let offset = t * dim + qHeads.lowerBound * headDim
                    rotate(b.q + offset, heads: qHeads.count, token: t)
                    fmk_f32_to_f16_row(b.q + offset, b.queryHalf + offset, Int32(qHeads.count * headDim))
                }
                if !kHeads.isEmpty {
                    let offset = kHeads.lowerBound * headDim
                    rotate(b.k + t * kvDim + offset, heads: kHeads.count, token: t)
                    fmk_f32_to_f16_row(b.k + t * kvDim + offset, keys + position * kvDim + offset, Int32(kHeads.count * headDim))
                }
                for i in rows(vHeads) { values[i * capacity + position] = fmk_f32_to_f16(b.v[t * kvDim + i]) }
            }
            pool.barrier()
            let group = c.headCount / c.kvHeadCount, scale = 1 / Float(headDim).squareRoot()
            for pair in share(n * c.headCount, worker, workers) {
                let t = pair / c.headCount, head = pair % c.headCount, kvOffset = (head / group) * headDim
                fmk_attend_f16(b.queryHalf + t * dim + head * headDim, keys + kvOffset, kvDim, values + kvOffset * capacity,
                               capacity, Int32(start + t + 1), Int32(headDim), scale, n == 1 ? 1 : 0,
                               b.scores + worker * b.scoreStride,
                               b.attention + t * dim + head * headDim)
                // Q8_1 blocks are independent, so a head quantizes itself when its width is whole blocks.
                if headsQuantizeAlone { quantize(b.attention, at: t * dim + head * headDim, count: headDim) }
            }
            if !headsQuantizeAlone {
                pool.barrier()
                for t in mine { quantize(b.attention + t * dim, count: dim, token: t) }
            }
            pool.barrier()
            multiply(layer.attentionOutput, tokens: n, out: b.projected, stride: dim, worker: worker, workers: workers)
            pool.barrier()
            residualNorm(layer.ffnNorm, adding: true)
            // Rows split in whole Q8_1 blocks: each thread applies SwiGLU to and quantizes its own rows.
            let blocks = share(hiddenDim / 32, worker, workers), own = (blocks.lowerBound * 32)..<(blocks.upperBound * 32)
            multiply(layer.gate, rows: own, tokens: n, out: b.hidden, stride: hiddenDim, input: normalized)
            multiply(layer.up, rows: own, tokens: n, out: b.hidden2, stride: hiddenDim, input: normalized)
            for t in 0..<n where !own.isEmpty {
                let offset = t * hiddenDim + own.lowerBound
                fmk_swiglu(b.hidden + offset, b.hidden2 + offset, Int32(own.count))
                fmk_quantize_q8_1(b.hidden + offset, Int32(own.count), b.hiddenQuants + offset,
                                  b.hiddenScale + offset / 32, b.hiddenSum + offset / 32)
            }
            pool.barrier()
            multiply(layer.down, rows: share(layer.down.rows, worker, workers), tokens: n, out: b.projected, stride: dim,
                     input: (b.hiddenQuants, b.hiddenScale, b.hiddenSum))
            pool.barrier()
        }
        guard logits else { return }
        let last = n - 1
        if worker == 0 {
            add(b.projected + last * dim, into: current + last * dim, count: dim)
            normalizeAndQuantize(current + last * dim, gain: outputNorm, token: 0)
        }
        pool.barrier()
        let rows = share(c.vocabSize, worker, workers), out = weights.output
        if out.type == .q8_0 {
            fmk_matvec_q8_0(out.data, Int32(out.cols), Int32(rows.lowerBound), Int32(rows.upperBound),
                            b.actQuants, b.actScale, mask, b.logits)
        } else {
            fmk_matvec_q4_1(out.data, Int32(out.cols), Int32(rows.lowerBound), Int32(rows.upperBound),
                            b.actQuants, b.actScale, b.actSum, b.logits)
            if let mask {
                for r in rows where (mask[r >> 5] >> UInt32(r & 31)) & 1 == 0 { b.logits[r] = -.infinity }
            }
        }
    }

    /// The part of `units` that falls in `first..<first + count`, relative to `first`.
    @inline(__always)
    private func slice(_ units: Range<Int>, from first: Int, count: Int) -> Range<Int> {
        let lower = min(max(units.lowerBound, first), first + count) - first
        return lower..<max(lower, min(units.upperBound, first + count) - first)
    }

    /// The matrix rows of `heads`.
    @inline(__always)
    private func rows(_ heads: Range<Int>) -> Range<Int> {
        (heads.lowerBound * config.headDim)..<(heads.upperBound * config.headDim)
    }

    /// Whether attention head outputs span whole Q8_1 blocks, so each can be quantized on its own.
    private var headsQuantizeAlone: Bool { config.headDim % 32 == 0 }

    /// `out[t*stride + r] = row r · activations of token t` for this thread's share of rows.
    @inline(__always)
    private func multiply(_ m: QuantMatrix, tokens: Int, out: UnsafeMutablePointer<Float>, stride: Int,
                          worker: Int, workers: Int) {
        multiply(m, rows: share(m.rows, worker, workers), tokens: tokens, out: out, stride: stride,
                 input: (buffers.actQuants, buffers.actScale, buffers.actSum))
    }

    /// `out[t*stride + r] = row r · activations of token t` for `rows`, activations quantized in `input`.
    @inline(__always)
    private func multiply(_ m: QuantMatrix, rows: Range<Int>, tokens: Int, out: UnsafeMutablePointer<Float>,
                          stride: Int, input: Activations) {
        let (quants, scales, sums) = input
        let (r0, r1, cols) = (Int32(rows.lowerBound), Int32(rows.upperBound), Int32(m.cols))
        switch (m.type == .q8_0, tokens == 1) {
        case (false, true): fmk_matvec_q4_1(m.data, cols, r0, r1, quants, scales, sums, out)
        case (false, false): fmk_matmul_q4_1(m.data, cols, r0, r1, quants, scales, sums, Int32(tokens), out, stride)
        case (true, true): fmk_matvec_q8_0(m.data, cols, r0, r1, quants, scales, nil, out)
        case (true, false): fmk_matmul_q8_0(m.data, cols, r0, r1, quants, scales, Int32(tokens), out, stride)
        }
    }

    /// Quantizes `count` floats into token `t`'s slot of the activation buffers (rows `count` wide).
    @inline(__always)
    private func quantize(_ x: UnsafeMutablePointer<Float>, count: Int, token t: Int) {
        let b = buffers
        fmk_quantize_q8_1(x, Int32(count), b.actQuants + t * count, b.actScale + t * count / 32, b.actSum + t * count / 32)
    }

    /// Quantizes `count` floats (whole blocks) at element `offset` of a token-major activation array
    /// into the same offset of the activation buffers.
    @inline(__always)
    private func quantize(_ x: UnsafeMutablePointer<Float>, at offset: Int, count: Int) {
        let b = buffers
        fmk_quantize_q8_1(x + offset, Int32(count), b.actQuants + offset, b.actScale + offset / 32, b.actSum + offset / 32)
    }

    /// RMSNorm of `x` (as ggml: sum of squares in double) times `gain` into `xb`, then quantized.
    private func normalizeAndQuantize(_ x: UnsafeMutablePointer<Float>, gain: UnsafePointer<Float>, token t: Int) {
        let out = buffers.xb + t * config.dim
        out.update(from: x, count: config.dim)
        normalize(out, gain: gain)
        quantize(out, count: config.dim, token: t)
    }

    /// RMSNorm in place (as ggml: sum of squares in double), times `gain`.
    @inline(__always)
    private func normalize(_ x: UnsafeMutablePointer<Float>, gain: UnsafePointer<Float>) {
        let dim = config.dim
        var sum = 0.0
        for i in 0..<dim { sum += Double(x[i] * x[i]) }
        let mean = Float(sum / Double(dim))
        let scale = 1 / (mean + config.rmsEpsilon).squareRoot()
        for i in 0..<dim { x[i] = x[i] * scale * gain[i] }
    }

    @inline(__always)
    private func add(_ delta: UnsafePointer<Float>, into x: UnsafeMutablePointer<Float>, count: Int) {
        for i in 0..<count { x[i] += delta[i] }
    }

    /// cos/sin of RoPE angles for `position`, as ggml computes them (θ multiplied pair by pair).
    private func ropeTable(position: Int, into slot: Int) {
        let pairs = config.ropeDimensions / 2
        let step = powf(config.ropeFrequencyBase, -2 / Float(config.ropeDimensions))
        var theta = Float(position)
        for i in 0..<pairs {
            buffers.ropeCos[slot * pairs + i] = cosf(theta)
            buffers.ropeSin[slot * pairs + i] = sinf(theta)
            theta *= step
        }
    }

    /// RoPE, NORM mode: rotates adjacent pairs of the first `ropeDimensions` of each head.
    private func rotate(_ x: UnsafeMutablePointer<Float>, heads: Int, token: Int) {
        let pairs = config.ropeDimensions / 2, headDim = config.headDim
        let cosines = buffers.ropeCos + token * pairs, sines = buffers.ropeSin + token * pairs
        for h in 0..<heads {
            let v = x + h * headDim
            for i in 0..<pairs {
                let (x0, x1, cs, sn) = (v[2 * i], v[2 * i + 1], cosines[i], sines[i])
                // Fused as GCC contracts ggml's `x0*cos - x1*sin` and `x0*sin + x1*cos`.
                v[2 * i] = (-(x1 * sn)).addingProduct(x0, cs)
                v[2 * i + 1] = (x1 * cs).addingProduct(x0, sn)
            }
        }
    }
}
