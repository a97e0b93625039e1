import FMCore
import Foundation

/// How the `openai` engine reaches an OpenAI-compatible chat-completions server (llama.cpp's
/// llama-server, vLLM, Ollama, hosted APIs). The API key is never part of the settings: only the name
/// of the environment variable that holds it, read when a request is sent.
public struct OpenAIEngineSettings: Sendable, Hashable {
    /// The default environment variable holding the API key.
    public static let defaultAPIKeyEnv = "OPENAI_API_KEY"
    /// The default request timeout in seconds.
    public static let defaultTimeoutSeconds = 120.0

    /// The API root, e.g. `http://127.0.0.1:8080/v1`; requests go to `<baseURL>/chat/completions`.
    public var baseURL: URL
    /// The model name sent as `model` (servers that serve one model ignore it).
    public var model: String
    /// The environment variable whose value is sent as `Authorization: Bearer …` (none sent when unset).
    public var apiKeyEnv: String
    /// Seconds one request may take, first byte to last (streamed or not).
    public var timeoutSeconds: Double
    /// Requests in flight at once through one engine; more wait for a free slot.
    public var maxConcurrency: Int
    /// A JSON object merged into every request body (its members win over the generated ones).
    public var extraBody: GeneratedContent?
    /// Stream the response as server-sent events (`stream: true`).
    public var stream: Bool
    /// A sampling seed sent with every request, greedy ones included.
    public var seed: Int?
    /// How each request is retried after a passing fault (429, 5xx, refused or reset connection, timeout, cut stream).
    public var retry: RetryPolicy

    /// Creates settings; only `baseURL` and `model` have no default.
    public init(baseURL: URL, model: String, apiKeyEnv: String = defaultAPIKeyEnv,
                timeoutSeconds: Double = defaultTimeoutSeconds, maxConcurrency: Int = 1,
                extraBody: GeneratedContent? = nil, stream: Bool = false, seed: Int? = nil, retry: RetryPolicy = RetryPolicy()) {
        self.baseURL = baseURL
        self.model = model
        self.apiKeyEnv = apiKeyEnv
        self.timeoutSeconds = timeoutSeconds
        self.maxConcurrency = maxConcurrency
        self.extraBody = extraBody
        self.stream = stream
        self.seed = seed
        self.retry = retry
    }

    /// The chat-completions endpoint.
    public var endpoint: URL { baseURL.appendingPathComponent("chat/completions") }

    /// Throws `EngineSetupError` (invalid input) naming the setting that cannot work and what to use.
    public func validate() throws {
        let scheme = baseURL.scheme?.lowercased()
        guard scheme == "http" || scheme == "https", baseURL.host != nil else {
            throw EngineSetupError(isInvalidInput: true,
                                   message: "openai engine: baseURL '\(baseURL.absoluteString)' is not an http(s) URL; use e.g. http://127.0.0.1:8080/v1")
        }
        guard !model.isEmpty else {
            throw EngineSetupError(isInvalidInput: true, message: "openai engine: model is empty; name the server's model")
        }
        guard timeoutSeconds > 0, timeoutSeconds.isFinite else {
            throw EngineSetupError(isInvalidInput: true, message: "openai engine: timeoutSeconds must be a positive number of seconds")
        }
        guard maxConcurrency >= 1 else {
            throw EngineSetupError(isInvalidInput: true, message: "openai engine: maxConcurrency must be at least 1")
        }
        if let extraBody, extraBody.orderedProperties == nil {
            throw EngineSetupError(isInvalidInput: true,
                                   message: "openai engine: extraBody must be a JSON object, found \(extraBody.typeName)")
        }
        guard !apiKeyEnv.isEmpty else {
            throw EngineSetupError(isInvalidInput: true, message: "openai engine: apiKeyEnv is empty; name an environment variable")
        }
    }

    /// The API key from `apiKeyEnv` in `environment`, or nil when unset or empty.
    public func apiKey(in environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        guard let key = environment[apiKeyEnv], !key.isEmpty else { return nil }
        return key
    }
}
