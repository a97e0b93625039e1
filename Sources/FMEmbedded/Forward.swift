import FMKernels

extension LlamaModel {
    /// One forward pass over `tokens` (at most `maxBatch`), each at the position and into the cache its
    /// `buffers.places` entry names, as pool thread `worker` runs it; every thread of the pool runs this
    /// together. `decoding`: each token is the one new token of its sequence (a decode step).
    ///
    /// Read top to bottom, this is the llama architecture. `ForwardPass` keeps the parallel split out of
    /// the way: which rows, heads and tokens this thread computes, and where the threads meet. Each
    /// block's output (`Wo·attention`, `Wd·hidden`) is added to the residual stream by the step that next
    /// reads it (the following RMSNorm, or the final one), which saves a pass over the activations.
    func forwardBatch(_ tokens: UnsafeBufferPointer<Int32>, worker: Int, decoding: Bool, logits: Bool) {
        var pass = ForwardPass(model: self, tokens: tokens, decoding: decoding, worker: worker)
        // Thread 0 times the phases of decode steps when a profile is attached (`fmeval bench`).
        var clock = PhaseClock(decoding && worker == 0 ? decodeProfile : nil)
        // x = embedding of each token (and the RoPE angles of each position).
        pass.embed()
        clock.lap(.norms)
        for l in 0..<config.layerCount {
            let layer = layers[l]
            // x += Wo · Attention(RoPE(Wq·h), RoPE(Wk·h), Wv·h), with h = RMSNorm(x) and keys and values
            // of every earlier position read from the KV cache.
            pass.normalize(gain: layer.attentionNorm, addingBlockOutput: l > 0)
            clock.lap(.norms)
            pass.queryKeyValue(query: layer.query, key: layer.key, value: layer.value, layer: l)
            clock.lap(.matrixVector)
            pass.attention(layer: l)
            clock.lap(.attention)
            pass.project(layer.attentionOutput, input: pass.attentionActivations, phase: .attentionOutput)
            clock.lap(.matrixVector)
            // x += Wd · (SiLU(Wg·h) ⊙ Wu·h), with h = RMSNorm(x).
            pass.normalize(gain: layer.ffnNorm, addingBlockOutput: true)
            clock.lap(.norms)
            pass.swiGLU(gate: layer.gate, up: layer.up)
            pass.project(layer.down, input: pass.hiddenActivations, phase: .down)
            clock.lap(.matrixVector)
        }
        guard logits else { return }
        // logits = Wout · RMSNorm(x) for the last token (for every token of a decode step).
        pass.logits(gain: outputNorm, output: outputMatrix)
        clock.lap(.outputHead)
    }
}

/// Quantized activations a matrix product reads: Q8_1 quants, block scales, block sums.
typealias Activations = (UnsafeMutablePointer<Int8>, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>)

/// One pool thread's view of one forward pass: the model's buffers, the tokens, and this thread's share.
///
/// Threads split matrix rows (each weight byte is read once per pass, by both cores at once; a decode
/// step by the shares `WorkShares` learns from each thread's speed) and tokens or heads for the
/// element-wise steps. Each step that writes what other threads read next ends at a
/// barrier; the steps themselves are in `ForwardSteps.swift`, the split and kernel calls in
/// `ForwardKernels.swift`.
struct ForwardPass {
    /// The model being run.
    let model: LlamaModel
    /// Its hyperparameters.
    let c: LlamaConfig
    /// Its scratch memory.
    let b: ForwardBuffers
    /// The threads running this pass.
    let pool: ThreadPool
    /// The tokens of this pass.
    let tokens: UnsafeBufferPointer<Int32>
    /// Each token's position, KV cache, logits destination and mask.
    let places: UnsafePointer<TokenPlace>
    /// True when each token is the one new token of its sequence: attention sums in decode order and
    /// matrices multiply token by token, so every sequence gets the floats of a one-token pass.
    let decoding: Bool
    /// This thread's index and the number of threads.
    let worker: Int, workers: Int
    /// The tokens this thread owns (embeds, and writes the residual stream of).
    let mine: Range<Int>
    /// This thread's own RMSNorm output (floats) and its Q8_1 quantization, for every token.
    let normed: UnsafeMutablePointer<Float>, own: Activations
    /// The residual stream: `current` holds it; the next update is written to `next` and they swap.
    var current: UnsafeMutablePointer<Float>, next: UnsafeMutablePointer<Float>

    /// Thread `worker`'s view of a pass of `model` over `tokens` (placed by `model.buffers.places`).
    init(model: LlamaModel, tokens: UnsafeBufferPointer<Int32>, decoding: Bool, worker: Int) {
        self.model = model
        c = model.config
        b = model.buffers
        pool = model.pool
        self.tokens = tokens
        places = UnsafePointer(model.buffers.places)
        self.decoding = decoding
        self.worker = worker
        workers = pool.activeCount
        mine = share(tokens.count, worker, workers)
        let slot = worker * b.batch * c.dim
        normed = b.ownNormed + slot
        own = (b.ownQuants + slot, b.ownScale + slot / quantBlock, b.ownSum + slot / quantBlock)
        current = b.x
        next = b.residual
    }

    /// The attention output quantized for the output projection.
    var attentionActivations: Activations { (b.actQuants, b.actScale, b.actSum) }

    /// The SwiGLU output quantized for the down projection.
    var hiddenActivations: Activations { (b.hiddenQuants, b.hiddenScale, b.hiddenSum) }
}
