import FMCore
import FMSession
import FaultServer
import Foundation
import Testing
@testable import FMEngines

/// Each server fault gives its typed error (one try per request: the fixtures' retry policy is `.none`).
@Suite struct OpenAIFaultTests {
    static let okBody = #"{"model":"served","system_fingerprint":"fp1","choices":[{"message":{"role":"assistant","content":"Hello there"},"finish_reason":"stop"}],"usage":{"prompt_tokens":4,"completion_tokens":2}}"#

    /// Runs `body` against a fault server answering with `reply`, stopping the server in every exit path.
    @discardableResult
    func withServer<T>(_ reply: @escaping @Sendable (FaultServer.Request) -> FaultServer.Reply,
                       _ body: (FaultServer) throws -> T) throws -> T {
        let server = try FaultServer(reply)
        defer { server.stop() }
        return try body(server)
    }

    func engine(_ base: String, stream: Bool = false, timeout: Double = 10, environment: [String: String] = [:]) throws -> OpenAIEngine {
        try OpenAIEngine(settings: OpenAIFixtures.settings(base, stream: stream, timeout: timeout), environment: environment)
    }

    func request(_ prompt: String = "Hi") -> EngineRequest { EngineRequest(transcript: OpenAIFixtures.transcript(prompt: prompt)) }

    func openAIError(_ run: () throws -> Void) -> OpenAIError? {
        do { try run() } catch let error as OpenAIError { return error } catch { Issue.record("unexpected error \(error)") }
        return nil
    }

    @Test func successSendsTheKeyOnlyInTheAuthorizationHeader() throws {
        try withServer({ _ in .respond(status: 200, body: Self.okBody) }) { server in
            let engine = try engine(server.baseURL, environment: ["OPENAI_API_KEY": "sk-test-key"])
            var events: [EngineEvent] = []
            let response = try engine.respond(to: request()) { events.append($0) }
            #expect(response.text == "Hello there")
            #expect(response.usage == Usage(inputTokens: 4, outputTokens: 2))
            #expect(events == [.textDelta("Hello there")])
            let sent = try #require(server.requests.first)
            #expect(sent.head.hasPrefix("POST /v1/chat/completions HTTP/1.1"))
            #expect(sent.header("Authorization") == "Bearer sk-test-key")
            #expect(!sent.body.contains("sk-test-key"))
            let sentBody = try GeneratedContent(json: sent.body)
            #expect(sentBody["model"]?.stringValue == "test-model")
            #expect(engine.lastCallMetrics?.serverModel == "served")
            #expect(engine.lastCallMetrics?.systemFingerprint == "fp1")
        }
    }

    @Test func noKeyNoAuthorizationHeader() throws {
        try withServer({ _ in .respond(status: 200, body: Self.okBody) }) { server in
            _ = try engine(server.baseURL).respond(to: request()) { _ in }
            #expect(server.requests.first?.header("Authorization") == nil)
        }
    }

    @Test func rateLimitCarriesRetryAfterSeconds() throws {
        try withServer({ _ in .respond(status: 429, headers: [("Retry-After", "7")], body: #"{"error":{"message":"slow down"}}"#) }) { server in
            let error = openAIError { _ = try engine(server.baseURL).respond(to: request()) { _ in } }
            #expect(error?.kind == .httpStatus(429))
            #expect(error?.retryAfterSeconds == 7)
            #expect(error?.isRetryable == true)
            #expect(error?.bodyExcerpt.contains("slow down") == true)
        }
    }

    @Test func unavailableCarriesRetryAfterAsAnHTTPDate() throws {
        let date = Date().addingTimeInterval(60)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let header = formatter.string(from: date)
        try withServer({ _ in .respond(status: 503, headers: [("Retry-After", header)], body: "loading model") }) { server in
            let error = openAIError { _ = try engine(server.baseURL).respond(to: request()) { _ in } }
            #expect(error?.kind == .httpStatus(503))
            let wait = try #require(error?.retryAfterSeconds)
            #expect(wait > 50 && wait <= 60)
        }
    }

    @Test func anEchoedKeyIsRedactedFromTheError() throws {
        try withServer({ request in
            .respond(status: 401, body: #"{"error":{"message":"bad key \#(request.header("Authorization") ?? "")"}}"#)
        }) { server in
            let error = openAIError { _ = try engine(server.baseURL, environment: ["OPENAI_API_KEY": "sk-live-0123456789"]).respond(to: request()) { _ in } }
            #expect(error?.kind == .httpStatus(401))
            #expect(error?.isRetryable == false)
            #expect(error?.description.contains("sk-live-0123456789") == false)
            #expect(error?.bodyExcerpt.contains("Bearer [redacted]") == true)
        }
    }

    @Test func aSlowBodyTimesOut() throws {
        try withServer({ _ in .respond(status: 200, body: Self.okBody, delay: 5) }) { server in
            let started = Date()
            let error = openAIError { _ = try engine(server.baseURL, timeout: 0.5).respond(to: request()) { _ in } }
            #expect(error?.kind == .timeout)
            #expect(Date().timeIntervalSince(started) < 3)
        }
    }

    @Test func aCutEventStreamIsStreamCutAfterTheDeltasSoFar() throws {
        let chunks = [OpenAIStreamAccumulatorTests.event(#"{"choices":[{"delta":{"content":"Hel"}}]}"#),
                      OpenAIStreamAccumulatorTests.event(#"{"choices":[{"delta":{"content":"lo"}}]}"#)]
        try withServer({ _ in .events(chunks, pause: 0.05) }) { server in
            var events: [EngineEvent] = []
            let error = openAIError { _ = try engine(server.baseURL, stream: true).respond(to: request()) { events.append($0) } }
            #expect(error?.kind == .streamCut)
            #expect(events == [.textDelta("Hel"), .textDelta("lo")])
            let sent = try GeneratedContent(json: server.requests.first?.body ?? "")
            #expect(sent["stream"]?.boolValue == true)
        }
    }

    @Test func aCompleteEventStreamGivesTheResponseAndTimeToFirstToken() throws {
        let chunks = [OpenAIStreamAccumulatorTests.event(#"{"model":"served","choices":[{"delta":{"content":"Hi"}}]}"#),
                      OpenAIStreamAccumulatorTests.event(#"{"choices":[{"delta":{},"finish_reason":"stop"}]}"#),
                      OpenAIStreamAccumulatorTests.event(#"{"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":1}}"#),
                      "data: [DONE]\n\n"]
        try withServer({ _ in .events(chunks) }) { server in
            let engine = try engine(server.baseURL, stream: true)
            let response = try engine.respond(to: request()) { _ in }
            #expect(response == EngineResponse(text: "Hi", usage: Usage(inputTokens: 3, outputTokens: 1)))
            #expect(engine.lastCallMetrics?.timeToFirstTokenMs != nil)
        }
    }

    @Test func garbageJSONIsAMalformedResponse() throws {
        try withServer({ _ in .respond(status: 200, body: "<html>proxy error</html>") }) { server in
            let error = openAIError { _ = try engine(server.baseURL).respond(to: request()) { _ in } }
            #expect(error?.kind == .malformedResponse)
            #expect(error?.bodyExcerpt == "<html>proxy error</html>")
        }
    }

    @Test func aResetConnectionIsConnectionReset() throws {
        try withServer({ _ in .reset }) { server in
            let error = openAIError { _ = try engine(server.baseURL).respond(to: request()) { _ in } }
            #expect(error?.kind == .connectionReset)
            #expect(error?.isRetryable == true)
        }
    }

    @Test func aBodyShorterThanDeclaredIsNotAResponse() throws {
        try withServer({ _ in .shortBody(declaredLength: 500, body: #"{"choices":["#) }) { server in
            let error = openAIError { _ = try engine(server.baseURL).respond(to: request()) { _ in } }
            #expect(error?.kind == .connectionReset, "\(String(describing: error))")
        }
    }

    @Test func nothingListeningIsConnectionRefused() throws {
        let port = try FaultServer.closedPort()
        let error = openAIError { _ = try engine("http://127.0.0.1:\(port)/v1").respond(to: request()) { _ in } }
        #expect(error?.kind == .connectionRefused)
        #expect(error?.description.contains("127.0.0.1:\(port)") == true)
    }

    @Test func aContextOverflowBodyIsTheModelsContextSizeError() throws {
        let body = #"{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":900,"n_ctx":512}}"#
        try withServer({ _ in .respond(status: 400, body: body) }) { server in
            #expect { _ = try engine(server.baseURL).respond(to: request()) { _ in } } throws: {
                ($0 as? LanguageModelError)?.caseName == "contextSizeExceeded"
            }
        }
    }

    @Test func maxConcurrencyBoundsRequestsInFlight() throws {
        try withServer({ _ in .respond(status: 200, body: Self.okBody, delay: 0.3) }) { server in
            var settings = OpenAIFixtures.settings(server.baseURL)
            settings.maxConcurrency = 2
            let engine = try OpenAIEngine(settings: settings, environment: [:])
            let failures = ConcurrentCounter()
            DispatchQueue.concurrentPerform(iterations: 5) { _ in
                do { _ = try engine.respond(to: request()) { _ in } } catch { failures.increment() }
            }
            #expect(failures.value == 0)
            #expect(server.requests.count == 5)
            #expect(server.peakConcurrency == 2)
        }
    }

    @Test func aSessionOverTheEngineAnswersAPrompt() throws {
        try withServer({ _ in .respond(status: 200, body: Self.okBody) }) { server in
            let session = LanguageModelSession(engine: try engine(server.baseURL), configuration: SessionConfiguration(instructions: "Be kind."))
            let response = try session.respond(to: "Hi")
            #expect(response.text == "Hello there")
            let messages = try GeneratedContent(json: server.requests.first?.body ?? "")["messages"]?.arrayValue
            #expect(messages?.map { $0["role"]?.stringValue ?? "" } == ["system", "user"])
        }
    }

    @Test func theResponseSharesTheWindowThroughMaxTokens() throws {
        let cut = #"{"choices":[{"message":{"role":"assistant","content":"Once upon"},"finish_reason":"length"}],"usage":{"prompt_tokens":5,"completion_tokens":10}}"#
        try withServer({ _ in .respond(status: 200, body: cut) }) { server in
            let session = LanguageModelSession(engine: try engine(server.baseURL), configuration: SessionConfiguration(contextSize: 12))
            do {
                _ = try session.respond(to: "Tell a story")
                Issue.record("a response stopped by the window must throw")
            } catch let error as LanguageModelError {
                #expect(error.caseName == "contextSizeExceeded" && error.description.contains("ran past the 9 left"), "\(error)")
            }
            let sent = try GeneratedContent(json: server.requests.first?.body ?? "")
            #expect(sent["max_tokens"]?.intValue == 9, "max_tokens is what the 3-token prompt leaves of the 12-token window")
            let limited = LanguageModelSession(engine: try engine(server.baseURL), configuration: SessionConfiguration(
                options: GenerationOptions(maximumResponseTokens: 4), contextSize: 12))
            #expect(try limited.respond(to: "Tell a story").stats.truncated, "under maximumResponseTokens, length only truncates")
            #expect(try GeneratedContent(json: server.requests.last?.body ?? "")["max_tokens"]?.intValue == 4)
        }
    }
}

/// A thread-safe counter.
final class ConcurrentCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    /// Adds one.
    func increment() { lock.lock(); count += 1; lock.unlock() }
    /// The count so far.
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
