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

/// One sequence's part of a batched decode step: the token it feeds, at which position of which
/// cache, where its next-token logits go and the mask of tokens allowed after it.
public struct DecodeInput {
    /// The token to feed (the one chosen last).
    public var token: Int32
    /// Its position in the sequence (the number of tokens the cache already holds).
    public var position: Int
    /// The sequence's KV cache (it must hold positions `0..<position`).
    public var cache: KVCache
    /// Where the next-token logits go (`vocabSize` floats).
    public var logits: UnsafeMutablePointer<Float>
    /// The allowed next tokens (one bit per id, set = allowed), or nil for all.
    public var mask: UnsafePointer<UInt32>?

    /// A sequence's next step.
    public init(token: Int32, position: Int, cache: KVCache, logits: UnsafeMutablePointer<Float>, mask: UnsafePointer<UInt32>?) {
        self.token = token
        self.position = position
        self.cache = cache
        self.logits = logits
        self.mask = mask
    }
}

extension LlamaModel {
    /// One decode step of several sequences in one pass over the weights: each input's token at its
    /// position in its own cache, each sequence's logits (under its own mask) into its own buffer.
    ///
    /// Every sequence gets exactly the floats a one-token `forward` would give it: matrices multiply
    /// token by token with the matrix–vector kernels (over row tiles, so each weight row is read from
    /// memory once for all sequences), and attention sums in decode order over the sequence's own cache.
    public func decode(_ inputs: UnsafeBufferPointer<DecodeInput>) throws {
        guard inputs.count <= maxBatch else {
            throw LlamaRunError(message: "a decode step takes at most \(maxBatch) sequences, not \(inputs.count)", isContextOverflow: false)
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
    }

    /// A KV cache for another sequence, the size of this model's (pages become resident only as
    /// positions reach them).
    public func makeCache() -> KVCache {
        KVCache(layerCount: config.layerCount, kvDim: config.kvDim, capacity: cache.capacity)
    }
}

extension ForwardPass {
    /// Rows of a weight tile in a batched decode: about 16 KiB of weights, which stay in the core's
    /// cache while every sequence's token is multiplied by them.
    @inline(__always)
    func tileRows(rowBytes: Int) -> Int { max(4, 16384 / max(1, rowBytes)) }

    /// `out[t*stride + r] = row r · activations of token t` for `rows`, each token by the
    /// matrix–vector kernel a one-token pass uses (so each token's floats are that pass's), tile by
    /// tile of rows so each weight row comes from memory once for all tokens.
    @inline(__always)
    func multiplyEachToken(_ m: KernelMatrix, rows: Range<Int>, tokens: Int, out: UnsafeMutablePointer<Float>,
                           stride: Int, input: Activations) {
        let (quants, scales, sums) = input
        let blocks = m.cols / quantBlock
        let rowBytes = blocks * (m.isQ8_0 ? 34 : 20)
        let tile = tileRows(rowBytes: rowBytes)
        var r0 = rows.lowerBound
        while r0 < rows.upperBound {
            let r1 = min(rows.upperBound, r0 + tile)
            for t in 0..<tokens {
                let (q, d, s, o) = (quants + t * m.cols, scales + t * blocks, sums + t * blocks, out + t * stride)
                if m.isQ8_0 {
                    fmk_matvec_q8_0(m.data, Int32(m.cols), Int32(r0), Int32(r1), q, d, nil, o)
                } else {
                    fmk_matvec_q4_1(m.data, Int32(m.cols), Int32(r0), Int32(r1), q, d, s, o)
                }
            }
            r0 = r1
        }
    }
}
