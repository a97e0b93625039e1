import FaultServer
import FMCore
import Foundation
import Testing
@testable import FMEngines

/// The engine retries each request after a passing fault, under its retry policy, and gives up as plain infrastructure.
@Suite struct OpenAIRetryTests {
    func engine(_ server: FaultServer, stream: Bool = false) throws -> OpenAIEngine {
        try OpenAIEngine(settings: OpenAIFixtures.settings(server.baseURL, stream: stream, retry: OpenAIFixtures.instantRetries),
                         environment: [:])
    }

    func request() -> EngineRequest { EngineRequest(transcript: OpenAIFixtures.transcript(prompt: "Hi")) }

    @Test func aPassingFaultIsRetriedAndCounted() throws {
        let server = try FaultServer { request in
            request.index == 0 ? .respond(status: 503, headers: [("Retry-After", "5")], body: "loading") : .respond(status: 200, body: OpenAIFaultTests.okBody)
        }
        defer { server.stop() }
        let started = Date()
        let engine = try engine(server)
        let response = try engine.respond(to: request()) { _ in }
        #expect(response.text == "Hello there")
        #expect(response.retries == 1)
        #expect(engine.lastCallMetrics?.retries == 1)
        #expect(server.requests.count == 2)
        #expect(Date().timeIntervalSince(started) < 4, "Retry-After is capped by maxDelaySeconds")
    }

    @Test func aPersistentFaultGivesUpAsPlainInfrastructure() throws {
        let server = try FaultServer { _ in .respond(status: 503, body: "overloaded") }
        defer { server.stop() }
        do {
            _ = try engine(server).respond(to: request()) { _ in }
            Issue.record("expected a fault")
        } catch let error as OpenAIError {
            #expect(error.kind == .httpStatus(503))
            #expect(error.triesMade == 3)
            #expect(error.failureClass == .infrastructure, "the runner must not retry it again")
            #expect(error.description.hasPrefix("openai engine: gave up after 3 tries: "))
            #expect(server.requests.count == 3)
        }
    }

    @Test(arguments: [(400, FailureClass.infrastructure), (401, .infrastructure), (404, .infrastructure),
                      (429, .retryableInfrastructure), (500, .retryableInfrastructure), (502, .retryableInfrastructure),
                      (503, .retryableInfrastructure), (504, .retryableInfrastructure)])
    func statusesAreClassified(status: Int, expected: FailureClass) {
        let error = OpenAIError(kind: .httpStatus(status), url: "http://h/v1/chat/completions", detail: "HTTP \(status)")
        #expect(error.failureClass == expected)
        #expect(error.domain == "OpenAIError" && error.caseName == "http\(status)")
    }

    @Test func faultsThatWillNotChangeAreNotRetried() throws {
        let server = try FaultServer { _ in .respond(status: 200, body: "not json") }
        defer { server.stop() }
        do {
            _ = try engine(server).respond(to: request()) { _ in }
            Issue.record("expected a fault")
        } catch let error as OpenAIError {
            #expect(error.kind == .malformedResponse)
            #expect(error.failureClass == .infrastructure)
            #expect(server.requests.count == 1)
        }
    }

    @Test func aStreamCutAfterEventsIsLeftToTheRunner() throws {
        let chunk = OpenAIStreamAccumulatorTests.event(#"{"choices":[{"delta":{"content":"Hel"}}]}"#)
        let server = try FaultServer { _ in .events([chunk]) }
        defer { server.stop() }
        var events: [EngineEvent] = []
        do {
            _ = try engine(server, stream: true).respond(to: request()) { events.append($0) }
            Issue.record("expected a fault")
        } catch let error as OpenAIError {
            #expect(error.kind == .streamCut)
            #expect(error.failureClass == .retryableInfrastructure, "a whole-attempt retry starts the session afresh")
            #expect(events == [.textDelta("Hel")], "events already delivered are not delivered twice")
            #expect(server.requests.count == 1)
        }
    }

    @Test func refusedConnectionsAreRetriedThenGivenUp() throws {
        let port = try FaultServer.closedPort()
        let engine = try OpenAIEngine(settings: OpenAIFixtures.settings("http://127.0.0.1:\(port)/v1", retry: OpenAIFixtures.instantRetries),
                                      environment: [:])
        do {
            _ = try engine.respond(to: request()) { _ in }
            Issue.record("expected a fault")
        } catch let error as OpenAIError {
            #expect(error.kind == .connectionRefused)
            #expect(error.triesMade == 3 && error.failureClass == .infrastructure)
        }
    }
}
