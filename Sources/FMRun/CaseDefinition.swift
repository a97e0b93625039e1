import Foundation
import FMCore
import FMResults
import FMSuite

/// The definition hash of an expanded case: what `--resume` and `--retry-errors` compare to decide
/// whether an earlier verdict still belongs to the case as the suites define it now.
enum CaseDefinition {
    /// Hex SHA-256 of the case's canonical JSON (sorted keys): prompt or turns, instructions, schema,
    /// tools, options, run settings, repeat, gate, expectations, engine, model, script and known issue.
    /// Where the case is written, its tags and its suite's bug report (`source`, `summary`, `reproducedWith`)
    /// are left out: moving a case, retagging it or relinking its report changes no verdict.
    static func hash(of item: ExpandedCase) -> String {
        var canonical = item
        canonical.location = SourceLocation(file: "", line: 0, column: 0)
        canonical.tags = []
        canonical.origin = nil
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(canonical) else {
            // A case that cannot be encoded cannot be compared: a fresh value never matches, so it reruns.
            return "unencodable-" + UUID().uuidString
        }
        return SHA256.hex(of: [UInt8](data))
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
