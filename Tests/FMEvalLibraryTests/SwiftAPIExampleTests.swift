// The worked example of docs/swift-api.md: the code between the two markers is copied into the doc
// verbatim, and `theDocShowsThisFilesExample` fails when they drift apart.
// BEGIN swift-api example
import FMEval
import Foundation
import Testing

/// A sentiment feature's suite, built in code; the scripted engine plays each case's `script:`, so
/// the suite's expectations, gates and A/B wiring are tested without a model.
func sentimentSuite() throws -> EvalSuite {
    var suite = SuiteBuilder("sentiment", [
        "engine": "scripted",
        "instructions": "Classify the review: positive, negative or neutral.",
        "generating": ["enum": ["positive", "negative", "neutral"]],
        "variants": [["name": "plain"], ["name": "terse", "prompt": "Review: {{prompt}}"]],
        "defaults": ["expect": [["constraints": ["maxViolations": 0]]]],
    ])
    suite.addCase("love-it", ["prompt": "I love it!", "expect": ["equals": "positive"],
                              "script": [["structure": "positive"]]])
    suite.addCase("broke", ["prompt": "It broke in a day.", "expect": ["equals": "negative"],
                            "script": [["structure": "negative"]]])
    return try EvalSuite(suite)
}

@Test func sentimentHoldsItsGates() throws {
    let result = try Evaluation.run(try sentimentSuite())
    #expect(result.passRate >= 0.8)
    #expect(result.status(of: "sentiment/love-it@plain") == .passed)
    #expect(result.violations(keyword: "enum") == 0)
    let ab = try #require(result.abOutcome("plain", "terse", suite: "sentiment"))
    #expect(ab.flipped.isEmpty)
    let reports = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-example-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
    try result.writeJUnit(to: reports.appendingPathComponent("sentiment.xml").path)
    try result.writeHTML(to: reports.appendingPathComponent("sentiment.html").path)
}

/// An engine of your own: fmeval's session sends it one request at a time (transcript, options,
/// schema, tools) and scores what it answers. This one stands in for an app's model adapter.
final class KeywordEngine: LanguageModelEngine {
    let identity = EngineIdentity(name: "keyword", model: "rules-v1")
    let capabilities = EngineCapabilities(guidedGeneration: true, toolCalling: false, streaming: false)

    func respond(to request: EngineRequest, onEvent: (EngineEvent) -> Void) throws -> EngineResponse {
        try checkCapabilities(for: request)
        guard case .prompt(let prompt)? = request.transcript.entries.last else {
            throw LanguageModelError.unsupportedTranscriptContent(.init(debugDescription: "the last entry is not a prompt"))
        }
        let text = prompt.segments.map(\.text).joined(separator: " ").lowercased()
        let label = text.contains("love") ? "positive" : text.contains("broke") ? "negative" : "neutral"
        onEvent(.partialStructure(GeneratedContent(label)))
        return EngineResponse(text: "\"\(label)\"", content: GeneratedContent(label), finishReason: .stop,
                              usage: Usage(inputTokens: TokenEstimate.count(text), outputTokens: 1))
    }
}

@Test func ownEngineRunsTheSameSuite() throws {
    let engine = EvalEngine.custom(EngineIdentity(name: "keyword", model: "rules-v1")) { KeywordEngine() }
    let result = try Evaluation.run(try sentimentSuite(), on: engine)
    #expect(result.allGatesHold)
    #expect(result.cases.allSatisfy { $0.engine?.name == "keyword" })
}
// END swift-api example
