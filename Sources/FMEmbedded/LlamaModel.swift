#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FMKernels

/// An error from running the model: a token id or position outside what the model can take.
public struct LlamaRunError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What went wrong and what to do.
    public let message: String
    /// True when the request needs more positions than the context holds.
    public let isContextOverflow: Bool

    /// A readable one-line description.
    public var description: String { message }
}

/// Raw pointers to one layer's weights, so the hot loop touches no reference counts.
struct LayerTable {
    var attentionNorm: UnsafePointer<Float>
    var ffnNorm: UnsafePointer<Float>
    var query, key, value, attentionOutput, gate, up, down: KernelMatrix
}

/// A llama-family model ready to run: configuration, weights, KV cache, scratch buffers and a
/// thread pool (llama2.c's config, weights and state, with one `forward`).
///
/// Not reentrant: one `forward` at a time (`Generator` serializes its callers).
// @unchecked Sendable: its scratch buffers are used only inside `forward`, which `Generator` runs one at a time.
public final class LlamaModel: @unchecked Sendable {
    /// The model's hyperparameters.
    public let config: LlamaConfig
    /// The weights (pointing into `file`'s memory map).
    public let weights: LlamaWeights
    /// The key/value cache shared by consecutive requests.
    public let cache: KVCache
    /// Threads every forward pass runs on.
    public let pool: ThreadPool
    /// When set, decode steps add where their time goes to it (`fmeval bench`); nil otherwise.
    public var decodeProfile: DecodeProfile?
    /// Most tokens one prefill pass processes together (longer prompts run in several passes).
    public let maxBatch: Int
    /// The matrix–matrix kernel prefill passes use for Q4_1 weights.
    public let prefillKernel: PrefillKernel
    /// The C kernels' level every forward pass computes at (`pool`'s).
    public var kernelLevel: KernelLevel { pool.kernelLevel }
    /// The KV cache size when none is asked for: the model's context length, but at most this many positions.
    public static let defaultContextCap = 8192
    /// The largest KV cache a caller may ask for, in positions.
    public static let maxContextLength = 1 << 20
    /// The GGUF file whose map the weights point into (nil for in-memory test models).
    public let file: GGUFFile?

    let layers: UnsafeMutablePointer<LayerTable>
    let packedWeights: PackedWeights
    /// How the pool's threads split a decode step's rows, learned step by step.
    let workShares: WorkShares
    let outputMatrix: KernelMatrix
    let norms: UnsafeMutablePointer<Float>
    let buffers: ForwardBuffers
    private let keepAlive: AnyObject?

    /// Loads the model in `file`; `contextLength` (default: the model's, at most `defaultContextCap`)
    /// sizes the KV cache; `prefillKernel` nil: the one `FMEVAL_PREFILL_KERNEL` names; `kernelLevel`
    /// nil: the one `FMEVAL_KERNEL_LEVEL` names (the detected level by default).
    public convenience init(file: GGUFFile, contextLength: Int? = nil, threads: Int = ThreadPool.defaultThreadCount,
                            prefillKernel: PrefillKernel? = nil, kernelLevel: KernelLevel? = nil) throws {
        let config = try LlamaConfig(file: file)
        let weights = try LlamaWeights(file: file, config: config)
        try self.init(config: config, weights: weights, file: file, keepAlive: nil, contextLength: contextLength,
                      threads: threads, prefillKernel: prefillKernel, kernelLevel: kernelLevel)
    }

    /// Maps and loads the GGUF model at `path`.
    public convenience init(path: String, contextLength: Int? = nil, threads: Int = ThreadPool.defaultThreadCount) throws {
        try self.init(file: try GGUFFile(path: path), contextLength: contextLength, threads: threads)
    }

    /// A model over weights already in memory; `keepAlive` owns the storage they point into.
    /// `prefillKernel` nil: the one `FMEVAL_PREFILL_KERNEL` names (tiles by default); `kernelLevel` nil:
    /// the one `FMEVAL_KERNEL_LEVEL` names (the detected level by default).
    public init(config: LlamaConfig, weights: LlamaWeights, file: GGUFFile?, keepAlive: AnyObject?,
                contextLength: Int? = nil, threads: Int = ThreadPool.defaultThreadCount, maxBatch: Int = 128,
                prefillKernel: PrefillKernel? = nil, kernelLevel: KernelLevel? = nil) throws {
        if let problem = config.validationProblem {
            throw LlamaRunError(message: "unsupported model shape: \(problem)", isContextOverflow: false)
        }
        self.prefillKernel = try prefillKernel ?? PrefillKernel.fromEnvironment()
        let level = try kernelLevel ?? KernelLevel.fromEnvironment()
        self.config = config
        self.weights = weights
        self.file = file
        self.keepAlive = keepAlive
        self.maxBatch = max(1, maxBatch)
        let positions = max(1, min(contextLength ?? min(config.contextLength, Self.defaultContextCap), Self.maxContextLength))
        cache = KVCache(layerCount: config.layerCount, kvDim: config.kvDim, capacity: positions)
        pool = ThreadPool(threadCount: threads, kernelLevel: level)
        workShares = WorkShares(workers: pool.activeCount)
        norms = .allocate(capacity: (2 * config.layerCount + 1) * config.dim)
        layers = .allocate(capacity: config.layerCount)
        let packing = PackedWeights(weights.layers.flatMap(\.matrices), pool: pool)
        packedWeights = packing
        for (i, layer) in weights.layers.enumerated() {
            let attention = norms + 2 * i * config.dim, ffn = attention + config.dim
            attention.update(from: layer.attentionNorm, count: config.dim)
            ffn.update(from: layer.ffnNorm, count: config.dim)
            func kernel(_ m: QuantMatrix) -> KernelMatrix { KernelMatrix(m, packing: packing) }
            (layers + i).initialize(to: LayerTable(
                attentionNorm: attention, ffnNorm: ffn, query: kernel(layer.query), key: kernel(layer.key),
                value: kernel(layer.value), attentionOutput: kernel(layer.attentionOutput),
                gate: kernel(layer.gate), up: kernel(layer.up), down: kernel(layer.down)))
        }
        outputMatrix = KernelMatrix(weights.output)
        (norms + 2 * config.layerCount * config.dim).update(from: weights.outputNorm, count: config.dim)
        buffers = ForwardBuffers(config: config, batch: self.maxBatch, positions: positions, threads: pool.activeCount)
        adviseWillNeed()
    }

    deinit {
        layers.deinitialize(count: config.layerCount)
        layers.deallocate()
        norms.deallocate()
    }

    /// Final RMSNorm gain.
    var outputNorm: UnsafePointer<Float> { UnsafePointer(norms + 2 * config.layerCount * config.dim) }

    /// Logits of the last token of the latest `forward` that computed them (`vocabSize` floats).
    public var logits: UnsafeBufferPointer<Float> { UnsafeBufferPointer(start: buffers.logits, count: config.vocabSize) }

    /// Asks the kernel to read the mapped weights ahead, so the first tokens do not fault page by page.
    private func adviseWillNeed() {
        guard let file else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        for tensor in file.tensors where tensor.byteCount > 0 {
            let start = Int(bitPattern: tensor.data) & ~(page - 1)
            let end = Int(bitPattern: tensor.data) + tensor.byteCount
            madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, MADV_WILLNEED)
        }
    }

    /// Runs `tokens` at positions `startPosition…`, filling the KV cache; when `computeLogits`, leaves
    /// the last token's logits in `logits`. With `mask` (one bit per vocabulary id, set = allowed), rows
    /// of the output layer the mask forbids are skipped and get -infinity.
    public func forward(_ tokens: UnsafeBufferPointer<Int32>, startPosition: Int, computeLogits: Bool = true,
                        mask: UnsafePointer<UInt32>? = nil) throws {
        try forward(tokens, startPosition: startPosition, cache: cache, logits: computeLogits ? buffers.logits : nil, mask: mask)
    }

    /// `forward` over an array of tokens.
    public func forward(_ tokens: [Int32], startPosition: Int, computeLogits: Bool = true, mask: UnsafePointer<UInt32>? = nil) throws {
        try tokens.withUnsafeBufferPointer { try forward($0, startPosition: startPosition, computeLogits: computeLogits, mask: mask) }
    }

    /// `forward` into another sequence's `cache` (from `makeCache()`), the last token's logits into
    /// `logits` (`vocabSize` floats; nil: none computed).
    public func forward(_ tokens: UnsafeBufferPointer<Int32>, startPosition: Int, cache: KVCache,
                        logits: UnsafeMutablePointer<Float>?, mask: UnsafePointer<UInt32>? = nil) throws {
        guard startPosition >= 0, startPosition + tokens.count <= cache.capacity else {
            throw LlamaRunError(message: "context overflow: positions \(startPosition)..<\(startPosition + tokens.count) exceed the \(cache.capacity)-token context; shorten the prompt or lower the token limit",
                                isContextOverflow: true)
        }
        if let bad = tokens.first(where: { $0 < 0 || Int($0) >= config.vocabSize }) {
            throw LlamaRunError(message: "token id \(bad) is outside the vocabulary (0..<\(config.vocabSize))", isContextOverflow: false)
        }
        guard !tokens.isEmpty else { return }
        var done = 0
        while done < tokens.count {
            let count = min(maxBatch, tokens.count - done)
            let last = done + count == tokens.count
            let chunk = UnsafeBufferPointer(rebasing: tokens[done..<(done + count)])
            for t in 0..<count {
                let wantsLogits = last && t == count - 1
                buffers.places[t] = TokenPlace(position: startPosition + done + t, cache: cache,
                                               logits: wantsLogits ? logits : nil, mask: mask)
            }
            pool.run { worker in
                self.forwardBatch(chunk, worker: worker, decoding: count == 1, logits: logits != nil && last)
            }
            if count == 1 { workShares.rebalance() }
            done += count
        }
    }
}

/// Scratch memory for one forward pass over up to `batch` tokens, allocated once.
final class ForwardBuffers {
    let x, xb, q, k, v, attention, projected, hidden, hidden2, logits, ropeCos, ropeSin, scores: UnsafeMutablePointer<Float>
    let actScale, actSum: UnsafeMutablePointer<Float>
    let actQuants: UnsafeMutablePointer<Int8>
    /// Quantized SwiGLU output, apart from `actQuants` so one thread can write it while another still
    /// reads the normalized input of the gate and up projections.
    let hiddenScale, hiddenSum: UnsafeMutablePointer<Float>
    let hiddenQuants: UnsafeMutablePointer<Int8>
    /// The residual stream's other half: layers alternate between `x` and `residual` so threads can
    /// read one while the token's owner writes the other.
    let residual: UnsafeMutablePointer<Float>
    /// Per-thread normalized activations (floats, then Q8_1 quants, scales, sums), `batch × dim` each:
    /// every thread normalizes all tokens itself instead of waiting at a barrier for the owners.
    let ownNormed, ownScale, ownSum: UnsafeMutablePointer<Float>
    let ownQuants: UnsafeMutablePointer<Int8>
    let queryHalf: UnsafeMutablePointer<UInt16>
    /// Each token's position, cache and logits destination, filled before every pass.
    let places: UnsafeMutablePointer<TokenPlace>
    /// The tokens of a batched decode step (one per sequence).
    let tokens: UnsafeMutablePointer<Int32>
    let positions: Int
    /// Tokens one pass holds at most.
    let batch: Int
    /// Floats per head in `scores`: positions rounded up to whole 16-lane chunks; each thread has room
    /// for the query heads of one key/value head.
    let scoreStride: Int
    private var allocations: [UnsafeMutableRawPointer] = []

    init(config: LlamaConfig, batch: Int, positions: Int, threads: Int) {
        self.positions = positions
        self.batch = batch
        scoreStride = (positions + 15) / 16 * 16
        var owned: [UnsafeMutableRawPointer] = []
        func floats(_ count: Int) -> UnsafeMutablePointer<Float> {
            let raw = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1) * 4, alignment: 64)
            owned.append(raw)
            return raw.initializeMemory(as: Float.self, repeating: 0, count: max(count, 1))
        }
        let wide = max(config.dim, config.hiddenDim)
        x = floats(batch * config.dim); xb = floats(batch * config.dim)
        q = floats(batch * config.dim); k = floats(batch * config.kvDim); v = floats(batch * config.kvDim)
        attention = floats(batch * config.dim); projected = floats(batch * config.dim)
        hidden = floats(batch * config.hiddenDim); hidden2 = floats(batch * config.hiddenDim)
        logits = floats(config.vocabSize)
        ropeCos = floats(batch * config.ropeDimensions / 2); ropeSin = floats(batch * config.ropeDimensions / 2)
        scores = floats(threads * config.headCount / config.kvHeadCount * scoreStride)
        actScale = floats(batch * wide / quantBlock); actSum = floats(batch * wide / quantBlock)
        hiddenScale = floats(batch * config.hiddenDim / quantBlock); hiddenSum = floats(batch * config.hiddenDim / quantBlock)
        let quants = UnsafeMutableRawPointer.allocate(byteCount: batch * wide, alignment: 64)
        let hiddenBytes = UnsafeMutableRawPointer.allocate(byteCount: batch * config.hiddenDim, alignment: 64)
        let halves = UnsafeMutableRawPointer.allocate(byteCount: batch * config.dim * 2, alignment: 64)
        residual = floats(batch * config.dim); ownNormed = floats(threads * batch * config.dim)
        ownScale = floats(threads * batch * config.dim / quantBlock); ownSum = floats(threads * batch * config.dim / quantBlock)
        let ownBytes = UnsafeMutableRawPointer.allocate(byteCount: threads * batch * config.dim, alignment: 64)
        ownQuants = ownBytes.initializeMemory(as: Int8.self, repeating: 0, count: threads * batch * config.dim)
        owned += [quants, hiddenBytes, halves, ownBytes]
        actQuants = quants.initializeMemory(as: Int8.self, repeating: 0, count: batch * wide)
        hiddenQuants = hiddenBytes.initializeMemory(as: Int8.self, repeating: 0, count: batch * config.hiddenDim)
        queryHalf = halves.initializeMemory(as: UInt16.self, repeating: 0, count: batch * config.dim)
        let placeBytes = UnsafeMutableRawPointer.allocate(byteCount: batch * MemoryLayout<TokenPlace>.stride,
                                                          alignment: MemoryLayout<TokenPlace>.alignment)
        places = placeBytes.bindMemory(to: TokenPlace.self, capacity: batch)
        let tokenBytes = UnsafeMutableRawPointer.allocate(byteCount: batch * 4, alignment: 64)
        tokens = tokenBytes.initializeMemory(as: Int32.self, repeating: 0, count: batch)
        owned += [placeBytes, tokenBytes]
        allocations = owned
    }

    deinit { for raw in allocations { raw.deallocate() } }
}
