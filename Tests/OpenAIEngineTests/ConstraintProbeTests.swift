import FMCore
import FaultServer
import Foundation
import Testing
@testable import FMEngines

/// The constraint-honesty probe on the openai engine: what it sends, and its verdict on a server that enforces
/// `response_format` and on one that ignores it.
@Suite struct ConstraintProbeTests {
    /// A chat completion whose message content is `content` (already JSON-escaped).
    static func completion(_ content: String) -> String {
        #"{"model":"served-model","choices":[{"message":{"role":"assistant","content":"\#(content)"},"#
            + #""finish_reason":"stop"}],"usage":{"prompt_tokens":12,"completion_tokens":6}}"#
    }

    func probe(answering content: String) throws -> (ConstraintProbe.Verdict, OpenAIEngine, FaultServer) {
        let server = try FaultServer { _ in .respond(status: 200, body: Self.completion(content)) }
        let engine = try OpenAIEngine(settings: OpenAIFixtures.settings(server.baseURL), environment: [:])
        defer { server.stop() }
        return (try engine.probeConstraints(), engine, server)
    }

    @Test func theProbeSchemaIsAnEnumOfSevenQsOnTheGrammarChannelOnly() throws {
        let body = try OpenAIRequestEncoder.body(for: ConstraintProbe.request, settings: OpenAIFixtures.settings())
        let json = body.jsonString
        #expect(json.contains(#""json_schema""#) && json.contains(#""name":"ConstraintProbe""#), "\(json)")
        #expect(json.contains(#""enum":["qqqqqqq"]"#), "\(json)")
        #expect(json.contains(#""temperature":0"#) && json.contains(#""max_tokens":32"#), "\(json)")
        let messages = try OpenAIRequestEncoder.messages(for: ConstraintProbe.request)
        #expect(!GeneratedContent(messages).jsonString.contains("qqqqqqq"), "the schema is not shown in the prompt")
        #expect(SchemaValidator.isValid(["probe": "qqqqqqq"], against: ConstraintProbe.schema))
        #expect(!SchemaValidator.isValid(["probe": "red"], against: ConstraintProbe.schema))
    }

    @Test func aConformingAnswerMeansEnforced() throws {
        let (verdict, engine, server) = try probe(answering: #"{\"probe\":\"qqqqqqq\"}"#)
        #expect(verdict == .enforced)
        #expect(server.requests.count == 1)
        #expect(engine.runDetails["constraintProbe"] == "enforced")
        #expect(engine.probeTarget == "openai server 127.0.0.1:\(server.port) (model served-model)")
    }

    @Test func freeTextOrOtherJSONMeansIgnored() throws {
        let (text, engine, _) = try probe(answering: "Red.")
        #expect(text == .ignored(answer: "Red."))
        #expect(engine.runDetails["constraintProbe"] == "ignored")
        let (json, _, _) = try probe(answering: #"{\"colour\":\"red\"}"#)
        #expect(json == .ignored(answer: #"{"colour":"red"}"#))
    }

    @Test func aFailedRequestThrowsInsteadOfGivingAVerdict() throws {
        let server = try FaultServer { _ in .respond(status: 500, body: "boom") }
        defer { server.stop() }
        let engine = try OpenAIEngine(settings: OpenAIFixtures.settings(server.baseURL), environment: [:])
        #expect(throws: OpenAIError.self) { try engine.probeConstraints() }
        #expect(engine.runDetails["constraintProbe"] == nil)
    }
}
