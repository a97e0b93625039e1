import Foundation
import Testing
import FMCore
import FMEmbedded
@testable import FMGrammar

/// Masks over the default model's own vocabulary (49,152 tokens) equal a brute-force check of every
/// token, at sampled states along example documents: the table's trie walk skips dead prefixes and
/// string bodies take their precomputed slice, and neither may change a single bit.
@Suite(.serialized) struct ModelVocabularyMaskTests {
    static let vocabulary: TokenVocabulary = {
        let url = try! ModelStore.defaultModelURL { _ in }
        let tokenizer = try! Tokenizer(file: try! GGUFFile(path: url.path))
        return TokenVocabulary(tokens: tokenizer.allTokenBytes, endTokenIDs: Array(tokenizer.stopIDs).sorted(),
                               specialTokenIDs: tokenizer.specialTokenIDs)
    }()

    /// The ids a brute force allows after `prefix`: every ordinary token that keeps some configuration
    /// alive (or completes the document), and the end tokens when the prefix is complete.
    static func bruteForce(_ grammar: Grammar, prefix: [UInt8], vocabulary: TokenVocabulary) -> Set<Int> {
        var simulator = StackSimulator(grammar: grammar)
        var configurations = simulator.initial()
        var complete = simulator.completed
        for byte in prefix {
            simulator.advance(&configurations, byte: byte)
            complete = simulator.completed
        }
        var allowed = Set<Int>()
        if complete { allowed.formUnion(vocabulary.endTokenIDs) }
        for id in vocabulary.tokens.indices where !vocabulary.tokens[id].isEmpty
            && !vocabulary.specialTokenIDs.contains(id) && !vocabulary.endTokenIDs.contains(id) {
            let passes = vocabulary.withBytes(of: id) { bytes in
                configurations.contains { simulator.accepts(bytes, from: $0) }
            }
            if passes { allowed.insert(id) }
        }
        return allowed
    }

    static let schemaFiles = ["cat", "hedgehog", "newsletter", "person", "petClub"]

    @Test(arguments: schemaFiles)
    func everyMaskBitEqualsBruteForceAtSampledStates(name: String) throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("reference/apple-fm-sdk")
        let schema = try GenerationSchema(json: String(contentsOf: folder.appendingPathComponent(name + ".json"),
                                                       encoding: .utf8))
        let grammar = try Grammar.json(schema: schema)
        let vocabulary = Self.vocabulary
        let matcher = TokenMatcher(table: TokenTable(grammar: grammar, vocabulary: vocabulary))
        var examples = ExampleDocuments(schema: schema, seed: 7)
        var mask = [UInt64](repeating: 0, count: vocabulary.maskWordCount)
        var checked = 0
        for _ in 0..<2 {
            let document = Array(examples.next().jsonString.utf8)
            matcher.reset()
            var position = 0, step = 0
            // Byte by byte through single-byte tokens, so every state along the document is reached.
            while position <= document.count {
                if step % 5 == 0 {
                    mask.withUnsafeMutableBufferPointer { matcher.fillNextTokenMask($0.baseAddress!) }
                    let filled = Set((0..<vocabulary.count).filter { mask[$0 >> 6] & (1 << UInt64($0 & 63)) != 0 })
                    let expected = Self.bruteForce(grammar, prefix: Array(document[..<position]),
                                                   vocabulary: vocabulary)
                    let prefix = String(decoding: document[..<position], as: UTF8.self)
                    let extra = filled.subtracting(expected).count, missing = expected.subtracting(filled).count
                    let difference = "\(extra) extra, \(missing) missing"
                    #expect(filled == expected, "\(name) after \(prefix): \(difference)")
                    checked += 1
                }
                guard position < document.count else { break }
                let id = try #require(vocabulary.tokens.firstIndex(of: [document[position]]))
                #expect(matcher.accept(id))
                position += 1
                step += 1
            }
        }
        #expect(checked > 10)
    }
}
