import FMEvaluate
import FMResults

/// How a case changed between a baseline run and the current one (`--baseline`, `fmeval compare`).
public enum BaselineChange: String, Codable, CaseIterable, Sendable {
    /// Passed in the baseline, fails now.
    case regression
    /// Fails now and has no usable baseline (new case, or skipped before).
    case newFailure = "new-failure"
    /// Failed in the baseline, passes now.
    case fixed
    /// Failed in the baseline and still fails.
    case stillFailing = "still-failing"
    /// Fails now as its `knownIssue` expects (whatever the baseline said); not a regression.
    case knownIssue = "known-issue"
    /// Passed in the baseline and still passes.
    case unchanged
    /// Passes now and has no usable baseline.
    case added
    /// In the baseline but not run now (filtered, sharded away or deleted).
    case removed
    /// Skipped now.
    case skipped

    /// True for the changes `--fail-on-regression` fails on.
    public var failsGate: Bool { self == .regression || self == .newFailure }
}

/// One case's baseline verdict.
public struct BaselineEntry: Codable, Sendable {
    /// The stable case id (`suite/case` or `suite/case@variant`).
    public var id: String
    /// The change.
    public var change: BaselineChange
    /// The case's status in the baseline, when it ran there.
    public var before: CaseStatus?
    /// The case's status now, when it ran (nil for skipped and removed cases).
    public var after: CaseStatus?
    /// Pass rate in the baseline.
    public var passRateBefore: Double?
    /// Pass rate now.
    public var passRateAfter: Double?
    /// Why the verdict flipped, for a regression or a fix: the model, the case, both or neither.
    public var cause: DriftCause? = nil
}

/// Every case of two runs classified against each other, keyed by stable case id.
public struct BaselineComparison: Codable, Sendable {
    /// One entry per case id present in either run, in the current run's order, removed ones last.
    public var entries: [BaselineEntry]

    /// Classifies the cases of `current` against those of `baseline`.
    public init(baseline: RunResult, current: RunResult) {
        var before: [String: CaseResult] = [:]
        for result in baseline.cases { before[result.id] = result }
        var seen = Set<String>()
        var entries: [BaselineEntry] = []
        entries.reserveCapacity(current.cases.count + current.skipped.count)
        for result in current.cases where seen.insert(result.id).inserted {
            let prior = before[result.id]
            var entry = BaselineEntry(id: result.id, change: Self.classify(prior, result),
                                      before: prior?.status, after: result.status,
                                      passRateBefore: prior?.passRate, passRateAfter: result.passRate)
            if let prior, entry.change == .regression || entry.change == .fixed {
                entry.cause = DriftCause.of(modelBefore: ModelIdentity.of(prior, in: baseline),
                                            modelAfter: ModelIdentity.of(result, in: current),
                                            definitionBefore: prior.definition, definitionAfter: result.definition)
            }
            entries.append(entry)
        }
        for skipped in current.skipped where seen.insert(skipped.id).inserted {
            let prior = before[skipped.id]
            entries.append(BaselineEntry(id: skipped.id, change: .skipped, before: prior?.status, after: nil,
                                         passRateBefore: prior?.passRate, passRateAfter: nil))
        }
        for result in baseline.cases where seen.insert(result.id).inserted {
            entries.append(BaselineEntry(id: result.id, change: .removed, before: result.status, after: nil,
                                         passRateBefore: result.passRate, passRateAfter: nil))
        }
        self.entries = entries
    }

    /// The entries with `change`.
    public func entries(_ change: BaselineChange) -> [BaselineEntry] { entries.filter { $0.change == change } }

    /// How many entries have each change.
    public var counts: [BaselineChange: Int] {
        var counts: [BaselineChange: Int] = [:]
        for entry in entries { counts[entry.change, default: 0] += 1 }
        return counts
    }

    /// For a baseline with regressions: whether the two runs, as paired cases (each case that ran in both),
    /// can tell a change in pass rate of the size seen from chance (`PowerPlan.underpoweredNote`).
    public var underpoweredNote: String? {
        let regressions = entries(.regression).count
        guard regressions > 0 else { return nil }
        let paired = entries.filter { $0.before != nil && $0.after != nil }.count
        return PowerPlan.underpoweredNote(onlyA: regressions, onlyB: entries(.fixed).count, total: paired)
    }

    /// True when any case regressed or newly fails: `--fail-on-regression` then exits 1.
    public var hasRegressions: Bool { entries.contains { $0.change.failsGate } }

    /// The change for one case that ran, given its baseline result (nil when absent or skipped there).
    /// Gate verdicts are compared, so a known issue that no longer reproduces is `fixed` when it failed before.
    static func classify(_ prior: CaseResult?, _ now: CaseResult) -> BaselineChange {
        if now.status == .knownIssue { return .knownIssue }
        guard let prior else { return now.gateHolds ? .added : .newFailure }
        switch (prior.gateHolds, now.gateHolds) {
        case (true, true): return .unchanged
        case (true, false): return .regression
        case (false, true): return .fixed
        case (false, false): return .stillFailing
        }
    }
}

extension CaseResult {
    /// The case's display name: `case` or `case@variant`.
    public var displayName: String { variant.map { "\(caseID)@\($0)" } ?? caseID }
}
