import FMCore
import Foundation

/// A fault between fmeval and an OpenAI-compatible server: the server answered with an error status,
/// could not be reached, was too slow, cut its stream, or sent something that is not the protocol.
/// Model behaviour (a context overflow, unparseable structured output) is never this error.
/// A passing fault is `retryableInfrastructure` until the engine's own retries give up on it; then it is
/// plain `infrastructure` (`triesMade` set), so that the runner does not retry it again.
public struct OpenAIError: ClassifiedError, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// The server answered with this non-2xx HTTP status.
        case httpStatus(Int)
        /// Nothing accepts connections at the address.
        case connectionRefused
        /// The connection was reset or closed before a full response arrived.
        case connectionReset
        /// The request took longer than `timeoutSeconds`.
        case timeout
        /// A streamed response ended without its final event (`finish_reason` or `[DONE]`).
        case streamCut
        /// The body is not the chat-completions JSON the protocol defines.
        case malformedResponse
        /// Any other transport failure (DNS, TLS, …).
        case transport
        /// The response (decompressed) grew past the engine's `maxResponseBytes`.
        case responseTooLarge(limit: Int)
        /// The server redirected off the base URL's origin; fmeval does not follow (the key would go along).
        case crossOriginRedirect
    }

    /// The largest body excerpt kept, in characters.
    public static let excerptLimit = 500

    /// What went wrong.
    public var kind: Kind
    /// The endpoint requested.
    public var url: String
    /// What happened, for people (never holds the API key).
    public var detail: String
    /// The start of the response body, with any echo of the API key redacted.
    public var bodyExcerpt: String
    /// Seconds the server asked to wait (`Retry-After`, in seconds or as an HTTP date), when it did.
    public var retryAfterSeconds: Double?
    /// The tries the engine made before giving up on a passing fault; nil while it may still be retried.
    public var triesMade: Int?

    /// Creates an error; `body` is cut to `excerptLimit` and `apiKey` is redacted from it and from `detail`.
    public init(kind: Kind, url: String, detail: String, body: String = "", retryAfterSeconds: Double? = nil, apiKey: String? = nil) {
        self.kind = kind
        self.url = url
        self.detail = Self.redact(detail, apiKey: apiKey)
        self.bodyExcerpt = String(Self.redact(body, apiKey: apiKey).prefix(Self.excerptLimit))
        self.retryAfterSeconds = retryAfterSeconds
    }

    /// The HTTP status, for `httpStatus` errors.
    public var statusCode: Int? {
        if case .httpStatus(let code) = kind { return code }
        return nil
    }

    /// Whether the same request may succeed later: 408, 409, 425, 429 and 5xx statuses, refused or reset
    /// connections, timeouts and cut streams. Other statuses and malformed responses will not change.
    public var isRetryable: Bool {
        switch kind {
        case .httpStatus(let code): return [408, 409, 425, 429].contains(code) || (500...599).contains(code)
        case .connectionRefused, .connectionReset, .timeout, .streamCut: return true
        case .malformedResponse, .transport, .responseTooLarge, .crossOriginRedirect: return false
        }
    }

    /// A stable name for the kind, e.g. `http429`, `connectionRefused`.
    public var kindName: String {
        switch kind {
        case .httpStatus(let code): return "http\(code)"
        case .connectionRefused: return "connectionRefused"
        case .connectionReset: return "connectionReset"
        case .timeout: return "timeout"
        case .streamCut: return "streamCut"
        case .malformedResponse: return "malformedResponse"
        case .transport: return "transport"
        case .responseTooLarge: return "responseTooLarge"
        case .crossOriginRedirect: return "crossOriginRedirect"
        }
    }

    /// `retryableInfrastructure` for a passing fault not yet given up on, else `infrastructure`.
    public var failureClass: FailureClass { isRetryable && triesMade == nil ? .retryableInfrastructure : .infrastructure }
    /// `OpenAIError`.
    public var domain: String { "OpenAIError" }
    /// The kind's name (`http503`, `timeout`, …).
    public var caseName: String { kindName }
    /// The description.
    public var failureMessage: String { description }

    /// `openai engine: [gave up after K tries: ]<url>: <detail>`, the wait asked for, and the body excerpt.
    public var description: String {
        var text = "openai engine: " + (triesMade.map { "gave up after \($0) tries: " } ?? "") + "\(url): \(detail)"
        if let retryAfterSeconds { text += " (the server asks to retry after \(Self.seconds(retryAfterSeconds)) s)" }
        if !bodyExcerpt.isEmpty { text += "; body: \(bodyExcerpt)" }
        return text
    }

    /// `text` with every occurrence of `apiKey`, in any ASCII case, replaced by `[redacted]`.
    public static func redact(_ text: String, apiKey: String?) -> String {
        OpenAIKeyRedactor.redact(text, apiKey: apiKey)
    }

    /// `Retry-After` as seconds from `now`: a non-negative number of seconds, or an HTTP date
    /// (IMF-fixdate, RFC 850 or asctime); nil when absent or unreadable. Dates in the past give 0.
    public static func retryAfterSeconds(_ header: String?, now: Date = Date()) -> Double? {
        guard let value = header?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Double(value) { return seconds >= 0 && seconds.isFinite ? seconds : nil }
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: value) { return max(0, date.timeIntervalSince(now)) }
        }
        return nil
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }
}
