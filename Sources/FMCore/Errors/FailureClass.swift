/// Whose fault a failure is, which decides what it does to an attempt.
public enum FailureClass: String, Codable, Sendable, Hashable, CaseIterable {
    /// The model's own output caused it (unparsable structure, endless tool calls, a broken
    /// toolCallingMode, a refusal, a guardrail violation, a response that ran off the context window):
    /// the attempt is scored on its merits and fails.
    case modelBehavior
    /// A passing infrastructure fault (rate limit, timeout, overloaded or reset server): worth retrying.
    case retryableInfrastructure
    /// Any other infrastructure fault (engine, tool, script, cassette, evaluator): the attempt is an `error`.
    case infrastructure

    /// The class of any error: a `ClassifiedError`'s own, else `infrastructure` (an unknown error).
    public static func of(_ error: Error) -> FailureClass {
        (error as? ClassifiedError)?.failureClass ?? .infrastructure
    }
}

/// An error that says what kind of failure it is and how results record it.
public protocol ClassifiedError: Error {
    /// Whose fault it is.
    var failureClass: FailureClass { get }
    /// The stable family name recorded in results (`LanguageModelError`, `SessionError`, …).
    var domain: String { get }
    /// The stable case name within the family (a Foundation Models case name where one applies).
    var caseName: String { get }
    /// What happened and what to do, as recorded in results.
    var failureMessage: String { get }
    /// Seconds the server asked to wait before trying again (its Retry-After), when it said.
    var retryAfterSeconds: Double? { get }
}

extension ClassifiedError {
    /// No Retry-After unless the error carries one.
    public var retryAfterSeconds: Double? { nil }
}
