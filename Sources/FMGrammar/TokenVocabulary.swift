/// A tokenizer's vocabulary as the grammar sees it: the bytes each token id decodes to, the ids that
/// end generation, and special ids that a constrained step never allows (control tokens).
///
/// Ordinary tokens are also kept as a byte trie (`TokenTrie`), so a state's table is a walk that skips
/// every token under a dead prefix, and as a string slice (`StringSlice`): the tokens any free string's
/// body takes, so a body state walks only the few others.
public final class TokenVocabulary: Sendable {
    /// Bytes per token id.
    public let tokens: [[UInt8]]
    /// Ids that end generation (end of turn, end of text); allowed when the document is complete.
    public let endTokenIDs: [Int]
    /// Ids never produced under a constraint, except those also in `endTokenIDs`.
    public let specialTokenIDs: Set<Int>
    /// Ordinary token ids (non-empty, not special) as a byte trie.
    let trie: TokenTrie
    /// The tokens a free string's body always takes, and the trie of the others, per body state.
    let stringSlices: StringSlices
    /// All token bytes, concatenated by id.
    let bytes: [UInt8]
    /// Start of each token's bytes in `bytes`, by id, plus one final end offset.
    let offsets: [Int]

    /// Tokens whose first byte is `"`, as a mask (used to close over-long strings).
    let quoteStartMask: [UInt64]

    /// The number of token ids (the width of a mask).
    public var count: Int { tokens.count }
    /// The number of 64-bit words a mask over this vocabulary needs.
    public var maskWordCount: Int { (tokens.count + 63) / 64 }

    /// A vocabulary from bytes per token id, end-of-generation ids and special ids.
    public init(tokens: [[UInt8]], endTokenIDs: [Int], specialTokenIDs: Set<Int> = []) {
        self.tokens = tokens
        self.endTokenIDs = endTokenIDs.filter { $0 >= 0 && $0 < tokens.count }
        self.specialTokenIDs = specialTokenIDs
        let excluded = specialTokenIDs.union(endTokenIDs)
        let ordinary = tokens.indices.filter { !tokens[$0].isEmpty && !excluded.contains($0) }
        self.trie = TokenTrie(ids: ordinary, tokens: tokens)
        self.stringSlices = StringSlices(ordinary: ordinary, tokens: tokens, wordCount: (tokens.count + 63) / 64)
        var offsets: [Int] = [0]
        var bytes: [UInt8] = []
        for token in tokens {
            bytes.append(contentsOf: token)
            offsets.append(bytes.count)
        }
        self.bytes = bytes
        self.offsets = offsets
        var quotes = [UInt64](repeating: 0, count: (tokens.count + 63) / 64)
        for id in ordinary where tokens[id][0] == UInt8(ascii: "\"") { quotes[id >> 6] |= 1 << UInt64(id & 63) }
        self.quoteStartMask = quotes
    }

    /// Calls `body` with the bytes of token `id`.
    func withBytes<R>(of id: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try bytes.withUnsafeBufferPointer { all in
            try body(UnsafeBufferPointer(rebasing: all[offsets[id]..<offsets[id + 1]]))
        }
    }
}
