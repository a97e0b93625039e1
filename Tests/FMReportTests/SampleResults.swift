import Foundation
import FMCore
import FMEvaluate
@testable import FMReport
@testable import FMResults

/// Text a model might print that breaks naive reports.
let hostileText = "<script>alert('pwned')</script> ]]> & \"q\" \u{1B}[31m\u{0}\u{8}\u{FFFE} \u{FFFD}\u{FFFD} 👩‍👩‍👧"

/// A fingerprint for synthetic runs.
func sampleFingerprint(model: String = "SmolLM2-135M-Instruct") -> Fingerprint {
    Fingerprint(fmevalVersion: FMEvalVersion.current, engine: EngineIdentity(name: "scripted", model: model, modelHash: "ab12"),
                os: "Linux 6.1", cpu: "Test CPU <x86>", cpuCount: 2, architecture: "x86_64")
}

/// A transcript with instructions, a tool definition, a prompt, a tool call and output, and a response.
func sampleTranscript(prompt: String, response: String, toolCall: Bool = false) -> Transcript {
    var entries: [Transcript.Entry] = []
    let parameters = try? GenerationSchema(json: #"{"type":"object","properties":{"city":{"type":"string","enum":["London","Paris"]}},"required":["city"],"additionalProperties":false}"#)
    let tools = parameters.map { [ToolDefinition(name: "getCityInfo", description: "Get info <b>now</b>", parameters: $0)] } ?? []
    entries.append(.instructions(.init(id: "i", segments: [.text(.init(id: "i1", content: "Only call tools for London & Paris."))], toolDefinitions: tools)))
    entries.append(.prompt(.init(id: "p", segments: [.text(.init(id: "p1", content: prompt))])))
    if toolCall {
        let arguments = GeneratedContent(properties: [("city", GeneratedContent("Beijing</pre><script>x()</script>"))])
        entries.append(.toolCalls(.init(id: "c", calls: [ToolCall(id: "call-1", name: "getCityInfo", arguments: arguments)])))
        entries.append(.toolOutput(.init(id: "o", toolName: "getCityInfo", toolCallID: "call-1", segments: [.text(.init(id: "o1", content: "Sunny, 21°C."))])))
    }
    entries.append(.response(.init(id: "r", segments: [.text(.init(id: "r1", content: response))])))
    return Transcript(entries: entries)
}

/// One attempt with the given outcome; failing attempts carry a failing metric, errors an AttemptError.
func sampleAttempt(_ index: Int, _ outcome: AttemptOutcome, text: String = "Paris", toolCall: Bool = false) -> AttemptResult {
    var metrics = [Metric.passing("equals", rationale: "output equals 'Paris'")]
    var error: AttemptError?
    var violations: [Violation] = []
    switch outcome {
    case .passed: break
    case .failed:
        metrics.append(.failing("toolCalls.allPass", rationale: "unexpected call getCityInfo(city: \(text))"))
        violations.append(Violation(path: "/city", keyword: .enum, expected: GeneratedContent([GeneratedContent("London"), GeneratedContent("Paris")]),
                                    actual: GeneratedContent(text), message: "'\(text)' is not one of London, Paris"))
    case .error:
        metrics = []
        error = AttemptError(domain: "LanguageModelError", caseName: "timeout", message: "engine timed out after 30 s <&>")
    }
    return AttemptResult(index: index, status: outcome, text: text,
                         transcript: sampleTranscript(prompt: "Weather in \(text)?", response: text, toolCall: toolCall),
                         usage: Usage(inputTokens: 120, cachedInputTokens: 64, outputTokens: 8), metrics: metrics,
                         violations: violations, error: error, durationMs: 12.5, snapshotCount: 3, engineCalls: toolCall ? 2 : 1)
}

/// A case from its attempt outcomes.
func sampleCase(_ suite: String, _ id: String, variant: String? = nil, _ outcomes: [AttemptOutcome],
                gate: CaseGate = CaseGate(), text: String = "Paris", toolCall: Bool = false) -> CaseResult {
    CaseResult(id: CaseResult.stableID(suite: suite, caseID: id, variant: variant), suite: suite, caseID: id, variant: variant,
               tags: ["forum"], source: "suites/\(suite).yaml:12", gate: gate,
               attempts: outcomes.enumerated().map { sampleAttempt($0.offset, $0.element, text: text, toolCall: toolCall) },
               durationMs: 25 * Double(outcomes.count))
}

/// A run info for synthetic runs.
func sampleInfo(shard: String? = nil, variants: [String] = []) -> RunInfo {
    RunInfo(id: "run-1", startedAt: "2026-11-30T12:00:00Z", finishedAt: "2026-11-30T12:00:05Z", durationMs: 5000,
            paths: ["suites"], arguments: ["suites"], fingerprint: sampleFingerprint(), variants: variants, shard: shard)
}

/// Passing, failing, erroring, skipped, flaky (gate holds and fails) and hostile-output cases, plus a classification.
func sampleRun() -> RunResult {
    let cases = [
        sampleCase("city-info", "paris", [.passed]),
        sampleCase("city-info", "beijing", [.failed], text: "Beijing", toolCall: true),
        sampleCase("city-info", "timeout", [.error]),
        sampleCase("city-info", "flaky-ok", Array(repeating: .passed, count: 19) + [.failed], gate: CaseGate(minPassRate: 0.9)),
        sampleCase("city-info", "flaky-bad", Array(repeating: .passed, count: 10) + Array(repeating: .failed, count: 10),
                   gate: CaseGate(minPassRate: 0.95)),
        sampleCase("hostile <suite> & co", hostileText, [.failed], text: hostileText),
    ]
    let skipped = [SkippedCase(id: "city-info/london", suite: "city-info", caseID: "london", variant: nil, tags: [],
                               cause: .filteredOut(expression: "tag:adversarial"))]
    let summary = ClassificationSummary(labels: ["positive", "negative", "<neutral>"], observations: [
        ClassificationObservation(expected: "positive", predicted: "positive"),
        ClassificationObservation(expected: "positive", predicted: "negative"),
        ClassificationObservation(expected: "negative", predicted: "negative"),
        ClassificationObservation(expected: "<neutral>", predicted: "maybe"),
    ])
    return RunResult(run: sampleInfo(), cases: cases, skipped: skipped,
                     classifications: [SuiteClassification(suite: "sentiment", variant: nil, summary: summary)])
}
