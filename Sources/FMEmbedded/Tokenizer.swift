/// A GPT-2 byte-level BPE tokenizer read from GGUF metadata, matching llama.cpp token for token.
///
/// Text is split by the model's pre-tokenizer (`tokenizer.ggml.pre`), each piece's UTF-8 bytes become
/// byte tokens, and merges (`tokenizer.ggml.merges`) apply lowest rank first, leftmost on ties.
/// Special tokens (control tokens such as `<|im_start|>`) are recognised only when asked.
public final class Tokenizer: Sendable {
    /// llama.cpp's token types (`tokenizer.ggml.token_type`).
    public enum TokenType: Int, Sendable {
        /// Type 0.
        case undefined = 0
        /// An ordinary vocabulary entry.
        case normal = 1
        /// The unknown token.
        case unknown = 2
        /// A control token (`<|im_start|>`, `<|endoftext|>`): parsed only when asked, rendered only when asked.
        case control = 3
        /// A user-defined token: always parsed and rendered as its text.
        case userDefined = 4
        /// A reserved, unused entry.
        case unused = 5
        /// A raw byte token.
        case byte = 6
    }

    /// The number of token ids.
    public var vocabularySize: Int { pieces.count }
    /// The type of each token id.
    public let tokenTypes: [TokenType]
    /// The pre-tokenizer in use.
    public let preTokenizer: PreTokenizer
    /// `tokenizer.ggml.bos_token_id`, if present.
    public let bosID: Int?
    /// `tokenizer.ggml.eos_token_id`, if present.
    public let eosID: Int?
    /// Ids that end a chat turn: EOS, `tokenizer.ggml.eot_token_id`, and `<|im_end|>` / `<|endoftext|>` when present.
    public let stopIDs: Set<Int>
    /// Ids of control, user-defined and unknown tokens (never produced by plain-text tokenization).
    public let specialTokenIDs: Set<Int>

    /// The bytes of every token (for special tokens, the UTF-8 of their text).
    private let pieces: [[UInt8]]
    /// The token for each single byte (-1 where the vocabulary has none).
    private let byteTokens: [Int32]
    private let merges: BPEMerges
    /// Tokens matched in text by `tokenize(parseSpecial:)`, longest text first.
    private let specials: [(scalars: [Unicode.Scalar], id: Int, alwaysParsed: Bool)]
    private let specialByText: [String: Int]

    /// Reads the tokenizer from `file`'s metadata; throws naming the key and what to do.
    public convenience init(file: GGUFFile) throws {
        let vocabulary = try TokenizerVocabulary(file: file)
        try self.init(vocabulary: vocabulary)
    }

    /// Builds the tokenizer from already-read vocabulary data.
    init(vocabulary: TokenizerVocabulary) throws {
        preTokenizer = vocabulary.preTokenizer
        tokenTypes = vocabulary.types
        bosID = vocabulary.bosID
        eosID = vocabulary.eosID
        pieces = vocabulary.pieces
        byteTokens = vocabulary.byteTokens
        merges = vocabulary.merges
        var special: [(scalars: [Unicode.Scalar], id: Int, alwaysParsed: Bool)] = []
        var byText: [String: Int] = [:]
        var specialIDs = Set<Int>()
        for (id, type) in vocabulary.types.enumerated() where type == .control || type == .userDefined || type == .unknown {
            specialIDs.insert(id)
            let text = vocabulary.texts[id]
            byText[text] = byText[text] ?? id
            if !text.isEmpty { special.append((Array(text.unicodeScalars), id, type == .userDefined)) }
        }
        specials = special.sorted { $0.scalars.count > $1.scalars.count }
        specialByText = byText
        specialTokenIDs = specialIDs
        var stops = Set<Int>()
        if let eos = vocabulary.eosID { stops.insert(eos) }
        if let eot = vocabulary.eotID { stops.insert(eot) }
        for text in ["<|im_end|>", "<|endoftext|>", "<|eot_id|>"] {
            if let id = byText[text] { stops.insert(id) }
        }
        stopIDs = stops
    }

    /// The id of the special token spelled `text` (e.g. `<|im_end|>`), if there is one.
    public func specialTokenID(_ text: String) -> Int? { specialByText[text] }

    /// The bytes token `id` stands for (special tokens: their text); empty for an id outside the vocabulary.
    public func tokenBytes(_ id: Int) -> [UInt8] {
        id >= 0 && id < pieces.count ? pieces[id] : []
    }

    /// The bytes of every token id, in id order (what a grammar matcher needs).
    public var allTokenBytes: [[UInt8]] { pieces }

    /// The exact bytes `ids` decode to. Control and unknown tokens render as their text only when
    /// `renderSpecial` is set (llama.cpp's default is not to); ids outside the vocabulary render as nothing.
    public func detokenize(_ ids: [Int], renderSpecial: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        for id in ids where id >= 0 && id < pieces.count {
            let type = tokenTypes[id]
            if !renderSpecial && (type == .control || type == .unknown) { continue }
            out.append(contentsOf: pieces[id])
        }
        return out
    }

    /// `detokenize` as a string (invalid UTF-8, e.g. half an emoji, becomes U+FFFD).
    public func text(_ ids: [Int], renderSpecial: Bool = false) -> String {
        String(decoding: detokenize(ids, renderSpecial: renderSpecial), as: UTF8.self)
    }

    /// The token ids of `text`, without BOS. With `parseSpecial`, control tokens written in the text
    /// (e.g. `<|im_start|>`) become their ids; otherwise they are tokenized as plain characters.
    public func tokenize(_ text: String, parseSpecial: Bool = false) -> [Int] {
        let scalars = Array(text.unicodeScalars)
        var output: [Int] = []
        output.reserveCapacity(scalars.count / 3 + 4)
        for fragment in partition(scalars, parseSpecial: parseSpecial) {
            switch fragment {
            case .special(let id): output.append(id)
            case .text(let range): encode(scalars, range, into: &output)
            }
        }
        return output
    }

    private enum Fragment {
        case text(Range<Int>)
        case special(Int)
    }

    /// Splits `scalars` at special-token occurrences, longest special first, leftmost first (llama.cpp's order).
    private func partition(_ scalars: [Unicode.Scalar], parseSpecial: Bool) -> [Fragment] {
        var fragments: [Fragment] = [.text(0 ..< scalars.count)]
        for special in specials where parseSpecial || special.alwaysParsed {
            let needle = special.scalars
            var rebuilt: [Fragment] = []
            for fragment in fragments {
                guard case .text(let range) = fragment else { rebuilt.append(fragment); continue }
                var start = range.lowerBound
                var cursor = range.lowerBound
                while cursor + needle.count <= range.upperBound {
                    if scalars[cursor] == needle[0] && scalars[cursor ..< cursor + needle.count].elementsEqual(needle) {
                        if start < cursor { rebuilt.append(.text(start ..< cursor)) }
                        rebuilt.append(.special(special.id))
                        cursor += needle.count
                        start = cursor
                    } else {
                        cursor += 1
                    }
                }
                if start < range.upperBound { rebuilt.append(.text(start ..< range.upperBound)) }
            }
            fragments = rebuilt
        }
        return fragments
    }

    /// Pre-tokenizes and BPE-encodes `scalars[range]`.
    private func encode(_ scalars: [Unicode.Scalar], _ range: Range<Int>, into output: inout [Int]) {
        let slice = Array(scalars[range])
        var bytes: [Int32] = []
        for piece in preTokenizer.split(slice) {
            bytes.removeAll(keepingCapacity: true)
            for scalar in slice[piece] {
                UTF8.encode(scalar) { bytes.append(byteTokens[Int($0)]) }
            }
            merges.apply(bytes, into: &output)
        }
    }
}
