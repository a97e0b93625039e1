import FMCore
import FMEmbedded
import FMGrammar
import Foundation

/// `fmeval bench masks --export DIR`: what another constrained-decoding engine needs to replay the same
/// steps over the same vocabulary (.ci/bench-masks-vs-llguidance.sh reads it).
///
/// - `vocabulary.json`: `{"tokens": [HEX…], "endTokens": [ID…], "specialTokens": [ID…], "pieces": […],
///   "merges": […], "preTokenizer": NAME}`: every token's bytes as fmeval's tokenizer decodes them, and the
///   GGUF's token strings, BPE merges and pre-tokenizer name, from which another engine builds the same
///   tokenizer (it tokenizes the text a grammar forces);
/// - `workloads.json`: `[{name, schema, documents, compileMicroseconds, coldMicroseconds}]`: the JSON
///   Schema text (null when the grammar has none), each document fmeval accepted as token ids ending in an
///   end token, and fmeval's own compile time and cold step times in replay order.
enum BenchMaskExport {
    /// Writes both files into `directory` (created when missing).
    static func write(to directory: String, vocabulary: TokenVocabulary, tokenizer: Tokenizer, model: GGUFFile,
                      workloads: [(schema: String?, replay: GeneratedContent)]) throws {
        func strings(_ key: String) -> GeneratedContent {
            GeneratedContent((model.array(key) ?? []).compactMap(\.stringValue).map { GeneratedContent($0) })
        }
        let hex = tokenizer.allTokenBytes.map { bytes in
            GeneratedContent(bytes.map { String(format: "%02x", $0) }.joined())
        }
        let vocabularyFile = GeneratedContent(properties: [
            ("tokens", GeneratedContent(hex)),
            ("endTokens", GeneratedContent(vocabulary.endTokenIDs.map { GeneratedContent($0) })),
            ("specialTokens", GeneratedContent(tokenizer.specialTokenIDs.sorted().map { GeneratedContent($0) })),
            ("pieces", strings("tokenizer.ggml.tokens")), ("merges", strings("tokenizer.ggml.merges")),
            ("preTokenizer", model.string("tokenizer.ggml.pre").map { GeneratedContent($0) } ?? .null),
        ])
        let workloadFile = GeneratedContent(workloads.map { schema, replay in
            var members = [("name", replay["name"] ?? .null),
                           ("schema", schema.map { GeneratedContent($0) } ?? .null)]
            for key in ["documents", "compileMicroseconds", "coldMicroseconds"] {
                members.append((key, replay[key] ?? .null))
            }
            return GeneratedContent(properties: members)
        })
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            for (name, file) in [("vocabulary.json", vocabularyFile), ("workloads.json", workloadFile)] {
                try Data(file.jsonString.utf8).write(to: URL(fileURLWithPath: FilePaths.join(directory, name)))
            }
        } catch {
            throw Fault.infrastructure("bench masks: cannot write --export \(directory): \(error.localizedDescription)")
        }
    }
}
