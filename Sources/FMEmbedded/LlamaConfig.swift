/// The hyperparameters of a llama-family model, read from GGUF metadata (`<arch>.*` keys).
public struct LlamaConfig: Sendable, Equatable {
    /// Width of the residual stream (`embedding_length`).
    public var dim: Int
    /// Width of the feed-forward hidden layer (`feed_forward_length`).
    public var hiddenDim: Int
    /// Number of transformer blocks (`block_count`).
    public var layerCount: Int
    /// Query heads (`attention.head_count`).
    public var headCount: Int
    /// Key/value heads (`attention.head_count_kv`); query heads share them in groups.
    public var kvHeadCount: Int
    /// Vocabulary size (rows of the token embedding).
    public var vocabSize: Int
    /// The context length the model was trained for (`context_length`).
    public var contextLength: Int
    /// RoPE base frequency (`rope.freq_base`).
    public var ropeFrequencyBase: Float
    /// Dimensions of each head that RoPE rotates (`rope.dimension_count`).
    public var ropeDimensions: Int
    /// RMSNorm epsilon (`attention.layer_norm_rms_epsilon`).
    public var rmsEpsilon: Float

    /// Elements per attention head.
    public var headDim: Int { dim / headCount }
    /// Width of the key and value projections.
    public var kvDim: Int { kvHeadCount * headDim }

    /// A configuration from explicit values (tests build tiny models with it).
    public init(dim: Int, hiddenDim: Int, layerCount: Int, headCount: Int, kvHeadCount: Int, vocabSize: Int,
                contextLength: Int, ropeFrequencyBase: Float = 10_000, ropeDimensions: Int? = nil,
                rmsEpsilon: Float = 1e-5) {
        self.dim = dim
        self.hiddenDim = hiddenDim
        self.layerCount = layerCount
        self.headCount = headCount
        self.kvHeadCount = kvHeadCount
        self.vocabSize = vocabSize
        self.contextLength = contextLength
        self.ropeFrequencyBase = ropeFrequencyBase
        self.ropeDimensions = ropeDimensions ?? dim / max(headCount, 1)
        self.rmsEpsilon = rmsEpsilon
    }

    /// Reads the configuration of `file`; throws naming the key or the inconsistency.
    public init(file: GGUFFile) throws {
        let arch = file.architecture ?? "(missing)"
        guard arch == "llama" else {
            throw GGUFError(path: file.path, offset: nil,
                            message: "general.architecture is '\(arch)'; the embedded engine runs 'llama' models",
                            hint: "pass a llama-family GGUF with --model (e.g. SmolLM2, TinyLlama, Llama 3)")
        }
        let headCount = try file.requireInt("llama.attention.head_count")
        let embedding = try file.requireTensor("token_embd.weight")
        self.init(dim: try file.requireInt("llama.embedding_length"),
                  hiddenDim: try file.requireInt("llama.feed_forward_length"),
                  layerCount: try file.requireInt("llama.block_count"),
                  headCount: headCount,
                  kvHeadCount: file.int("llama.attention.head_count_kv") ?? headCount,
                  vocabSize: embedding.rowCount,
                  contextLength: file.int("llama.context_length") ?? 2048,
                  ropeFrequencyBase: Float(file.double("llama.rope.freq_base") ?? 10_000),
                  ropeDimensions: file.int("llama.rope.dimension_count"),
                  rmsEpsilon: Float(file.double("llama.attention.layer_norm_rms_epsilon") ?? 1e-5))
        if let problem = validationProblem {
            throw GGUFError(path: file.path, offset: nil, message: "unsupported model shape: \(problem)",
                            hint: "the embedded engine needs widths that are multiples of \(quantBlock) and whole head groups")
        }
    }

    /// Why this configuration cannot run, or nil when it can.
    public var validationProblem: String? {
        if dim <= 0 || hiddenDim <= 0 || layerCount <= 0 || headCount <= 0 || kvHeadCount <= 0 || vocabSize <= 0 {
            return "every size must be positive"
        }
        if dim % quantBlock != 0 || hiddenDim % quantBlock != 0 {
            return "embedding (\(dim)) and feed-forward (\(hiddenDim)) widths must be multiples of \(quantBlock)"
        }
        if dim % headCount != 0 { return "embedding width \(dim) is not divisible by \(headCount) heads" }
        if headCount % kvHeadCount != 0 { return "\(headCount) query heads do not split into \(kvHeadCount) key/value groups" }
        if ropeDimensions % 2 != 0 || ropeDimensions > headDim { return "RoPE dimensions \(ropeDimensions) must be even and ≤ head size \(headDim)" }
        if contextLength <= 0 { return "context length must be positive" }
        return nil
    }
}
