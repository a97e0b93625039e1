import FMCore
import Foundation
import FMEvaluate
import FMResults

/// Combines the results of several shards (or partial runs) of one configuration into one document.
///
/// Lossless: every case of every input is kept unchanged. A case that ran in one input and was
/// selected out in another is kept as run; two real results for the same id are an error, since they
/// mean the inputs overlap. Classification matrices of the same suite and variant are summed. The merged
/// run has its own id, the same for the same inputs, and lists the inputs' ids in `mergedFrom`; its cases
/// are in the order one run of all of them writes (suite file, line in it, variant).
public enum MergeResults {
    /// A merged document and anything the user should know about it.
    public struct Outcome {
        /// The merged results.
        public var result: RunResult
        /// Notes such as missing shards.
        public var warnings: [String]
    }

    /// Merges `inputs` (a name for messages, usually the file path, and its results), in order.
    public static func merge(_ inputs: [(name: String, result: RunResult)]) throws -> Outcome {
        guard !inputs.isEmpty else { throw Fault.invalidInput("merge: give at least one results file") }
        // An empty shard ran no engine, so only inputs with cases must agree on it (the first of them leads).
        let lead = inputs.firstIndex { !$0.result.cases.isEmpty } ?? 0
        let first = inputs[lead]
        for input in inputs where !input.result.cases.isEmpty && input.result.run.fingerprint.engine != first.result.run.fingerprint.engine {
            let a = first.result.run.fingerprint.engine, b = input.result.run.fingerprint.engine
            throw Fault.invalidInput("merge: \(input.name) ran \(b) but \(first.name) ran \(a); merge only shards of one engine and model")
        }
        try checkSplits(inputs)
        var owner: [String: String] = [:]
        var cases: [CaseResult] = []
        for input in inputs {
            for result in input.result.cases {
                if let other = owner[result.id] {
                    throw Fault.invalidInput("merge: case \(result.id) has results in both \(other) and \(input.name); the inputs overlap (were they run with the same --shard?)")
                }
                owner[result.id] = input.name
                cases.append(result)
            }
        }
        var skippedIDs = Set<String>()
        var skipped: [SkippedCase] = []
        for input in inputs {
            for entry in input.result.skipped where owner[entry.id] == nil && skippedIDs.insert(entry.id).inserted {
                skipped.append(entry)
            }
        }
        var warnings: [String] = []
        let infos = inputs.map(\.result.run)
        let info = mergedInfo([infos[lead]] + infos[..<lead] + infos[(lead + 1)...], warnings: &warnings)
        let classifications = mergedClassifications(inputs.flatMap(\.result.classifications))
        let result = RunResult(run: info, cases: MergeOrder.sorted(cases, inputs: inputs.map(\.result.cases)),
                               skipped: skipped, classifications: classifications)
        return Outcome(result: result, warnings: warnings)
    }

    /// Shards balanced by history agree on every case's shard only when they read the same durations, so
    /// their assignment digests must be equal (and so must any other shard's beside them): otherwise cases
    /// would be run twice or not at all. Hash-split shards cannot disagree (a case's hash is its own).
    static func checkSplits(_ inputs: [(name: String, result: RunResult)]) throws {
        let splits = inputs.compactMap { input in input.result.run.shardAssignment.map { (input.name, $0) } }
        guard splits.contains(where: { $0.1.balance != ShardBalance.hash.name }), let first = splits.first,
              let other = splits.first(where: { $0.1.digest != first.1.digest }) else { return }
        let describe = { (split: (String, ShardAssignmentInfo)) in
            let basis = split.1.basis.map { ", " + $0 } ?? ""
            return "\(split.0) (\(split.1.balance)\(basis), digest \(split.1.digest.prefix(12)))"
        }
        throw Fault.invalidInput("merge: \(describe(first)) and \(describe(other)) split the cases differently, so "
            + "cases would run twice or not at all; give every shard the same history file and suites, and run them "
            + "again (docs/ci.md, \"Shards\")")
    }

    /// Run information spanning every input: earliest start, latest finish, union of paths and variants.
    static func mergedInfo(_ infos: [RunInfo], warnings: inout [String]) -> RunInfo {
        var info = infos[0]
        let ids = infos.map(\.id)
        info.id = mergedID(of: ids)
        info.mergedFrom = ids
        info.startedAt = infos.map(\.startedAt).min() ?? info.startedAt
        let finished = infos.compactMap(\.finishedAt)
        info.finishedAt = finished.count == infos.count ? finished.max() : nil
        let durations = infos.compactMap(\.durationMs)
        info.durationMs = durations.count == infos.count ? durations.max() : nil
        info.paths = unique(infos.flatMap(\.paths))
        info.variants = unique(infos.flatMap(\.variants))
        info.checkDeterminism = infos.contains(where: \.checkDeterminism)
        info.resumedFrom = nil
        info.shard = mergedShard(infos.map(\.shard), warnings: &warnings)
        info.shardAssignment = nil
        return info
    }

    /// A UUID-shaped id derived from the inputs' ids (in any order): merging the same shards again gives the
    /// same run, which the history then replaces instead of counting twice.
    static func mergedID(of ids: [String]) -> String {
        let hex = Array(SHA256.hex(of: Array(("merge\n" + ids.sorted().joined(separator: "\n")).utf8)).prefix(32))
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }.joined(separator: "-").uppercased()
    }

    /// nil when the inputs cover every shard 1…N (or none was sharded); otherwise the shards present.
    static func mergedShard(_ shards: [String?], warnings: inout [String]) -> String? {
        let parsed = shards.compactMap { $0 }.compactMap { try? Shard(parsing: $0) }
        guard !parsed.isEmpty else { return nil }
        let counts = Set(parsed.map(\.count))
        guard counts.count == 1, let count = counts.first else {
            warnings.append("merge: the inputs were sharded differently (\(unique(parsed.map(\.description)).joined(separator: ", "))); the merged cases may overlap or have gaps")
            return unique(parsed.map(\.description)).joined(separator: ",")
        }
        let present = Set(parsed.map(\.index))
        let missing = (1...count).filter { !present.contains($0) }
        guard missing.isEmpty else {
            warnings.append("merge: shard\(missing.count == 1 ? "" : "s") \(missing.map { "\($0)/\(count)" }.joined(separator: ", ")) missing; the merged results are partial")
            return present.sorted().map { "\($0)/\(count)" }.joined(separator: ",")
        }
        return nil
    }

    /// Sums confusion matrices of the same suite and variant over the union of their labels.
    static func mergedClassifications(_ parts: [SuiteClassification]) -> [SuiteClassification] {
        var order: [String] = []
        var grouped: [String: [SuiteClassification]] = [:]
        for part in parts {
            let key = part.suite + "\u{1F}" + (part.variant ?? "")
            if grouped[key] == nil { order.append(key) }
            grouped[key, default: []].append(part)
        }
        return order.compactMap { key in
            guard let group = grouped[key], let head = group.first else { return nil }
            guard group.count > 1 else { return head }
            var observations: [ClassificationObservation] = []
            for part in group {
                let summary = part.summary
                for expected in summary.labels {
                    for (predicted, count) in summary.matrix[expected] ?? [:] where count > 0 {
                        let produced = predicted == ClassificationSummary.outOfEnum ? nil : predicted
                        observations += Array(repeating: ClassificationObservation(expected: expected, predicted: produced), count: count)
                    }
                }
            }
            var merged = ClassificationSummary(labels: unique(group.flatMap(\.summary.labels)), observations: observations)
            merged.unknownExpectedLabels = unique(group.flatMap(\.summary.unknownExpectedLabels)).sorted()
            return SuiteClassification(suite: head.suite, variant: head.variant, summary: merged)
        }
    }

    private static func unique(_ values: [String]) -> [String] {
        var seen = Set<String>()
        return values.filter { seen.insert($0).inserted }
    }
}
