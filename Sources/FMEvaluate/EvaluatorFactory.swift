import FMCore

/// The engine a judge runs on: a name (nil: the case's own engine) and, for an engine that reads per-case
/// data, its data (the scripted engine's answers).
public struct JudgeEngineChoice: Hashable, Sendable {
    /// The engine's name; nil uses the case's engine.
    public var name: String?
    /// The judge's engine data (`script:` for the scripted engine); empty for other engines.
    public var data: EngineCaseData

    /// Creates a choice.
    public init(name: String?, data: EngineCaseData = EngineCaseData()) {
        self.name = name
        self.data = data
    }
}

/// What evaluators need from the run around them: judge engines and the suite's directory.
public struct EvaluationEnvironment {
    /// The engine a judge uses (by name, nil: the run's own engine); nil when there is no such engine.
    public var judgeEngine: (JudgeEngineChoice) -> (any LanguageModelEngine)?
    /// The directory `command` evaluators run in (the suite's directory).
    public var workingDirectory: String?
    /// The environment and secrets `command` evaluators run with.
    public var commands: CommandPolicy

    /// Creates an environment.
    public init(judgeEngine: @escaping (JudgeEngineChoice) -> (any LanguageModelEngine)? = { _ in nil },
                workingDirectory: String? = nil,
                commands: CommandPolicy = CommandPolicy()) {
        self.judgeEngine = judgeEngine
        self.workingDirectory = workingDirectory
        self.commands = commands
    }
}

extension Array where Element == Expectation {
    /// Every metric of every expectation for `subject`, in order.
    public func evaluate(_ subject: EvaluationSubject, in environment: EvaluationEnvironment = EvaluationEnvironment()) -> [Metric] {
        flatMap { $0.evaluator(in: environment).evaluate(subject) }
    }
}
