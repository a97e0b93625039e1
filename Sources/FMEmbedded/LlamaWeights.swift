import FMKernels

/// Elements per quantization block of Q4_0, Q4_1, Q8_0 and the Q8_1 activations (`FMK_BLOCK`).
let quantBlock = Int(FMK_BLOCK)

/// A weight matrix in one of the quantized layouts the kernels multiply: Q4_1 or Q8_0.
///
/// The matrix keeps the memory `data` points into alive (a tensor's file map, or the owner given).
// @unchecked Sendable: `data` points into read-only memory that `owner` keeps alive.
public struct QuantMatrix: @unchecked Sendable {
    /// The first byte of row 0 (rows are contiguous, `rowBytes` apart).
    public let data: UnsafeRawPointer
    /// Output features (rows).
    public let rows: Int
    /// Input features (elements per row).
    public let cols: Int
    /// The block layout.
    public let type: GGMLType
    /// What owns the memory `data` points into; held only to keep it alive.
    let owner: AnyObject?

    /// Wraps `tensor` after checking it is a `cols`×`rows` matrix of a supported type.
    public init(_ tensor: GGUFTensor, rows: Int, cols: Int, path: String) throws {
        guard tensor.shape == [cols, rows] else {
            throw GGUFError(path: path, offset: nil,
                            message: "tensor '\(tensor.name)' has shape \(tensor.shape), expected [\(cols), \(rows)]",
                            hint: "the metadata and the tensors disagree; use an unmodified llama-family GGUF")
        }
        guard tensor.type == .q4_1 || tensor.type == .q8_0 else {
            throw GGUFError(path: path, offset: nil,
                            message: "tensor '\(tensor.name)' is \(tensor.type); the embedded engine multiplies Q4_1 and Q8_0 weights",
                            hint: "use a Q4_1 or Q8_0 quantization of the model (llama-quantize … Q4_1)")
        }
        self.init(data: tensor.data, rows: rows, cols: cols, type: tensor.type, owner: tensor.owner)
    }

    /// Wraps raw blocks (tests build matrices in memory); `owner`, if given, is kept alive with the matrix.
    public init(data: UnsafeRawPointer, rows: Int, cols: Int, type: GGMLType, owner: AnyObject? = nil) {
        self.data = data
        self.rows = rows
        self.cols = cols
        self.type = type
        self.owner = owner
    }

    /// Bytes the matrix occupies.
    public var byteCount: Int { rows * (type.rowBytes(cols) ?? 0) }
}

/// The weights of one transformer block.
// @unchecked Sendable: immutable, and its matrices point into read-only memory they keep alive.
public struct LlamaLayerWeights: @unchecked Sendable {
    /// RMSNorm gain before attention.
    public let attentionNorm: [Float]
    /// Query, key, value and output projections.
    public let query, key, value, attentionOutput: QuantMatrix
    /// RMSNorm gain before the feed-forward network.
    public let ffnNorm: [Float]
    /// SwiGLU gate, up and down projections.
    public let gate, up, down: QuantMatrix

    /// The block's seven weight matrices, in the order the forward pass reads them.
    public var matrices: [QuantMatrix] { [query, key, value, attentionOutput, gate, up, down] }
}

/// All weights of a llama model, pointing into a memory-mapped GGUF file (norms are copied).
// @unchecked Sendable: immutable, and its tensors point into read-only memory they keep alive.
public struct LlamaWeights: @unchecked Sendable {
    /// The token embedding table (any type `fmk_dequantize_row` reads), one row per token.
    public let tokenEmbedding: GGUFTensor
    /// The transformer blocks.
    public let layers: [LlamaLayerWeights]
    /// Final RMSNorm gain.
    public let outputNorm: [Float]
    /// The output projection: `output.weight`, or the token embedding when tied.
    public let output: QuantMatrix

    /// The weight bytes one decode step streams: every layer's matrices and the output head (one row of the
    /// embedding table besides, too few to count).
    public var bytesPerDecodeStep: Int {
        layers.reduce(output.byteCount) { total, layer in
            total + layer.matrices.reduce(0) { $0 + $1.byteCount }
        }
    }

    /// Collects and checks every tensor `config` needs from `file`.
    public init(file: GGUFFile, config: LlamaConfig) throws {
        let path = file.path
        func matrix(_ name: String, rows: Int, cols: Int) throws -> QuantMatrix {
            try QuantMatrix(file.requireTensor(name), rows: rows, cols: cols, path: path)
        }
        func vector(_ name: String) throws -> [Float] {
            let tensor = try file.requireTensor(name)
            guard tensor.type == .f32, tensor.shape == [config.dim] else {
                throw GGUFError(path: path, offset: nil,
                                message: "tensor '\(name)' is \(tensor.type) \(tensor.shape), expected F32 [\(config.dim)]",
                                hint: "use an unmodified llama-family GGUF")
            }
            return (0..<config.dim).map { tensor.data.loadUnaligned(fromByteOffset: 4 * $0, as: Float.self) }
        }
        let embedding = try file.requireTensor("token_embd.weight")
        guard embedding.shape == [config.dim, config.vocabSize], [GGMLType.f32, .f16, .q4_1, .q8_0].contains(embedding.type) else {
            throw GGUFError(path: path, offset: nil,
                            message: "token_embd.weight is \(embedding.type) \(embedding.shape), expected F32/F16/Q4_1/Q8_0 [\(config.dim), \(config.vocabSize)]",
                            hint: "use a Q4_1 or Q8_0 quantization of the model")
        }
        tokenEmbedding = embedding
        let (dim, hidden, kvDim) = (config.dim, config.hiddenDim, config.kvDim)
        layers = try (0..<config.layerCount).map { i in
            let p = "blk.\(i)."
            return LlamaLayerWeights(
                attentionNorm: try vector(p + "attn_norm.weight"),
                query: try matrix(p + "attn_q.weight", rows: dim, cols: dim),
                key: try matrix(p + "attn_k.weight", rows: kvDim, cols: dim),
                value: try matrix(p + "attn_v.weight", rows: kvDim, cols: dim),
                attentionOutput: try matrix(p + "attn_output.weight", rows: dim, cols: dim),
                ffnNorm: try vector(p + "ffn_norm.weight"),
                gate: try matrix(p + "ffn_gate.weight", rows: hidden, cols: dim),
                up: try matrix(p + "ffn_up.weight", rows: hidden, cols: dim),
                down: try matrix(p + "ffn_down.weight", rows: dim, cols: hidden))
        }
        outputNorm = try vector("output_norm.weight")
        if file.tensor(named: "output.weight") != nil {
            output = try matrix("output.weight", rows: config.vocabSize, cols: dim)
        } else {
            output = try QuantMatrix(embedding, rows: config.vocabSize, cols: dim, path: path)
        }
    }

    /// Writes the embedding of `token` (a valid id) into `out` (`dim` floats).
    public func embed(_ token: Int, into out: UnsafeMutablePointer<Float>) {
        fmk_dequantize_row(Int32(tokenEmbedding.type.rawValue), tokenEmbedding.row(token), Int32(tokenEmbedding.rowLength), out)
    }
}
