import FMKernels

/// The steps of `forwardBatch`, in the order it calls them. Each computes this thread's share and, when
/// other threads read its results next, ends at a barrier.
extension ForwardPass {
    /// x = the embedding of each token this thread owns; also the RoPE angles of its positions.
    func embed() {
        for t in mine {
            model.weights.embed(Int(tokens[t]), into: b.x + t * c.dim)
            ropeTable(position: places[t].position, into: t)
        }
        pool.barrier()
    }

    /// h = RMSNorm(x) · gain for every token, quantized for the next projections; first, when
    /// `addingBlockOutput`, x += the previous block's output (`projected`).
    ///
    /// Every thread normalizes every token into its own buffers (no barrier); only a token's owner
    /// writes the updated residual, into the buffer nobody reads in this step.
    @inline(__always)
    mutating func normalize(gain: UnsafePointer<Float>, addingBlockOutput adding: Bool) {
        let dim = c.dim
        for t in 0..<tokens.count {
            let y = normed + t * dim, x = current + t * dim, delta = b.projected + t * dim
            if adding {
                for i in 0..<dim { y[i] = x[i] + delta[i] }
                if mine.contains(t) { (next + t * dim).update(from: y, count: dim) }
            } else {
                y.update(from: x, count: dim)
            }
        }
        rmsNorm(normed, stride: dim, count: tokens.count, gain: gain)
        for t in 0..<tokens.count {
            let (y, block) = (normed + t * dim, t * dim / quantBlock)
            fmk_quantize_q8_1(y, Int32(dim), own.0 + t * dim, own.1 + block, own.2 + block)
        }
        if adding { swap(&current, &next) }
    }

    /// q, k, v = Wq·h, Wk·h, Wv·h; RoPE on q and k; k and v stored in the KV cache of `layer` at
    /// each token's position; q rounded to half for attention.
    ///
    /// Rows are split in whole heads, so each thread rotates and caches the heads it computed.
    @inline(__always)
    func queryKeyValue(query: KernelMatrix, key: KernelMatrix, value: KernelMatrix, layer: Int) {
        let (dim, kvDim, headDim, n) = (c.dim, c.kvDim, c.headDim, tokens.count)
        if decoding { prefetchAttention(layer: layer) }
        let units = part(.queryKeyValue, count: c.headCount + 2 * c.kvHeadCount)
        let qHeads = slice(units, from: 0, count: c.headCount)
        let kHeads = slice(units, from: c.headCount, count: c.kvHeadCount)
        let vHeads = slice(units, from: c.headCount + c.kvHeadCount, count: c.kvHeadCount)
        let begin = fmk_ticks()
        multiply(query, rows: rows(qHeads), tokens: n, out: b.q, stride: dim, input: own)
        multiply(key, rows: rows(kHeads), tokens: n, out: b.k, stride: kvDim, input: own)
        multiply(value, rows: rows(vHeads), tokens: n, out: b.v, stride: kvDim, input: own)
        for t in 0..<n {
            let place = places[t], position = place.position, capacity = place.capacity
            let keys = place.keys(layer: layer, kvDim: kvDim), values = place.values(layer: layer, kvDim: kvDim)
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
            let vRows = rows(vHeads)
            fmk_f32_to_f16_strided(b.v + t * kvDim + vRows.lowerBound, values + vRows.lowerBound * capacity + position,
                                   capacity, Int32(vRows.count))
        }
        record(.queryKeyValue, units: units.count, since: begin)
        pool.barrier()
    }

    /// attention = softmax(q·Kᵀ / √headDim) · V for each head of each token over positions `0...token`
    /// of `layer`'s cache (grouped-query: each key/value head serves `headCount / kvHeadCount` query
    /// heads, which one call takes together so they share each load of a key and a value), quantized for
    /// the output projection. Threads take (token, key/value head) pairs in turn, so each gets as many
    /// late tokens (long attention spans) as early ones; the pairs left over when they do not divide
    /// among the threads (the third head of a one-token step on two threads) are split by query head,
    /// which gets each head the same bits.
    @inline(__always)
    func attention(layer: Int) {
        forEachAttendedPair { attend(pair: $0, heads: $1, layer: layer) }
        if !headsQuantizeAlone {
            pool.barrier()
            for t in mine { quantize(b.attention + t * c.dim, count: c.dim, token: t) }
        }
        pool.barrier()
    }

    /// Calls `body` with each (token · kvHeadCount + key/value head) pair this thread attends, in order, and
    /// the query heads of the pair's group it takes: every head of the pairs dealt in turn, a share of the
    /// heads of the pairs left over.
    @inline(__always)
    func forEachAttendedPair(_ body: (Int, Range<Int>) -> Void) {
        let pairs = tokens.count * c.kvHeadCount, group = c.headCount / c.kvHeadCount
        let whole = pairs - pairs % workers
        for pair in stride(from: worker, to: whole, by: workers) { body(pair, 0..<group) }
        let leftover = share((pairs - whole) * group, worker, workers)
        for pair in whole..<pairs {
            let first = (pair - whole) * group
            let heads = leftover.clamped(to: first..<(first + group))
            guard !heads.isEmpty else { continue }
            body(pair, (heads.lowerBound - first)..<(heads.upperBound - first))
        }
    }

    /// Asks the caches for the keys and values this thread's attention of `layer` will read (the positions
    /// cached before this step), so they arrive while the projections run: between two tokens the weights
    /// stream evicts them, and attention's scattered reads would otherwise wait on memory one by one.
    @inline(__always)
    func prefetchAttention(layer: Int) {
        forEachAttendedPair { pair, _ in
            let place = places[pair / c.kvHeadCount], kvOffset = (pair % c.kvHeadCount) * c.headDim
            let keys = place.keys(layer: layer, kvDim: c.kvDim), values = place.values(layer: layer, kvDim: c.kvDim)
            fmk_prefetch_kv(keys + kvOffset, c.kvDim, values + kvOffset * place.capacity, place.capacity,
                            Int32(place.position), Int32(c.headDim))
        }
    }

    /// Attention for query heads `heads` (of the group of `pair`'s key/value head) of `pair`'s token:
    /// `pair` is token · kvHeadCount + key/value head.
    @inline(__always)
    func attend(pair: Int, heads: Range<Int>, layer: Int) {
        let (dim, headDim) = (c.dim, c.headDim)
        let group = c.headCount / c.kvHeadCount, scale = 1 / Float(headDim).squareRoot()
        let t = pair / c.kvHeadCount, kvHead = pair % c.kvHeadCount, kvOffset = kvHead * headDim
        let place = places[t], capacity = place.capacity
        let first = t * dim + (kvHead * group + heads.lowerBound) * headDim
        let keys = place.keys(layer: layer, kvDim: c.kvDim), values = place.values(layer: layer, kvDim: c.kvDim)
        fmk_attend_f16(b.queryHalf + first, Int32(heads.count), keys + kvOffset, c.kvDim, values + kvOffset * capacity,
                       capacity, Int32(place.position + 1), Int32(headDim), scale, decoding ? 1 : 0,
                       b.scores + worker * group * b.scoreStride, b.scoreStride, b.attention + first)
        // Q8_1 blocks are independent, so heads quantize themselves when their width is whole blocks.
        if headsQuantizeAlone { quantize(b.attention, at: first, count: heads.count * headDim) }
    }

    /// projected = W · input for every token: a block's output, which the next step adds to x. `phase`
    /// names the matrix for the threads' shares.
    @inline(__always)
    func project(_ m: KernelMatrix, input: Activations, phase: WorkShares.Phase) {
        let rows = part(phase, count: m.rows, granularity: Int(FMK_Q4_1_PACK_ROWS)), begin = fmk_ticks()
        multiply(m, rows: rows, tokens: tokens.count, out: b.projected, stride: c.dim, input: input)
        record(phase, units: rows.count, since: begin)
        pool.barrier()
    }

    /// hidden = SiLU(Wg·h) ⊙ (Wu·h), quantized for the down projection.
    ///
    /// Rows are split in whole Q8_1 blocks, so each thread applies SwiGLU to and quantizes its own rows.
    @inline(__always)
    func swiGLU(gate: KernelMatrix, up: KernelMatrix) {
        let hiddenDim = c.hiddenDim, n = tokens.count
        let blocks = part(.gateUp, count: hiddenDim / quantBlock), begin = fmk_ticks()
        let myRows = (blocks.lowerBound * quantBlock)..<(blocks.upperBound * quantBlock)
        multiply(gate, rows: myRows, tokens: n, out: b.hidden, stride: hiddenDim, input: own)
        multiply(up, rows: myRows, tokens: n, out: b.hidden2, stride: hiddenDim, input: own)
        for t in 0..<n where !myRows.isEmpty {
            let offset = t * hiddenDim + myRows.lowerBound
            fmk_swiglu(b.hidden + offset, b.hidden2 + offset, Int32(myRows.count))
            fmk_quantize_q8_1(b.hidden + offset, Int32(myRows.count), b.hiddenQuants + offset,
                              b.hiddenScale + offset / quantBlock, b.hiddenSum + offset / quantBlock)
        }
        record(.gateUp, units: blocks.count, since: begin)
        pool.barrier()
    }

    /// logits = output · RMSNorm(x + projected) · gain for the last token (every token of a decode
    /// step), into each token's `places` destination. With a token's mask, rows it forbids get
    /// -infinity (the Q8_0 kernel skips them). A Q8_0 layer takes every token in one call
    /// (`outputLayer`); Q4_1 rows are taken in tiles, every token's logits per tile, so a batched step
    /// reads each output row from memory once.
    @inline(__always)
    func logits(gain: UnsafePointer<Float>, output: KernelMatrix) {
        let dim = c.dim, n = tokens.count
        let first = decoding ? 0 : n - 1
        let owned = share(n - first, worker, workers)
        for j in owned {
            let t = first + j
            let x = current + t * dim, delta = b.projected + t * dim
            for i in 0..<dim { x[i] += delta[i] }
            (b.xb + j * dim).update(from: x, count: dim)
        }
        rmsNorm(b.xb + owned.lowerBound * dim, stride: dim, count: owned.count, gain: gain)
        for j in owned { quantize(b.xb + j * dim, count: dim, token: j) }
        pool.barrier()
        let rows = part(.outputHead, count: c.vocabSize, granularity: 4), blocks = dim / quantBlock
        // Under a mask the kernel skips forbidden rows, so the work no longer follows the rows: such steps
        // teach the shares nothing.
        let begin = fmk_ticks(), masked = (first..<n).contains { places[$0].mask != nil }
        defer { if !masked { record(.outputHead, units: rows.count, since: begin) } }
        if output.isQ8_0 {
            outputLayer(output, rows: rows, tokens: first..<n)
            return
        }
        let tile = tileRows(rowBytes: output.rowBytes)
        var r0 = rows.lowerBound
        while r0 < rows.upperBound {
            let r1 = min(rows.upperBound, r0 + tile)
            for t in first..<n {
                let j = t - first, place = places[t]
                guard let out = place.logits else { continue }
                let (q, d, s) = (b.actQuants + j * dim, b.actScale + j * blocks, b.actSum + j * blocks)
                fmk_matvec_q4_1(output.data, Int32(output.cols), Int32(r0), Int32(r1), q, d, s, out)
                if let mask = place.mask {
                    for r in r0..<r1 where !tokenAllowed(r, by: mask) { out[r] = -.infinity }
                }
            }
            r0 = r1
        }
    }

    /// This thread's `rows` of the Q8_0 output layer for `tokens` (slots of the activation buffers from
    /// the first) that have a logits destination, in one `fmk_logits_q8_0` call: the kernel reads each
    /// weight block once for several tokens.
    @inline(__always)
    func outputLayer(_ output: KernelMatrix, rows: Range<Int>, tokens: Range<Int>) {
        let dim = c.dim, blocks = dim / quantBlock
        withUnsafeTemporaryAllocation(of: UnsafeRawPointer?.self, capacity: 4 * tokens.count) { slots in
            let slot = UnsafeMutableRawPointer(slots.baseAddress!)
            let stride = tokens.count * MemoryLayout<UnsafeRawPointer?>.stride
            let quants = slot.bindMemory(to: UnsafePointer<Int8>?.self, capacity: tokens.count)
            let scales = (slot + stride).bindMemory(to: UnsafePointer<Float>?.self, capacity: tokens.count)
            let masks = (slot + 2 * stride).bindMemory(to: UnsafePointer<UInt32>?.self, capacity: tokens.count)
            let outs = (slot + 3 * stride).bindMemory(to: UnsafeMutablePointer<Float>?.self, capacity: tokens.count)
            var count = 0
            for t in tokens {
                guard let out = places[t].logits else { continue }
                let j = t - tokens.lowerBound
                quants[count] = UnsafePointer(b.actQuants + j * dim)
                scales[count] = UnsafePointer(b.actScale + j * blocks)
                masks[count] = places[t].mask
                outs[count] = out
                count += 1
            }
            fmk_logits_q8_0(output.data, Int32(output.cols), Int32(rows.lowerBound), Int32(rows.upperBound),
                            Int32(count), quants, scales, masks, outs)
        }
    }
}
