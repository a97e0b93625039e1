/// A tokenizer's vocabulary as the grammar sees it: the bytes each token id decodes to, the ids that
/// end generation, and special ids that a constrained step never allows (control tokens).
///
/// Ordinary tokens are also kept sorted by their bytes with the length of the prefix each shares
/// with its predecessor, so a walk over the sorted list is a walk over a byte trie of the vocabulary.
public final class TokenVocabulary: Sendable {
    /// Bytes per token id.
    public let tokens: [[UInt8]]
    /// Ids that end generation (end of turn, end of text); allowed when the document is complete.
    public let endTokenIDs: [Int]
    /// Ids never produced under a constraint, except those also in `endTokenIDs`.
    public let specialTokenIDs: Set<Int>
    /// Ordinary token ids (non-empty, not special) in byte order.
    let sortedIDs: [Int32]
    /// For each position in `sortedIDs`, the length of the prefix shared with the previous token.
    let sharedPrefix: [Int32]
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
        let sorted = ordinary.sorted { tokens[$0].lexicographicallyPrecedes(tokens[$1]) }
        var shared: [Int32] = []
        shared.reserveCapacity(sorted.count)
        var previous: [UInt8] = []
        for id in sorted {
            let current = tokens[id]
            var length = 0
            while length < min(previous.count, current.count) && previous[length] == current[length] { length += 1 }
            shared.append(Int32(length))
            previous = current
        }
        self.sortedIDs = sorted.map { Int32($0) }
        self.sharedPrefix = shared
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
