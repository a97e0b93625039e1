/// The tokenizer data read and checked from GGUF metadata (`tokenizer.ggml.*`).
struct TokenizerVocabulary {
    /// The pre-tokenizer named by `tokenizer.ggml.pre`.
    var preTokenizer: PreTokenizer
    /// Each token's text as stored (byte-alphabet spelling for normal tokens).
    var texts: [String]
    /// Each token's type.
    var types: [Tokenizer.TokenType]
    /// Each token's bytes.
    var pieces: [[UInt8]]
    /// The token of each single byte, or -1 when the vocabulary has none.
    var byteTokens: [Int32]
    /// The merge rules.
    var merges: BPEMerges
    /// Special ids from metadata.
    var bosID: Int?, eosID: Int?, eotID: Int?

    /// Reads and validates the vocabulary in `file`.
    init(file: GGUFFile) throws {
        func fail(_ message: String, _ hint: String = "use a GGUF model with a GPT-2 BPE tokenizer (e.g. run 'fmeval model fetch' for the default)") -> GGUFError {
            GGUFError(path: file.path, offset: nil, message: message, hint: hint)
        }
        let model = file.string("tokenizer.ggml.model")
        guard model == "gpt2" else {
            throw fail("tokenizer.ggml.model is \(model.map { "'\($0)'" } ?? "missing"); fmeval reads only GPT-2 byte-level BPE tokenizers ('gpt2')")
        }
        let preName = file.string("tokenizer.ggml.pre") ?? "missing"
        guard let pre = PreTokenizer(ggufName: preName) else {
            throw fail("tokenizer.ggml.pre is '\(preName)'; fmeval implements the 'smollm' and 'gpt2' pre-tokenizer families")
        }
        preTokenizer = pre
        guard let tokenValues = file.array("tokenizer.ggml.tokens"), !tokenValues.isEmpty,
              tokenValues.count < Int(Int32.max) else {
            throw fail("tokenizer.ggml.tokens is missing or empty")
        }
        texts = try tokenValues.enumerated().map { index, value in
            guard let text = value.stringValue else { throw fail("tokenizer.ggml.tokens[\(index)] is not a string") }
            return text
        }
        if let typeValues = file.array("tokenizer.ggml.token_type") {
            guard typeValues.count == texts.count else {
                throw fail("tokenizer.ggml.token_type has \(typeValues.count) entries for \(texts.count) tokens")
            }
            types = try typeValues.enumerated().map { index, value in
                guard let raw = value.intValue, let type = Tokenizer.TokenType(rawValue: raw) else {
                    throw fail("tokenizer.ggml.token_type[\(index)] is \(value.summary), not a token type 0–6")
                }
                return type
            }
        } else {
            types = Array(repeating: .normal, count: texts.count)
        }
        var pieces: [[UInt8]] = []
        pieces.reserveCapacity(texts.count)
        var idByText: [String: Int32] = [:]
        idByText.reserveCapacity(texts.count)
        for (id, text) in texts.enumerated() {
            let literal = types[id] == .control || types[id] == .userDefined
            pieces.append(literal ? Array(text.utf8) : (TokenizerUnicode.decodeByteLevel(text) ?? Array(text.utf8)))
            if idByText[text] == nil { idByText[text] = Int32(id) }
        }
        self.pieces = pieces
        // Some vocabularies lack a few control bytes; like llama.cpp, such bytes produce no token (-1).
        byteTokens = (0 ..< 256).map { byte -> Int32 in
            idByText[String(Unicode.Scalar(TokenizerUnicode.byteToScalar[byte])!)] ?? -1
        }
        let mergeValues = file.array("tokenizer.ggml.merges") ?? []
        var rules: [UInt64: BPEMerges.Rule] = [:]
        rules.reserveCapacity(mergeValues.count)
        for (rank, value) in mergeValues.enumerated() {
            guard let line = value.stringValue, let space = line.dropFirst().firstIndex(of: " ") else {
                throw fail("tokenizer.ggml.merges[\(rank)] is \(value.summary), not 'LEFT RIGHT'")
            }
            let left = String(line[..<space]), right = String(line[line.index(after: space)...])
            guard let leftID = idByText[left], let rightID = idByText[right], let mergedID = idByText[left + right] else {
                throw fail("tokenizer.ggml.merges[\(rank)] '\(line)' names a token that is not in the vocabulary")
            }
            let key = BPEMerges.key(leftID, rightID)
            if rules[key] == nil { rules[key] = BPEMerges.Rule(rank: Int32(rank), merged: mergedID) }
        }
        merges = BPEMerges(rules: rules)
        func tokenID(_ key: String) throws -> Int? {
            guard let id = file.int(key) else { return nil }
            guard id >= 0 && id < texts.count else { throw fail("\(key) is \(id), outside the \(texts.count)-token vocabulary") }
            return id
        }
        bosID = try tokenID("tokenizer.ggml.bos_token_id")
        eosID = try tokenID("tokenizer.ggml.eos_token_id")
        eotID = try tokenID("tokenizer.ggml.eot_token_id")
    }
}
