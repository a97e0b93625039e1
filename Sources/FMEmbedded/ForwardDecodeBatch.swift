import FMKernels

/// Where one token of a forward pass belongs: its position, its sequence's KV cache, and (when the
/// pass computes them) where its logits go and which tokens may follow it.
///
/// Raw pointers, so the hot loop touches no reference counts; the caller keeps the cache alive.
struct TokenPlace {
    /// The token's position in its sequence.
    var position: Int
    /// Layer 0's keys and values in the sequence's `KVCache` (each layer follows at `capacity · kvDim`).
    var keys: UnsafeMutablePointer<UInt16>, values: UnsafeMutablePointer<UInt16>
    /// Positions the sequence's cache holds.
    var capacity: Int
    /// Where the token's next-token logits go; nil for a token whose logits nobody reads.
    var logits: UnsafeMutablePointer<Float>?
    /// The allowed next tokens (one bit per id), or nil for all.
    var mask: UnsafePointer<UInt32>?

    /// A token at `position` of the sequence whose keys and values `cache` holds.
    init(position: Int, cache: KVCache, logits: UnsafeMutablePointer<Float>?, mask: UnsafePointer<UInt32>?) {
        self.position = position
        keys = cache.keys(layer: 0)
        values = cache.values(layer: 0)
        capacity = cache.capacity
        self.logits = logits
        self.mask = mask
    }

    /// The keys of `layer` (position-major, `kvDim` halves per position).
    @inline(__always) func keys(layer: Int, kvDim: Int) -> UnsafeMutablePointer<UInt16> { keys + layer * capacity * kvDim }

    /// The values of `layer`, transposed (element `i` of position `t` at `i * capacity + t`).
    @inline(__always) func values(layer: Int, kvDim: Int) -> UnsafeMutablePointer<UInt16> { values + layer * capacity * kvDim }
}

/// One token of a batched decode step: the token fed, at which position of which sequence's cache,
/// where its next-token logits go (if anywhere) and the mask of tokens allowed after it. A sequence
/// may feed several consecutive tokens in one step (tokens a grammar forces need no logits).
public struct DecodeInput {
    /// The token to feed (the one chosen last).
    public var token: Int32
    /// Its position in the sequence (the number of tokens the cache already holds).
    public var position: Int
    /// The sequence's KV cache (it must hold positions `0..<position`).
    public var cache: KVCache
    /// Where the next-token logits go (`vocabSize` floats); nil when nobody reads them.
    public var logits: UnsafeMutablePointer<Float>?
    /// The allowed next tokens (one bit per id, set = allowed), or nil for all.
    public var mask: UnsafePointer<UInt32>?

    /// A token of a sequence's next step.
    public init(token: Int32, position: Int, cache: KVCache, logits: UnsafeMutablePointer<Float>?,
                mask: UnsafePointer<UInt32>?) {
        self.token = token
        self.position = position
        self.cache = cache
        self.logits = logits
        self.mask = mask
    }
}

extension LlamaModel {
    /// One decode step of several tokens in one pass over the weights: each input's token at its
    /// position in its own cache, each input's logits (under its own mask) into its own buffer. Inputs
    /// of one sequence must be at consecutive positions, in order (each attends to those before it).
    ///
    /// Every token gets exactly the floats a one-token `forward` would give it: each weight matrix
    /// is read once for all sequences by kernels whose per-token arithmetic is the matrix–vector
    /// kernel's, attention sums in decode order over the sequence's own cache, and the output layer
    /// runs in row tiles, every sequence's logits per tile under its own mask.
    public func decode(_ inputs: UnsafeBufferPointer<DecodeInput>) throws {
        guard inputs.count <= maxBatch else {
            throw LlamaRunError(message: "a decode step takes at most \(maxBatch) tokens, not \(inputs.count)", isContextOverflow: false)
        }
        for input in inputs {
            guard input.position >= 0, input.position < input.cache.capacity else {
                throw LlamaRunError(message: "context overflow: position \(input.position) exceeds the \(input.cache.capacity)-token context; shorten the prompt or lower the token limit",
                                    isContextOverflow: true)
            }
            guard input.token >= 0, Int(input.token) < config.vocabSize else {
                throw LlamaRunError(message: "token id \(input.token) is outside the vocabulary (0..<\(config.vocabSize))", isContextOverflow: false)
            }
            guard input.cache.layerCount == config.layerCount, input.cache.kvDim == config.kvDim,
                  input.cache.capacity == cache.capacity else {
                throw LlamaRunError(message: "a decode input's KV cache does not fit this model; make it with makeCache()", isContextOverflow: false)
            }
        }
        guard !inputs.isEmpty else { return }
        for (t, input) in inputs.enumerated() {
            buffers.tokens[t] = input.token
            buffers.places[t] = TokenPlace(position: input.position, cache: input.cache, logits: input.logits, mask: input.mask)
        }
        let tokens = UnsafeBufferPointer(start: buffers.tokens, count: inputs.count)
        pool.run { worker in
            self.forwardBatch(tokens, worker: worker, decoding: true, logits: true)
        }
        workShares.rebalance()
    }

    /// A KV cache for another sequence, the size of this model's (pages become resident only as
    /// positions reach them).
    public func makeCache() -> KVCache {
        KVCache(layerCount: config.layerCount, kvDim: config.kvDim, capacity: cache.capacity)
    }
}

extension ForwardPass {
    /// Rows of a Q4_1 output-layer tile in a batched decode: about 16 KiB of weights, which stay in the
    /// core's cache while every sequence's logits (each under its own mask) are computed from them.
    @inline(__always)
    func tileRows(rowBytes: Int) -> Int { max(4, 16384 / max(1, rowBytes)) }

    /// `out[t*stride + r] = row r · activations of token t` for `rows` and the tokens of a batched
    /// decode step: the matrix–matrix kernels (Q4_1 from the packed copy where there is one), which
    /// read each weight block once for four tokens and give each token exactly the floats of the
    /// matrix–vector kernel a one-token pass uses (the same block order and accumulator;
    /// `DecodeKernelParityTests` holds them to it bit for bit).
    @inline(__always)
    func multiplyDecodeBatch(_ m: KernelMatrix, rows: Range<Int>, tokens: Int, out: UnsafeMutablePointer<Float>,
                             stride: Int, input: Activations) {
        let (quants, scales, sums) = input
        let (r0, r1, cols) = (Int32(rows.lowerBound), Int32(rows.upperBound), Int32(m.cols))
        if m.isQ8_0 {
            fmk_matmul_q8_0(m.data, cols, r0, r1, quants, scales, Int32(tokens), out, stride)
        } else {
            fmk_matmul_q4_1_packed(m.data, m.packed, cols, r0, r1, quants, scales, sums, Int32(tokens), out, stride)
        }
    }
}
