import FMCore

/// What evaluators need from the run around them: judge engines and the suite's directory.
public struct EvaluationEnvironment {
    /// The engine a judge uses, by name (nil: the run's own engine); nil when there is no such engine.
    public var judgeEngine: (String?) -> (any LanguageModelEngine)?
    /// The directory `command` evaluators run in (the suite's directory).
    public var workingDirectory: String?
    /// The environment and secrets `command` evaluators run with.
    public var commands: CommandPolicy

    /// Creates an environment.
    public init(judgeEngine: @escaping (String?) -> (any LanguageModelEngine)? = { _ in nil }, workingDirectory: String? = nil,
                commands: CommandPolicy = CommandPolicy()) {
        self.judgeEngine = judgeEngine
        self.workingDirectory = workingDirectory
        self.commands = commands
    }
}

extension Expectation {
    /// The evaluator that checks this expectation.
    public func evaluator(in environment: EvaluationEnvironment = EvaluationEnvironment()) -> any Evaluator {
        switch self {
        case .equals(let check): return EqualsEvaluator(check)
        case .oneOf(let check): return OneOfEvaluator(check)
        case .contains(let check): return ContainsEvaluator(check)
        case .regex(let check): return RegexEvaluator(check)
        case .not(let inner): return NotEvaluator(inner.evaluator(in: environment))
        case .constraints(let check): return ConstraintsEvaluator(check)
        case .toolCalls(let check):
            // Only trajectories with naturalLanguage matchers need (and set up) a judge engine.
            let judge = judgeEngines.isEmpty ? nil : environment.judgeEngine(check.judgeEngine).map { ModelJudge(engine: $0) }
            return ToolCallsEvaluator(check, judge: judge)
        case .error(let check): return ErrorEvaluator(check)
        case .usage(let check): return UsageEvaluator(check)
        case .latency(let check): return LatencyEvaluator(check)
        case .snapshots(let check): return SnapshotsEvaluator(check)
        case .judge(let config): return JudgeEvaluator(config, judge: environment.judgeEngine(config.engine).map { ModelJudge(engine: $0) })
        case .command(let config): return CommandEvaluator(config, workingDirectory: environment.workingDirectory, commands: environment.commands)
        }
    }
}

extension Array where Element == Expectation {
    /// Every metric of every expectation for `subject`, in order.
    public func evaluate(_ subject: EvaluationSubject, in environment: EvaluationEnvironment = EvaluationEnvironment()) -> [Metric] {
        flatMap { $0.evaluator(in: environment).evaluate(subject) }
    }
}
