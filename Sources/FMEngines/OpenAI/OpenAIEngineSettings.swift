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
    /// The default cap on one response's body, after decompression: 8 MiB.
    public static let defaultMaxResponseBytes = 8 * 1024 * 1024

    /// The API root, e.g. `http://127.0.0.1:8080/v1`; requests go to `<baseURL>/chat/completions`.
    public var baseURL: URL
    /// The model name sent as `model` (servers that serve one model ignore it).
    public var model: String
    /// The environment variable whose value is sent as `Authorization: Bearer …` (none sent when unset).
    public var apiKeyEnv: String
    /// Seconds one request may take, a wall-clock deadline over connecting, headers, body and parsing
    /// (streamed or not).
    public var timeoutSeconds: Double
    /// The most bytes one response body may hold, counted after decompression; more is an infrastructure error.
    public var maxResponseBytes: Int
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
                timeoutSeconds: Double = defaultTimeoutSeconds, maxResponseBytes: Int = defaultMaxResponseBytes,
                maxConcurrency: Int = 1, extraBody: GeneratedContent? = nil, stream: Bool = false, seed: Int? = nil,
                retry: RetryPolicy = RetryPolicy()) {
        self.baseURL = baseURL
        self.model = model
        self.apiKeyEnv = apiKeyEnv
        self.timeoutSeconds = timeoutSeconds
        self.maxResponseBytes = maxResponseBytes
        self.maxConcurrency = maxConcurrency
        self.extraBody = extraBody
        self.stream = stream
        self.seed = seed
        self.retry = retry
    }

    /// The chat-completions endpoint.
    public var endpoint: URL { baseURL.appendingPathComponent("chat/completions") }

    /// Throws `Fault` (invalid input) naming the setting that cannot work and what to use.
    public func validate() throws {
        let scheme = baseURL.scheme?.lowercased()
        if let problem = Self.userInfoProblem(baseURL) {
            throw Fault.invalidInput("openai engine: baseURL (--base-url) \(problem)")
        }
        guard scheme == "http" || scheme == "https", baseURL.host != nil else {
            throw Fault.invalidInput("openai engine: baseURL '\(baseURL.absoluteString)' is not an http(s) URL; use e.g. http://127.0.0.1:8080/v1")
        }
        guard !model.isEmpty else {
            throw Fault.invalidInput("openai engine: model is empty; name the server's model")
        }
        guard timeoutSeconds > 0, timeoutSeconds.isFinite else {
            throw Fault.invalidInput("openai engine: timeoutSeconds must be a positive number of seconds")
        }
        guard maxResponseBytes >= 1 else {
            throw Fault.invalidInput("openai engine: maxResponseBytes must be at least 1")
        }
        guard maxConcurrency >= 1 else {
            throw Fault.invalidInput("openai engine: maxConcurrency must be at least 1")
        }
        if let extraBody, extraBody.orderedProperties == nil {
            throw Fault.invalidInput("openai engine: extraBody must be a JSON object, found \(extraBody.typeName)")
        }
        guard !apiKeyEnv.isEmpty else {
            throw Fault.invalidInput("openai engine: apiKeyEnv is empty; name an environment variable")
        }
    }

    /// Why `url` cannot be a base URL because it holds user info (`user:pass@host`), without repeating it;
    /// nil when it holds none. Credentials in a URL would be stored with results and history, so they are refused.
    public static func userInfoProblem(_ url: URL) -> String? {
        guard url.user != nil || url.password != nil else { return nil }
        return "holds a user name or password (user:pass@host), which fmeval refuses so that it is "
            + "never stored in results or history; remove it and put the API key in the variable apiKeyEnv names"
    }

    /// The API key from `apiKeyEnv` in `environment`, or nil when unset or empty.
    public func apiKey(in environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        guard let key = environment[apiKeyEnv], !key.isEmpty else { return nil }
        return key
    }
}
