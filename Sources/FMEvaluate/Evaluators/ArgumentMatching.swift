import FMCore

/// Decides `naturalLanguage` argument matchers: whether a value satisfies criteria written in words.
public protocol NaturalLanguageJudge {
    /// The verdict on `value` (argument `argumentName` of a call to `toolName`) against `criteria`,
    /// with the judge's reason; a failure result says why the judge could not decide.
    func judge(toolName: String, argumentName: String, value: GeneratedContent, criteria: String) -> Result<(satisfied: Bool, rationale: String), EvaluatorFailure>
}

/// Why a judge could not give a verdict: the engine failed, or its answer was unusable.
public struct EvaluatorFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong, precisely enough to act on.
    public var message: String

    /// Creates a failure.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}

extension ArgumentMatcher {
    /// Checks this matcher against a call's `arguments`; nil when it holds, else why not (naming the argument).
    func failure(in arguments: GeneratedContent, toolName: String, judge: NaturalLanguageJudge?) -> String? {
        let name = argumentName
        guard let value = JSONPointer.resolve(name, in: arguments) else {
            return "\(name): missing (arguments were \(shown(arguments)))"
        }
        switch self {
        case .exact(_, let expected):
            return value == expected ? nil : "\(name): expected \(shown(expected)), got \(shown(value))"
        case .keyOnly:
            return nil
        case .oneOf(_, let allowed):
            if allowed.contains(value) { return nil }
            return "\(name): \(shown(value)) is none of [\(abbreviate(allowed.map(\.jsonString).joined(separator: ", ")))]"
        case .range(_, let minimum, let maximum):
            guard let number = value.numberValue else { return "\(name): expected a number, got \(value.typeName) \(shown(value))" }
            let bounds = "\(minimum.map(formatScore) ?? "-∞")…\(maximum.map(formatScore) ?? "∞")"
            if let minimum, number < minimum { return "\(name): \(formatScore(number)) is below the range \(bounds)" }
            if let maximum, number > maximum { return "\(name): \(formatScore(number)) is above the range \(bounds)" }
            return nil
        case .pattern(_, let pattern):
            guard let text = value.stringValue else { return "\(name): expected a string, got \(value.typeName) \(shown(value))" }
            guard let regex = try? RegexCache.regex(pattern) else { return "\(name): pattern /\(pattern)/ does not compile" }
            return (try? regex.firstMatch(in: text)) != nil ? nil : "\(name): \(shown(value)) does not match /\(pattern)/"
        case .contains(_, let substring):
            guard let text = value.stringValue else { return "\(name): expected a string, got \(value.typeName) \(shown(value))" }
            return text.contains(substring) ? nil : "\(name): \(shown(value)) does not contain \(GeneratedContent(substring).jsonString)"
        case .hasPrefix(_, let prefix):
            guard let text = value.stringValue else { return "\(name): expected a string, got \(value.typeName) \(shown(value))" }
            return text.hasPrefix(prefix) ? nil : "\(name): \(shown(value)) does not start with \(GeneratedContent(prefix).jsonString)"
        case .hasSuffix(_, let suffix):
            guard let text = value.stringValue else { return "\(name): expected a string, got \(value.typeName) \(shown(value))" }
            return text.hasSuffix(suffix) ? nil : "\(name): \(shown(value)) does not end with \(GeneratedContent(suffix).jsonString)"
        case .naturalLanguage(_, let criteria):
            guard let judge else {
                return "\(name): naturalLanguage needs a judge engine, and none is configured for this run"
            }
            switch judge.judge(toolName: toolName, argumentName: name, value: value, criteria: criteria) {
            case .success(let verdict):
                return verdict.satisfied ? nil : "\(name): \(shown(value)) does not satisfy \"\(criteria)\" (judge: \(verdict.rationale))"
            case .failure(let failure):
                return "\(name): the judge could not decide \"\(criteria)\": \(failure.message)"
            }
        }
    }
}

extension ToolCallExpectation {
    /// Why `call` does not meet this expectation (wrong name, or one reason per failing argument); empty when it does.
    func failures(for call: ToolCall, judge: NaturalLanguageJudge?) -> [String] {
        guard call.name == name else { return ["called \(call.name), not \(name)"] }
        let isJudged = { (matcher: ArgumentMatcher) -> Bool in
            if case .naturalLanguage = matcher { return true } else { return false }
        }
        // Cheap checks first: a judge call is spent only on a call that meets every other matcher.
        let plain = arguments.filter { !isJudged($0) }.compactMap { $0.failure(in: call.arguments, toolName: call.name, judge: judge) }
        guard plain.isEmpty else { return plain }
        return arguments.filter(isJudged).compactMap { $0.failure(in: call.arguments, toolName: call.name, judge: judge) }
    }
}

extension EvaluatorFailure: ClassifiedError {
    /// An evaluator that cannot give a verdict is infrastructure: the attempt is an `error`, never a failure.
    public var failureClass: FailureClass { .infrastructure }

    /// `EvaluatorError`.
    public var domain: String { "EvaluatorError" }

    /// `evaluatorFailed`.
    public var caseName: String { "evaluatorFailed" }

    /// The message.
    public var failureMessage: String { message }
}
