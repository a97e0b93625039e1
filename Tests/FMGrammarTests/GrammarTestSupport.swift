import FMCore
import Foundation
@testable import FMGrammar

/// The seven reference GenerationSchema files, by name, from the package's `reference/apple-fm-sdk`.
enum ReferenceSchemas {
    /// The schema names.
    static let names = ["age", "cat", "hedgehog", "newsletter", "person", "petClub", "shelter"]

    /// The directory holding them, found from this file's path.
    static var directory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("reference/apple-fm-sdk")
    }

    /// The schema named `name`.
    static func load(_ name: String) throws -> GenerationSchema {
        let text = try String(contentsOf: directory.appendingPathComponent(name + ".json"), encoding: .utf8)
        return try GenerationSchema(json: text)
    }
}


/// A small byte-level vocabulary shaped like a BPE one: every single byte, JSON punctuation runs,
/// spaced variants, words and digit runs, plus two special tokens (id 0 ends generation).
enum SyntheticVocabulary {
    /// The end-of-generation token id.
    static let end = 0
    /// A control token never allowed under a constraint.
    static let control = 1

    /// Builds the vocabulary.
    static func make(extraWords: [String] = []) -> TokenVocabulary {
        var tokens: [[UInt8]] = [Array("<|im_end|>".utf8), Array("<|im_start|>".utf8)]
        for byte in 0...255 { tokens.append([UInt8(byte)]) }
        let pieces = ["{\"", "\":", "\": ", "\",", "\", \"", "\",\"", "\"}", "\"},", "\"}]", "},{\"", "}]", "]}", "[{\"",
                      "[\"", "\"]", ", ", ",\"", " \"", "\":\"", "\": \"", "\":[", "\":{\"", "\\\"", "\\n", "\\u00",
                      "true", "false", "null", "name", "age", "years", "months", "children", "profile", "cats",
                      "hobbies", "home", "hedge", " hedge", "a hedge", "carrot", "turnip", "leek", "title", "topic",
                      "10", "100", "12", "3", "42", "-1", ".5", "0.", "00", "99", "The", " the", " cat", "Mitt",
                      "ens", " loves", "é", "☀️", " ", "  ", "\n", "getCityInfo", "city", "Paris", "London",
                      "arguments", "{\"name\":\"", "\",\"arguments\":{"] + extraWords
        tokens.append(contentsOf: pieces.map { Array($0.utf8) })
        return TokenVocabulary(tokens: tokens, endTokenIDs: [end], specialTokenIDs: [control])
    }
}

/// Splits `bytes` into vocabulary tokens at random (any token that is a prefix of the rest).
func randomTokenization(_ bytes: [UInt8], vocabulary: TokenVocabulary, using random: inout SplitMix64) -> [Int] {
    var result: [Int] = []
    var position = 0
    while position < bytes.count {
        let rest = bytes[position...]
        let candidates = vocabulary.tokens.indices.filter { id in
            id != SyntheticVocabulary.end && id != SyntheticVocabulary.control
                && !vocabulary.tokens[id].isEmpty && rest.starts(with: vocabulary.tokens[id])
        }
        let chosen = candidates.randomElement(using: &random)!
        result.append(chosen)
        position += vocabulary.tokens[chosen].count
    }
    return result
}
