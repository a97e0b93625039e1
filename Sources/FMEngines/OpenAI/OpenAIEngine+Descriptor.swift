import FMCore
import Foundation

extension OpenAIEngine {
    /// The `openai` engine's registry entry: its options, their checks, and its provider.
    static let descriptor = EngineDescriptor(
        name: "openai",
        summary: "an OpenAI-compatible chat-completions server (llama-server, vLLM, Ollama, hosted APIs)",
        options: [
            EngineOptionSpec(EngineConfiguration.baseURLOption, .string,
                             "the API root, e.g. http://127.0.0.1:8080/v1 (--base-url URL)", required: true),
            EngineOptionSpec("model", .string, "the model name sent to the server (--model NAME)", required: true),
            EngineOptionSpec("apiKeyEnv", .string, "the environment variable holding the API key (no key is sent when it is unset)",
                             default: GeneratedContent(OpenAIEngineSettings.defaultAPIKeyEnv)),
            EngineOptionSpec("timeoutSeconds", .number, "seconds one request may take: connecting, headers, body and parsing",
                             default: GeneratedContent(OpenAIEngineSettings.defaultTimeoutSeconds)),
            EngineOptionSpec("maxResponseBytes", .integer, "the most bytes one response body may hold, after decompression",
                             default: GeneratedContent(OpenAIEngineSettings.defaultMaxResponseBytes)),
            EngineOptionSpec("maxConcurrency", .integer, "requests in flight at once through one engine", default: GeneratedContent(1)),
            EngineOptionSpec("retries", .object,
                             "the retry policy of each request: {maxAttempts, initialDelaySeconds, maxDelaySeconds, multiplier, jitter}; default 3 tries"),
            EngineOptionSpec("extraBody", .object, "a JSON object merged into every request body (its members win)"),
            EngineOptionSpec("stream", .boolean, "stream responses as server-sent events", default: GeneratedContent(false)),
            EngineOptionSpec("seed", .integer, "a sampling seed sent with every request"),
        ],
        check: { options in
            switch settings(from: options) {
            case .success: return []
            case .failure(let problems): return problems.all
            }
        },
        build: { configuration in
            switch settings(from: configuration.options) {
            case .success(let settings): return try provider(settings)
            case .failure(let problems):
                throw Fault.invalidInput(problems.all.map(\.message).joined(separator: "; "))
            }
        })

    /// The problems found while reading options into settings.
    struct OptionProblems: Error {
        /// Every problem, in option order.
        var all: [EngineOptionProblem]
    }

    /// Settings from registry options whose types are already checked, or every value that cannot work.
    static func settings(from options: [String: GeneratedContent]) -> Result<OpenAIEngineSettings, OptionProblems> {
        var problems: [EngineOptionProblem] = []
        func problem(_ option: String, _ message: String) {
            problems.append(EngineOptionProblem(option: option, message: "engine option '\(option)' of engine 'openai' \(message)"))
        }
        let text = options[EngineConfiguration.baseURLOption]?.stringValue ?? ""
        let url = URL(string: text)
        let scheme = url?.scheme?.lowercased()
        if let url, let userInfo = OpenAIEngineSettings.userInfoProblem(url) {
            problem(EngineConfiguration.baseURLOption, "(--base-url) " + userInfo)
        } else if url == nil || !(scheme == "http" || scheme == "https") || (url?.host ?? "").isEmpty {
            problem(EngineConfiguration.baseURLOption,
                    "must be an http(s) URL, not '\(text)'; use e.g. http://127.0.0.1:8080/v1")
        }
        let model = options["model"]?.stringValue ?? ""
        if model.isEmpty { problem("model", "is empty; name the server's model") }
        let keyEnv = options["apiKeyEnv"]?.stringValue ?? OpenAIEngineSettings.defaultAPIKeyEnv
        if keyEnv.isEmpty { problem("apiKeyEnv", "is empty; name an environment variable (the key itself never goes in options)") }
        let timeout = options["timeoutSeconds"]?.numberValue ?? OpenAIEngineSettings.defaultTimeoutSeconds
        if !(timeout > 0 && timeout.isFinite) { problem("timeoutSeconds", "must be a positive number of seconds") }
        let maxResponseBytes = options["maxResponseBytes"].map { $0.intValue ?? 0 } ?? OpenAIEngineSettings.defaultMaxResponseBytes
        if maxResponseBytes < 1 { problem("maxResponseBytes", "must be a positive number of bytes") }
        let concurrency = options["maxConcurrency"].map { $0.intValue ?? 0 } ?? 1
        if concurrency < 1 { problem("maxConcurrency", "must be at least 1") }
        var retry = RetryPolicy()
        if let value = options["retries"] {
            do {
                retry = try JSONDecoder().decode(RetryPolicy.self, from: Data(value.jsonString.utf8))
            } catch {
                problem("retries", "is not a retry policy: \(retryProblem(error)); e.g. {\"maxAttempts\": 3, \"initialDelaySeconds\": 1}")
            }
        }
        var seed: Int?
        if let value = options["seed"] {
            seed = value.intValue
            if seed == nil { problem("seed", "must fit a 64-bit integer") }
        }
        guard problems.isEmpty, let url else { return .failure(OptionProblems(all: problems)) }
        return .success(OpenAIEngineSettings(baseURL: url, model: model, apiKeyEnv: keyEnv, timeoutSeconds: timeout,
                                             maxResponseBytes: maxResponseBytes, maxConcurrency: concurrency, extraBody: options["extraBody"],
                                             stream: options["stream"]?.boolValue ?? false, seed: seed, retry: retry))
    }

    /// What a `RetryPolicy` decoding error says, in one line.
    private static func retryProblem(_ error: Error) -> String {
        switch error as? DecodingError {
        case .dataCorrupted(let context)?, .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            return field.isEmpty ? context.debugDescription : "\(field): \(context.debugDescription)"
        default:
            return String(describing: error)
        }
    }
}
