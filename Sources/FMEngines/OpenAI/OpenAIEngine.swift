import FMCore
import Foundation

/// The `openai` engine: each request goes to an OpenAI-compatible chat-completions server (see
/// docs/engines.md). Thread-safe; at most `settings.maxConcurrency` requests are in flight at once.
// @unchecked Sendable: `metrics` and `probeVerdict`, the only mutable state, are read and written only under `lock`; the client,
// the semaphore and the settings are immutable references to thread-safe objects or values.
public final class OpenAIEngine: LanguageModelEngine, ConstraintProbing, @unchecked Sendable {
    /// Timings and server facts of the most recent call.
    public struct CallMetrics: Sendable, Hashable {
        /// Milliseconds inside `respond`, from entry to return.
        public var totalMs: Double
        /// Milliseconds of the HTTP exchange: request sent to last body byte.
        public var roundTripMs: Double
        /// Milliseconds from sending to the first streamed token (streaming only).
        public var timeToFirstTokenMs: Double?
        /// The `model` the server reported.
        public var serverModel: String?
        /// The server's `system_fingerprint`.
        public var systemFingerprint: String?
        /// Requests sent again after passing faults before this answer.
        public var retries = 0

        /// Milliseconds spent outside the HTTP exchange (encoding, decoding, events): the harness overhead.
        public var overheadMs: Double { max(0, totalMs - roundTripMs) }
    }

    /// `openai` and the configured model name.
    public let identity: EngineIdentity
    /// Guided generation (`response_format`), tool calling and streaming.
    public let capabilities = EngineCapabilities.all
    /// Where and how requests are sent.
    public let settings: OpenAIEngineSettings
    private let client = OpenAIHTTPClient()
    private let slots: DispatchSemaphore
    private let environment: [String: String]
    private let lock = NSLock()
    private var metrics: CallMetrics?
    private var probeVerdict: ConstraintProbe.Verdict?

    /// An engine for `settings` (validated: throws `Fault`); the API key is read from
    /// `environment[settings.apiKeyEnv]` for every request.
    public init(settings: OpenAIEngineSettings, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        try settings.validate()
        self.settings = settings
        self.environment = environment
        identity = EngineIdentity(name: "openai", model: settings.model)
        slots = DispatchSemaphore(value: settings.maxConcurrency)
    }

    /// Timings and server facts of the most recent completed call.
    public var lastCallMetrics: CallMetrics? {
        lock.lock()
        defer { lock.unlock() }
        return metrics
    }

    /// Sends `request` and returns the server's answer; streamed events (text deltas, partial
    /// structures) reach `onEvent` as they arrive, tool calls once complete. A prompt over the
    /// server's context is `LanguageModelError.contextSizeExceeded`; server and network faults are `OpenAIError`.
    public func respond(to request: EngineRequest, onEvent: (EngineEvent) -> Void) throws -> EngineResponse {
        let entered = DispatchTime.now()
        try checkCapabilities(for: request)
        let body = Data(try OpenAIRequestEncoder.body(for: request, settings: settings).jsonString.utf8)
        let url = settings.endpoint
        let apiKey = settings.apiKey(in: environment)
        slots.wait()
        defer { slots.signal() }
        var stream = OpenAIStreamAccumulator(request: request, url: url.absoluteString, apiKey: apiKey)
        var whole = Data()
        var retries = 0
        let exchange = try retrying(retries: &retries) {
            stream = OpenAIStreamAccumulator(request: request, url: url.absoluteString, apiKey: apiKey)
            whole = Data()
            var emitted = false
            do {
                return try client.post(url: url, body: body, apiKey: apiKey, timeoutSeconds: settings.timeoutSeconds,
                                       maxResponseBytes: settings.maxResponseBytes) { chunk in
                    guard settings.stream else { return whole.append(chunk) }
                    try stream.consume(chunk) { event in emitted = true; onEvent(event) }
                }
            } catch let error as OpenAIError {
                if let status = error.statusCode, let modelError = OpenAIResponseDecoder.languageModelError(status: status, body: error.bodyExcerpt) {
                    throw modelError
                }
                throw emitted ? AfterEvents(error: error) : error
            }
        }
        var completion: OpenAICompletion
        if settings.stream {
            completion = try stream.finish()
        } else {
            completion = try OpenAIResponseDecoder.completion(json: OpenAIError.redact(String(decoding: whole, as: UTF8.self), apiKey: apiKey),
                                                              request: request, url: url.absoluteString, apiKey: apiKey)
            let response = completion.response
            if let content = response.content {
                onEvent(.partialStructure(content))
            } else if response.toolCalls.isEmpty && request.schema == nil && !response.text.isEmpty {
                onEvent(.textDelta(response.text))
            }
        }
        for call in completion.response.toolCalls { onEvent(.toolCall(call)) }
        completion.response.retries = retries > 0 ? retries : nil
        let total = Double(DispatchTime.now().uptimeNanoseconds - entered.uptimeNanoseconds) / 1_000_000
        record(CallMetrics(totalMs: total, roundTripMs: exchange.roundTripMs, timeToFirstTokenMs: stream.timeToFirstTokenMs,
                           serverModel: completion.serverModel, systemFingerprint: completion.systemFingerprint, retries: retries))
        return completion.response
    }

    /// `baseURLHost` (host and port of `baseURL`), from the latest answer `serverModel` and
    /// `systemFingerprint` when the server sent them, and `constraintProbe` once the probe ran.
    public var runDetails: [String: String] {
        var details = ["baseURLHost": baseURLHost]
        let latest = lastCallMetrics
        if let model = latest?.serverModel { details["serverModel"] = model }
        if let fingerprint = latest?.systemFingerprint { details["systemFingerprint"] = fingerprint }
        lock.lock()
        let verdict = probeVerdict
        lock.unlock()
        if let verdict { details["constraintProbe"] = verdict.name }
        return details
    }

    /// Host and port of `baseURL`.
    var baseURLHost: String {
        settings.baseURL.host.map { host in settings.baseURL.port.map { "\(host):\($0)" } ?? host } ?? ""
    }

    /// Sends `ConstraintProbe.request` to the server and keeps the verdict for `runDetails`; HTTP and
    /// network faults throw as from `respond`.
    public func probeConstraints() throws -> ConstraintProbe.Verdict {
        let verdict = ConstraintProbe.verdict(for: try respond(to: ConstraintProbe.request, onEvent: { _ in }))
        lock.lock()
        probeVerdict = verdict
        lock.unlock()
        return verdict
    }

    /// `openai server HOST:PORT (model NAME)`, the model as the server reported it when it did.
    public var probeTarget: String {
        "openai server \(baseURLHost) (model \(lastCallMetrics?.serverModel ?? settings.model))"
    }

    /// A provider sharing one engine (one connection pool, one concurrency limit) across attempts.
    public static func provider(_ settings: OpenAIEngineSettings) throws -> EngineProvider {
        SharedEngineProvider(engine: try OpenAIEngine(settings: settings))
    }

    /// A fault after streamed events reached the session: the engine cannot take them back, so it does not
    /// retry; the fault goes out unchanged and the runner may retry the whole attempt.
    private struct AfterEvents: ClassifiedError {
        var error: OpenAIError
        var failureClass: FailureClass { .infrastructure }
        var domain: String { error.domain }
        var caseName: String { error.caseName }
        var failureMessage: String { error.failureMessage }
    }

    /// `send` under the settings' retry policy, counting retries; a passing fault still failing when the
    /// tries run out comes out with `triesMade` set (plain infrastructure).
    private func retrying(retries: inout Int, _ send: () throws -> OpenAIHTTPClient.Exchange) throws -> OpenAIHTTPClient.Exchange {
        var count = 0
        defer { retries = count }
        do {
            return try settings.retry.run(onRetry: { _ in count += 1 }, send)
        } catch let error as AfterEvents {
            throw error.error
        } catch var error as OpenAIError where error.isRetryable {
            error.triesMade = count + 1
            throw error
        }
    }

    private func record(_ call: CallMetrics) {
        lock.lock()
        metrics = call
        lock.unlock()
    }
}
