import FMResults

/// `GateVerdict`'s rule for one case at a time, so that what a run prints as cases finish (`-q` shows only
/// the cases failing the gate) agrees with the verdict it ends with.
public struct GateJudge: Sendable {
    private let rule: GateVerdict.Rule
    private let source: RegressionSource
    private let baseline: RunResult?
    private let before: [String: CaseResult]

    /// Every case's own gate: what a run without `--fail-on-regression` judges by.
    public static let everyGate = GateJudge(baseline: nil, failOnRegression: false)

    /// The judge of a run against `baseline`; `failOnRegression` (limited to the regressions
    /// `regressionsFrom` names) applies only with a baseline.
    public init(baseline: RunResult?, failOnRegression: Bool, regressionsFrom: RegressionSource = .any) {
        rule = failOnRegression && baseline != nil ? .noRegressions : .everyGate
        source = regressionsFrom
        self.baseline = baseline
        var before: [String: CaseResult] = [:]
        for result in baseline?.cases ?? [] { before[result.id] = result }
        self.before = before
    }

    /// True when `result` fails the gate, as the run's `GateVerdict` will say. The cause of a regression is
    /// judged from the engine each side's case ran on: server details the run learns later are not known yet.
    public func failsGate(_ result: CaseResult) -> Bool {
        guard rule == .noRegressions, let baseline else {
            return GateVerdict.failsGate(result, rule: rule, change: nil, cause: nil, source: source)
        }
        let prior = before[result.id]
        let change = BaselineComparison.classify(prior, result)
        let cause = prior.flatMap { prior in
            DriftCause.of(modelBefore: ModelIdentity.of(prior, in: baseline),
                          modelAfter: ModelIdentity.of(result, in: RunResult(run: baseline.run, cases: [])),
                          definitionBefore: prior.definition, definitionAfter: result.definition)
        }
        return GateVerdict.failsGate(result, rule: rule, change: change, cause: cause, source: source)
    }
}
