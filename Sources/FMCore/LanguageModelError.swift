/// Why a model could not produce a response (the Foundation Models error taxonomy).
///
/// Every case carries a `Context` whose `debugDescription` says what happened; suites match on `caseName`.
public enum LanguageModelError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Details of one error.
    public struct Context: Hashable, Sendable {
        /// What happened, for people.
        public var debugDescription: String

        /// Creates a context.
        public init(debugDescription: String) { self.debugDescription = debugDescription }
    }

    /// The transcript plus the response would not fit the model's context window.
    case contextSizeExceeded(Context)
    /// Too many requests; try again later.
    case rateLimited(Context)
    /// The model declined to answer.
    case refusal(Context)
    /// The response took longer than allowed.
    case timeout(Context)
    /// The prompt or response tripped a safety guardrail.
    case guardrailViolation(Context)
    /// The engine lacks a capability the request needs (guided generation, tool calling, streaming).
    case unsupportedCapability(Context)
    /// The transcript holds content the engine cannot take (e.g. an image attachment).
    case unsupportedTranscriptContent(Context)
    /// The schema uses a generation guide the engine cannot enforce.
    case unsupportedGenerationGuide(Context)
    /// The prompt's language or locale is not supported.
    case unsupportedLanguageOrLocale(Context)

    /// Every case name, in declaration order.
    public static let caseNames = [
        "contextSizeExceeded", "rateLimited", "refusal", "timeout", "guardrailViolation", "unsupportedCapability",
        "unsupportedTranscriptContent", "unsupportedGenerationGuide", "unsupportedLanguageOrLocale",
    ]

    /// Rebuilds the error named `caseName` (one of `caseNames`); nil for an unknown name.
    public init?(caseName: String, debugDescription: String) {
        let context = Context(debugDescription: debugDescription)
        switch caseName {
        case "contextSizeExceeded": self = .contextSizeExceeded(context)
        case "rateLimited": self = .rateLimited(context)
        case "refusal": self = .refusal(context)
        case "timeout": self = .timeout(context)
        case "guardrailViolation": self = .guardrailViolation(context)
        case "unsupportedCapability": self = .unsupportedCapability(context)
        case "unsupportedTranscriptContent": self = .unsupportedTranscriptContent(context)
        case "unsupportedGenerationGuide": self = .unsupportedGenerationGuide(context)
        case "unsupportedLanguageOrLocale": self = .unsupportedLanguageOrLocale(context)
        default: return nil
        }
    }

    /// The stable name of the case, e.g. `"contextSizeExceeded"`.
    public var caseName: String {
        switch self {
        case .contextSizeExceeded: return "contextSizeExceeded"
        case .rateLimited: return "rateLimited"
        case .refusal: return "refusal"
        case .timeout: return "timeout"
        case .guardrailViolation: return "guardrailViolation"
        case .unsupportedCapability: return "unsupportedCapability"
        case .unsupportedTranscriptContent: return "unsupportedTranscriptContent"
        case .unsupportedGenerationGuide: return "unsupportedGenerationGuide"
        case .unsupportedLanguageOrLocale: return "unsupportedLanguageOrLocale"
        }
    }

    /// The error's details.
    public var context: Context {
        switch self {
        case .contextSizeExceeded(let context), .rateLimited(let context), .refusal(let context), .timeout(let context),
             .guardrailViolation(let context), .unsupportedCapability(let context), .unsupportedTranscriptContent(let context),
             .unsupportedGenerationGuide(let context), .unsupportedLanguageOrLocale(let context):
            return context
        }
    }

    /// A sentence saying what went wrong, then the details.
    public var description: String {
        let summary: String
        switch self {
        case .contextSizeExceeded: summary = "The prompt and response do not fit the model's context window"
        case .rateLimited: summary = "The model is rate limited"
        case .refusal: summary = "The model refused to respond"
        case .timeout: summary = "The response timed out"
        case .guardrailViolation: summary = "A safety guardrail was triggered"
        case .unsupportedCapability: summary = "The engine does not support a capability this request needs"
        case .unsupportedTranscriptContent: summary = "The transcript holds content the engine cannot use"
        case .unsupportedGenerationGuide: summary = "The schema uses a generation guide the engine cannot enforce"
        case .unsupportedLanguageOrLocale: summary = "The language or locale is not supported"
        }
        let detail = context.debugDescription
        return detail.isEmpty ? summary + "." : summary + ": " + detail
    }
}

extension LanguageModelError: Codable {
    private enum CodingKeys: String, CodingKey { case caseName = "case", debugDescription }

    /// Decodes `{"case": NAME, "debugDescription": TEXT}`.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .caseName)
        let detail = try container.decodeIfPresent(String.self, forKey: .debugDescription) ?? ""
        guard let error = LanguageModelError(caseName: name, debugDescription: detail) else {
            throw DecodingError.dataCorruptedError(forKey: .caseName, in: container,
                debugDescription: "unknown LanguageModelError case '\(name)'; expected one of \(Self.caseNames.joined(separator: ", "))")
        }
        self = error
    }

    /// Encodes `{"case": NAME, "debugDescription": TEXT}`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(caseName, forKey: .caseName)
        try container.encode(context.debugDescription, forKey: .debugDescription)
    }
}

/// Misuse of a session (Apple's `LanguageModelSession.Error`).
public enum LanguageModelSessionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A request was made while the session was still answering another.
    case concurrentRequests
    /// The transcript was changed while the session was responding.
    case transcriptMutationWhileResponding

    /// The stable name of the case.
    public var caseName: String {
        switch self {
        case .concurrentRequests: return "concurrentRequests"
        case .transcriptMutationWhileResponding: return "transcriptMutationWhileResponding"
        }
    }

    /// A sentence saying what went wrong and what to do.
    public var description: String {
        switch self {
        case .concurrentRequests:
            return "The session is already responding to a request; wait for it to finish before sending another."
        case .transcriptMutationWhileResponding:
            return "The transcript was changed while the session was responding; change it only between requests."
        }
    }
}

extension LanguageModelError: ClassifiedError {
    /// The model's own outcomes (`refusal`, `guardrailViolation`, `contextSizeExceeded`, which an app on the
    /// device must handle like any answer) are model behaviour; `rateLimited` and `timeout` are retryable
    /// infrastructure; every other case is infrastructure.
    public var failureClass: FailureClass {
        switch self {
        case .refusal, .guardrailViolation, .contextSizeExceeded: return .modelBehavior
        case .rateLimited, .timeout: return .retryableInfrastructure
        default: return .infrastructure
        }
    }

    /// `LanguageModelError`.
    public var domain: String { "LanguageModelError" }

    /// The description.
    public var failureMessage: String { description }
}

extension LanguageModelSessionError: ClassifiedError {
    /// Session misuse is infrastructure.
    public var failureClass: FailureClass { .infrastructure }

    /// `LanguageModelSession.Error`, Apple's spelling.
    public var domain: String { "LanguageModelSession.Error" }

    /// The description.
    public var failureMessage: String { description }
}
