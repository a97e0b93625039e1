import Foundation
import FMCore
import FMResults
import FMSuite

/// The definition hash of an expanded case: what `--resume` and `--retry-errors` compare to decide
/// whether an earlier verdict still belongs to the case as the suites define it now.
enum CaseDefinition {
    /// The version of the canonical form, written before the digest (`v2:…`): a hash of another version
    /// never equals one of this, so results hashed by an older fmeval rerun rather than match by chance.
    static let version = 2

    /// The stored properties of `ExpandedCase` left out of the hash, each with why leaving it out changes
    /// no verdict. Every other stored property is hashed (`CaseDefinitionTests` enumerates them).
    static let excluded: [String: String] = [
        "location": "where the case is written: moving a case within or between files changes no verdict",
        "tags": "tags select and group cases; retagging changes no verdict",
        "origin": "the suite's bug report (source, summary, reproducedWith) documents the case; "
            + "relinking it changes no verdict",
    ]

    /// `v2:` and the hex SHA-256 of the case's canonical JSON (sorted keys): every stored property but
    /// `excluded`, with files by content, never by path, so the hash is the same from any working folder
    /// and after the suite folder moves: a tool's `{file}` output by its text, a recorded transcript by
    /// its SHA-256 (images are already encoded by content).
    static func hash(of item: ExpandedCase) -> String {
        var canonical = item
        canonical.location = SourceLocation(file: "", line: 0, column: 0)
        canonical.tags = []
        canonical.origin = nil
        canonical.tools = item.tools.map { tool in
            var tool = tool
            tool.output = tool.output.byContent
            return tool
        }
        canonical.recorded = item.recorded.map { RecordedTranscript(path: "", sha256: $0.sha256, transcript: nil) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(canonical) else {
            // A case that cannot be encoded cannot be compared: a fresh value never matches, so it reruns.
            return "unencodable-" + UUID().uuidString
        }
        return "v\(version):" + SHA256.hex(of: [UInt8](data))
    }
}

private extension ToolOutput {
    /// The output with every file by its text alone (the path is where it was read from, not what it says).
    var byContent: ToolOutput {
        switch self {
        case .file(_, let text): return .file(path: "", text: text)
        case .byArguments(let rules):
            return .byArguments(rules.map { ToolOutputRule(when: $0.when, output: $0.output.byContent) })
        case .text, .structure, .command: return self
        }
    }
}

/// Why an earlier case result cannot be kept by `--resume` or `--retry-errors`.
struct StaleResult {
    /// The case id.
    var id: String
    /// Why it is run again, for the message.
    var reason: String
}

extension CaseResult {
    /// Why this earlier result no longer stands for `item` run on `engine` (nil: it does): a changed
    /// definition, another engine, model or model hash, or no recorded definition at all.
    func staleness(for item: ExpandedCase, engine: EngineIdentity) -> String? {
        guard let definition else { return "its results predate definition hashes" }
        guard definition.hasPrefix("v\(CaseDefinition.version):") else {
            return "its definition was hashed by an older fmeval (definition version \(CaseDefinition.version) now)"
        }
        if definition != CaseDefinition.hash(of: item) { return "its definition changed" }
        guard let before = self.engine else { return "no engine was recorded for it" }
        if before != engine { return "it ran on \(before.detailed), this run uses \(engine.detailed)" }
        return nil
    }
}

extension EngineIdentity {
    /// `name (model)` with the start of the model hash, to tell two models of one name apart.
    var detailed: String {
        description + (modelHash.map { " sha256 \($0.prefix(12))" } ?? "")
    }
}
