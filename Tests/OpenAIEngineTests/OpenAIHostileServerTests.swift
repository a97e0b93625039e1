import FMCore
import FaultServer
import Foundation
import Testing
@testable import FMEngines

/// A hostile server: redirects elsewhere, echoes the key in pieces or in another case, sends endless lines,
/// huge bodies and gzip bombs. The key stays home, every answer is bounded in bytes and in time, and each
/// bound is an infrastructure error naming itself.
@Suite struct OpenAIHostileServerTests {
    static let key = "sk-canary-7f3a9c2e5b1d4e60"

    static let okBody = #"{"model":"served","choices":[{"message":{"role":"assistant","content":"Hello"},"finish_reason":"stop"}]}"#

    func engine(_ base: String, stream: Bool = false, timeout: Double = 10, maxResponseBytes: Int? = nil) throws -> OpenAIEngine {
        var settings = OpenAIFixtures.settings(base, stream: stream, timeout: timeout)
        if let maxResponseBytes { settings.maxResponseBytes = maxResponseBytes }
        return try OpenAIEngine(settings: settings, environment: ["OPENAI_API_KEY": Self.key])
    }

    func request() -> EngineRequest { EngineRequest(transcript: OpenAIFixtures.transcript(prompt: "Hi")) }

    func openAIError(_ run: () throws -> Void) -> OpenAIError? {
        do { try run() } catch let error as OpenAIError { return error } catch { Issue.record("unexpected error \(error)") }
        return nil
    }

    /// A streamed event carrying `content`, JSON-escaped.
    static func event(_ content: String, finish: String? = nil) -> String {
        let escaped = String(decoding: try! JSONSerialization.data(withJSONObject: [content]), as: UTF8.self).dropFirst().dropLast()
        let reason = finish.map { "\"\($0)\"" } ?? "null"
        return #"data: {"choices":[{"delta":{"content":\#(escaped)},"finish_reason":\#(reason)}]}"# + "\n\n"
    }

    @Test func aRedirectToAnotherOriginIsNotFollowed() throws {
        let elsewhere = try FaultServer { _ in .respond(status: 200, body: Self.okBody) }
        defer { elsewhere.stop() }
        let server = try FaultServer { _ in
            .respond(status: 307, headers: [("Location", "\(elsewhere.baseURL)/chat/completions")], body: "")
        }
        defer { server.stop() }
        let error = openAIError { _ = try engine(server.baseURL).respond(to: request()) { _ in } }
        #expect(error?.kind == .crossOriginRedirect)
        #expect(error?.failureClass == .infrastructure)
        #expect(error?.description.contains("http://127.0.0.1:\(elsewhere.port)") == true, "\(String(describing: error))")
        #expect(elsewhere.requests.isEmpty, "the redirect was followed: \(elsewhere.requests.map(\.head))")
        #expect(error.map { !$0.description.contains(Self.key) } ?? false)
    }

    @Test func aRedirectWithinTheOriginIsFollowed() throws {
        let server = try FaultServer { request in
            request.head.hasPrefix("POST /v1/chat/completions ")
                ? .respond(status: 307, headers: [("Location", "/v1/moved/chat/completions")], body: "")
                : .respond(status: 200, body: Self.okBody)
        }
        defer { server.stop() }
        let response = try engine(server.baseURL).respond(to: request()) { _ in }
        #expect(response.text == "Hello")
        #expect(server.requests.count == 2)
        #expect(server.requests.last?.head.hasPrefix("POST /v1/moved/chat/completions ") == true)
    }

    @Test func aKeyEchoedInPiecesOrInAnotherCaseIsRedactedFromTheStream() throws {
        let upper = Self.key.uppercased()
        let server = try FaultServer { _ in
            .events([Self.event("key sk-canary-7f"), Self.event("3a9c2e5b1d4e60, again "),
                     String(Self.event(upper).prefix(40)), String(Self.event(upper).dropFirst(40)),
                     Self.event(" and sk-can"), Self.event("dy.", finish: "stop"), "data: [DONE]\n\n"], pause: 0.05)
        }
        defer { server.stop() }
        var events: [EngineEvent] = []
        let response = try engine(server.baseURL, stream: true).respond(to: request()) { events.append($0) }
        #expect(response.text == "key [redacted], again [redacted] and sk-candy.")
        let streamed = events.compactMap { event -> String? in if case .textDelta(let text) = event { return text }; return nil }
        #expect(streamed.joined() == response.text)
    }

    @Test func aKeyHiddenBehindJSONEscapesIsRedactedFromTheDecodedAnswer() throws {
        let escaped = #"\u0073k-canary-7F3A9C2E5B1D4E60"#
        let body = #"{"model":"m-\#(escaped)","choices":[{"message":{"role":"assistant","content":"you sent \#(escaped)"},"finish_reason":"stop"}]}"#
        let server = try FaultServer { _ in .respond(status: 200, body: body) }
        defer { server.stop() }
        let engine = try engine(server.baseURL)
        let response = try engine.respond(to: request()) { _ in }
        #expect(response.text == "you sent [redacted]")
        #expect(engine.lastCallMetrics?.serverModel == "m-[redacted]")
    }

    @Test func splitToolCallArgumentsAreRedactedAsAWhole() throws {
        let first = #"data: {"choices":[{"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"getWeather","arguments":"{\"city\":\"sk-canary"}}]}}]}"#
        let second = #"data: {"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"-7f3a9c2e5b1d4e60\"}"}}]},"finish_reason":"tool_calls"}]}"#
        let server = try FaultServer { _ in .events([first + "\n\n", second + "\n\n", "data: [DONE]\n\n"]) }
        defer { server.stop() }
        var request = request()
        request.tools = [try OpenAIFixtures.weatherTool()]
        let response = try engine(server.baseURL, stream: true).respond(to: request) { _ in }
        #expect(response.toolCalls.first?.arguments["city"]?.stringValue == "[redacted]")
    }

    @Test func anEndlessLineEndsAtTheDeadline() throws {
        let server = try FaultServer { _ in
            .bulk(headers: [("Content-Type", "text/event-stream")], prefix: Array(#"data: {"choices":[{"delta":{"content":""#.utf8),
                  filler: [UInt8](repeating: UInt8(ascii: "x"), count: 64 * 1024), count: 2048, hold: 120)
        }
        defer { server.stop() }
        let started = Date()
        let error = openAIError {
            _ = try engine(server.baseURL, stream: true, timeout: 5, maxResponseBytes: 512 << 20).respond(to: request()) { _ in }
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(error?.kind == .timeout, "\(String(describing: error))")
        #expect(elapsed < 30, "a 128 MiB line with a 5 s timeout took \(elapsed) s")
    }

    /// A 2 MiB structured answer in 262,144 events of 8 bytes: snapshots are parsed as the text grows
    /// geometrically, not once per event (that was quadratic: the 20 s deadline passed before the end).
    @Test func aStructuredStreamOfManySmallEventsIsParsedInLinearTime() throws {
        let count = 262_144
        let server = try FaultServer { _ in
            .bulk(headers: [("Content-Type", "text/event-stream")], prefix: Array(Self.event(#"{"name":""#).utf8),
                  filler: Array(Self.event("yyyyyyyy").utf8), count: count,
                  suffix: Array((Self.event(#""}"#, finish: "stop") + "data: [DONE]\n\n").utf8))
        }
        defer { server.stop() }
        var request = request()
        request.schema = try OpenAIFixtures.appleSchema("person")
        var snapshots = 0
        let started = Date()
        let response = try engine(server.baseURL, stream: true, timeout: 20, maxResponseBytes: 64 << 20)
            .respond(to: request) { event in if case .partialStructure = event { snapshots += 1 } }
        let elapsed = Date().timeIntervalSince(started)
        print("a 2 MiB structured stream in \(count) events took \(elapsed) s, \(snapshots) snapshots")
        #expect(response.text.utf8.count == count * 8 + 11)
        #expect(snapshots > 1000 && snapshots < 4000, "\(snapshots) snapshots")
    }

    @Test func aLongLineWithinTheCapIsReadWhole() throws {
        let size = 4 << 20
        let server = try FaultServer { _ in
            .bulk(headers: [("Content-Type", "text/event-stream")], prefix: Array(#"data: {"choices":[{"delta":{"content":""#.utf8),
                  filler: [UInt8](repeating: UInt8(ascii: "y"), count: 1024), count: size / 1024,
                  suffix: Array((#""},"finish_reason":"stop"}]}"# + "\n\ndata: [DONE]\n\n").utf8))
        }
        defer { server.stop() }
        let response = try engine(server.baseURL, stream: true).respond(to: request()) { _ in }
        #expect(response.text.utf8.count == size)
    }

    @Test(arguments: [false, true])
    func aHugeBodyIsCutAtTheCap(stream: Bool) throws {
        let server = try FaultServer { _ in
            .bulk(headers: [("Content-Type", stream ? "text/event-stream" : "application/json")], prefix: Array(#"{"x":""#.utf8),
                  filler: [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20), count: 1024)
        }
        defer { server.stop() }
        let error = openAIError { _ = try engine(server.baseURL, stream: stream).respond(to: request()) { _ in } }
        #expect(error?.kind == .responseTooLarge(limit: OpenAIEngineSettings.defaultMaxResponseBytes), "\(String(describing: error))")
        #expect(error?.failureClass == .infrastructure)
        #expect(error?.description.contains("maxResponseBytes (8388608 bytes") == true, "\(String(describing: error))")
    }

    /// Engines dropped right after a body was cut leave no cancel behind to run after their session's
    /// `invalidateAndCancel` (the toolchain traps on a task cancelled twice): many in a row, streamed and not.
    @Test func enginesDroppedRightAfterACutBodyLeaveNoCancelBehind() throws {
        let server = try FaultServer { _ in
            .bulk(headers: [("Content-Type", "application/json")], prefix: Array(#"{"x":""#.utf8),
                  filler: [UInt8](repeating: UInt8(ascii: "a"), count: 16 << 10), count: 256)
        }
        defer { server.stop() }
        for round in 0..<60 {
            let error = openAIError {
                let cut = try engine(server.baseURL, stream: round % 2 == 1, maxResponseBytes: 1 << 16)
                _ = try cut.respond(to: request()) { _ in }
            }
            #expect(error?.kind == .responseTooLarge(limit: 1 << 16), "round \(round): \(String(describing: error))")
        }
    }

    @Test func aDeclaredLengthOverTheCapIsRefusedBeforeTheBody() throws {
        let server = try FaultServer { _ in .shortBody(declaredLength: 1 << 30, body: "{") }
        defer { server.stop() }
        let error = openAIError { _ = try engine(server.baseURL).respond(to: request()) { _ in } }
        #expect(error?.kind == .responseTooLarge(limit: OpenAIEngineSettings.defaultMaxResponseBytes), "\(String(describing: error))")
    }

    @Test func aGzipBombCountsItsDecompressedBytes() throws {
        let bomb = GzipBomb.zeros(256 << 20)
        let server = try FaultServer { _ in
            .bulk(headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip"), ("Content-Length", "\(bomb.count)")],
                  prefix: bomb)
        }
        defer { server.stop() }
        let error = openAIError { _ = try engine(server.baseURL, maxResponseBytes: 1 << 20).respond(to: request()) { _ in } }
        #expect(error?.kind == .responseTooLarge(limit: 1 << 20), "\(String(describing: error))")
    }

    @Test func aGzippedAnswerUnderTheCapIsRead() throws {
        let server = try FaultServer { _ in
            .bulk(headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")], prefix: GzipBomb.stored(Array(Self.okBody.utf8)))
        }
        defer { server.stop() }
        #expect(try engine(server.baseURL).respond(to: request()) { _ in }.text == "Hello")
    }

    @Test func userInfoInTheBaseURLIsRefusedWithoutRepeatingIt() throws {
        let url = "http://alice:hunter2@127.0.0.1:8080/v1"
        #expect(throws: Fault.self) { try OpenAIFixtures.settings(url).validate() }
        do {
            try OpenAIFixtures.settings(url).validate()
        } catch let error as Fault {
            #expect(error.message.contains("--base-url") && !error.message.contains("hunter2"), "\(error.message)")
        }
        guard case .failure(let problems) = OpenAIEngine.settings(from: ["baseURL": GeneratedContent(url), "model": GeneratedContent("m")]) else {
            Issue.record("user info was accepted")
            return
        }
        #expect(problems.all.map(\.option) == ["baseURL"])
        #expect(problems.all.allSatisfy { !$0.message.contains("hunter2") && $0.message.contains("user name or password") })
    }
}
