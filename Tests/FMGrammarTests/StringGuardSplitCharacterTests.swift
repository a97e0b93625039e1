import FMCore
import Foundation
import Testing
@testable import FMGrammar

/// The string guard counts bytes across tokens that split a character: a model that writes emoji, CJK,
/// combining marks or mixed scripts in tokens ending mid-character (as byte-level BPE vocabularies do)
/// still has its string closed at the limit, and every schema run ends within its guards.
@Suite struct StringGuardSplitCharacterTests {
    /// Texts a model might want to write forever, by script.
    static let texts = ["😀🎉👍🏽", "東京都渋谷区", "e\u{301}a\u{308}n\u{303}", "Hé 世界 😀 مرحبا ok", "🇫🇷🇯🇵", "\\u00e9\\n😀"]

    /// A vocabulary of every byte plus, for each text, tokens that end in the middle of a character and
    /// tokens that finish one character and begin the next (no token of these ends on a boundary).
    static func vocabulary() -> TokenVocabulary {
        var tokens: [[UInt8]] = [Array("<|im_end|>".utf8)]
        for byte in 0...255 { tokens.append([UInt8(byte)]) }
        var pieces = Set<[UInt8]>()
        for text in texts {
            let bytes = Array(text.utf8)
            for start in bytes.indices {
                for length in 2...5 where start + length <= bytes.count { pieces.insert(Array(bytes[start..<(start + length)])) }
            }
        }
        tokens += pieces.sorted { $0.lexicographicallyPrecedes($1) }
        return TokenVocabulary(tokens: tokens, endTokenIDs: [0])
    }

    /// Schemas whose documents hold free strings in each position.
    static let schemas = [
        #"{"type":"string"}"#,
        #"{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}"#,
        #"{"type":"array","items":{"type":"string"},"minItems":2,"maxItems":2}"#,
        #"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"array","items":{"type":"string"},"maxItems":1}},"required":["a","b"],"x-order":["a","b"],"additionalProperties":false}"#,
    ]

    /// A model that always wants to go on writing `text` (cycled) inside strings: among the allowed
    /// tokens it takes the longest that continues the text, else one that closes the string, else the
    /// shortest allowed. Returns the document and whether it ended (an end token) within `steps`.
    static func generate(schema: String, text: String, limit: Int, steps: Int = 4000) throws -> (bytes: [UInt8], ended: Bool) {
        let grammar = try Grammar.json(schema: try GenerationSchema(json: schema), options: GrammarOptions(maximumStringBytes: limit))
        let vocabulary = vocabulary()
        let matcher = TokenMatcher(table: TokenTable(grammar: grammar, vocabulary: vocabulary))
        let wanted = Array(text.utf8)
        var position = 0
        for _ in 0..<steps {
            let allowed = matcher.allowedTokens()
            guard !allowed.isEmpty else { return (matcher.acceptedBytes, false) }
            if allowed.contains(0) && matcher.mustEnd { return (matcher.acceptedBytes, matcher.accept(0)) }
            let continuing = allowed.filter { id in
                let token = vocabulary.tokens[id]
                return !token.isEmpty && (0..<token.count).allSatisfy { token[$0] == wanted[(position + $0) % wanted.count] }
            }
            let choice: Int
            if let longest = continuing.max(by: { vocabulary.tokens[$0].count < vocabulary.tokens[$1].count }) {
                choice = longest
                position = (position + vocabulary.tokens[longest].count) % wanted.count
            } else if let closing = allowed.first(where: { vocabulary.tokens[$0].first == UInt8(ascii: "\"") }) {
                choice = closing
            } else if allowed.contains(0) {
                return (matcher.acceptedBytes, matcher.accept(0))
            } else {
                choice = allowed.min { vocabulary.tokens[$0].count < vocabulary.tokens[$1].count }!
            }
            #expect(matcher.accept(choice))
        }
        return (matcher.acceptedBytes, false)
    }

    /// The byte lengths of the string bodies in a JSON document (escapes counted as written).
    static func stringBodies(_ bytes: [UInt8]) -> [Int] {
        var lengths: [Int] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\"") {
                var end = index + 1
                while end < bytes.count && bytes[end] != UInt8(ascii: "\"") { end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1 }
                lengths.append(end - index - 1)
                index = end + 1
            } else {
                index += 1
            }
        }
        return lengths
    }

    @Test(arguments: schemas)
    func everyRunEndsWithinTheGuard(schema: String) throws {
        let limit = 24
        let longestToken = 5
        for text in Self.texts {
            let (bytes, ended) = try Self.generate(schema: schema, text: text, limit: limit)
            let document = String(decoding: bytes, as: UTF8.self)
            #expect(ended, "\(text) under \(schema) did not end: \(bytes.count) bytes, \(document.prefix(120))")
            #expect(String(validating: bytes, as: UTF8.self) != nil, "not UTF-8: \(document)")
            for length in Self.stringBodies(bytes) {
                #expect(length < limit + longestToken, "a string of \(length) bytes in \(document)")
            }
        }
    }

    @Test func aSplitCharacterIsFinishedBeforeTheStringCloses() throws {
        let (bytes, ended) = try Self.generate(schema: #"{"type":"string"}"#, text: "😀", limit: 6)
        #expect(ended)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text == "\"😀😀\"", "\(text)")
    }
}
