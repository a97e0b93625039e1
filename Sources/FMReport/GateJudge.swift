import FMResults

/// `GateVerdict`'s rule for one case at a time, so that what a run prints as cases finish (`-q` shows only
/// the cases failing the gate) agrees with the verdict it ends with.
public struct GateJudge: Sendable {
    private let rule: GateVerdict.Rule
    private let before: [String: CaseResult]

    /// Every case's own gate: what a run without `--fail-on-regression` judges by.
    public static let everyGate = GateJudge(baseline: nil, failOnRegression: false)

    /// The judge of a run against `baseline`; `failOnRegression` applies only with a baseline.
    public init(baseline: RunResult?, failOnRegression: Bool) {
        rule = failOnRegression && baseline != nil ? .noRegressions : .everyGate
        var before: [String: CaseResult] = [:]
        for result in baseline?.cases ?? [] { before[result.id] = result }
        self.before = before
    }

    /// True when `result` fails the gate, as the run's `GateVerdict` will say.
    public func failsGate(_ result: CaseResult) -> Bool {
        let change = rule == .noRegressions ? BaselineComparison.classify(before[result.id], result) : nil
        return GateVerdict.failsGate(result, rule: rule, change: change)
    }
}
