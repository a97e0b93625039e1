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
            return modifiers.isOptional ? nil : "\(name): missing (arguments were \(shown(arguments)))"
        }
        return base.failure(of: value, modifiers: modifiers, toolName: toolName, judge: judge)
    }

    /// Checks this plain matcher against the argument's `value`, strings compared under `modifiers`.
    private func failure(of value: GeneratedContent, modifiers: ArgumentModifiers, toolName: String, judge: NaturalLanguageJudge?) -> String? {
        let name = argumentName
        let how = modifiers.rewritesStrings ? " (compared as \(shown(modifiers.normalized(value))))" : ""
        switch self {
        case .exact(_, let expected):
            guard !modifiers.matches(value, answer: expected) else { return nil }
            let typed = value == expected ? " (equal values, but list items are typed: an integer is not a decimal)" : ""
            return "\(name): expected \(shown(expected)), got \(shown(value))\(how)\(typed)"
        case .keyOnly, .modified:
            return nil
        case .oneOf(_, let allowed):
            if allowed.contains(where: { modifiers.matches(value, answer: $0) }) { return nil }
            return "\(name): \(shown(value)) is none of [\(abbreviate(allowed.map(\.jsonString).joined(separator: ", ")))]\(how)"
        case .range(_, let minimum, let maximum):
            guard value.numberValue != nil else { return "\(name): expected a number, got \(value.typeName) \(shown(value))" }
            let bounds = "\(minimum?.jsonString ?? "-∞")…\(maximum?.jsonString ?? "∞")"
            if let minimum, let order = value.numericOrder(to: minimum), order < 0 {
                return "\(name): \(value.jsonString) is below the range \(bounds)"
            }
            if let maximum, let order = value.numericOrder(to: maximum), order > 0 {
                return "\(name): \(value.jsonString) is above the range \(bounds)"
            }
            return nil
        case .length(_, let minimum, let maximum):
            guard let elements = value.arrayValue else { return "\(name): expected an array, got \(value.typeName) \(shown(value))" }
            if let minimum, elements.count < minimum { return "\(name): \(elements.count) element(s), fewer than \(minimum)" }
            if let maximum, elements.count > maximum { return "\(name): \(elements.count) element(s), more than \(maximum)" }
            return nil
        case .pattern(_, let pattern):
            guard let text = value.stringValue else { return "\(name): expected a string, got \(value.typeName) \(shown(value))" }
            guard let regex = try? RegexCache.regex(pattern) else { return "\(name): pattern /\(pattern)/ does not compile" }
            let subject = modifiers.normalized(text)
            let found = modifiers.ignoreCase ? (try? regex.ignoresCase().firstMatch(in: subject)) : (try? regex.firstMatch(in: subject))
            return found.flatMap { $0 } != nil ? nil : "\(name): \(shown(value)) does not match /\(pattern)/\(how)"
        case .contains(_, let substring):
            guard let text = value.stringValue else { return "\(name): expected a string, got \(value.typeName) \(shown(value))" }
            return modifiers.normalized(text).contains(modifiers.normalized(substring)) ? nil : "\(name): \(shown(value)) does not contain \(GeneratedContent(substring).jsonString)\(how)"
        case .hasPrefix(_, let prefix):
            guard let text = value.stringValue else { return "\(name): expected a string, got \(value.typeName) \(shown(value))" }
            return modifiers.normalized(text).hasPrefix(modifiers.normalized(prefix)) ? nil : "\(name): \(shown(value)) does not start with \(GeneratedContent(prefix).jsonString)\(how)"
        case .hasSuffix(_, let suffix):
            guard let text = value.stringValue else { return "\(name): expected a string, got \(value.typeName) \(shown(value))" }
            return modifiers.normalized(text).hasSuffix(modifiers.normalized(suffix)) ? nil : "\(name): \(shown(value)) does not end with \(GeneratedContent(suffix).jsonString)\(how)"
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
            if case .naturalLanguage = matcher.base { return true } else { return false }
        }
        // Cheap checks first: a judge call is spent only on a call that meets every other matcher.
        var plain = arguments.filter { !isJudged($0) }.compactMap { $0.failure(in: call.arguments, toolName: call.name, judge: judge) }
        if !allowsAdditionalArguments {
            plain += uncoveredArguments(in: call.arguments).map { "\($0): not an expected argument (allowsAdditionalArguments is false)" }
        }
        guard plain.isEmpty else { return plain }
        return arguments.filter(isJudged).compactMap { $0.failure(in: call.arguments, toolName: call.name, judge: judge) }
    }
}

extension ToolCallExpectation {
    /// JSON pointers of the members of `arguments` no matcher accounts for: a member is accounted for when a
    /// matcher names it or a value around it; an object that matchers reach into has each of its members checked.
    func uncoveredArguments(in content: GeneratedContent) -> [String] {
        let paths = arguments.map { JSONPointer.segments(of: $0.argumentName) }
        func walk(_ value: GeneratedContent, _ prefix: [String]) -> [String] {
            guard let members = value.orderedProperties else { return [] }
            return members.flatMap { member -> [String] in
                let path = prefix + [member.key]
                if paths.contains(where: { $0.count <= path.count && Array(path.prefix($0.count)) == $0 }) { return [] }
                if paths.contains(where: { $0.count > path.count && Array($0.prefix(path.count)) == path }) { return walk(member.value, path) }
                return [JSONPointer.pointer(path)]
            }
        }
        return walk(content, [])
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
