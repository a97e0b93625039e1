import FMCore
import Foundation
import FMResults

extension ReportFormat {
    /// `--json FILE` of `fmeval compare`: the baseline table and the A/B comparisons as JSON.
    public static let comparisonJSON = ReportFormat(
        name: "json", help: "write the comparison as JSON ({\"baseline\": …, \"ab\": [ … ]})", needs: .comparison
    ) { input in
        try ComparisonDocument(baseline: input.baseline, ab: input.comparisons).jsonData()
    }
}

/// The JSON written by `fmeval compare --json`: `{"baseline": …, "ab": [ … ]}` (docs/reports.md).
public struct ComparisonDocument: Encodable, Sendable {
    /// Every case's change against the base (two files only).
    public var baseline: BaselineComparison?
    /// The paired A/B comparisons.
    public var ab: [ABComparison]

    /// A document of `baseline` (absent with one file) and the A/B comparisons `ab`.
    public init(baseline: BaselineComparison?, ab: [ABComparison]) {
        self.baseline = baseline
        self.ab = ab
    }

    /// Pretty-printed JSON with sorted keys and unescaped slashes.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(self)
        } catch {
            throw Fault.invalidInput("cannot write the comparison as JSON: \(error)")
        }
    }
}
