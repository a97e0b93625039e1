import FMCore

/// The engine a judge runs on: a name (nil: the case's own engine) and, for the scripted engine, the
/// answers it plays.
public struct JudgeEngineChoice: Hashable, Sendable {
    /// The engine's name; nil uses the case's engine.
    public var name: String?
    /// What a judge on the scripted engine answers; nil for other engines.
    public var script: EngineScript?

    /// Creates a choice.
    public init(name: String?, script: EngineScript? = nil) {
        self.name = name
        self.script = script
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
