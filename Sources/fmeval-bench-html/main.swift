// fmeval-bench-html: writes a realistic large run and its HTML report, for benchmarks/html-report-paint.sh.
// Usage: fmeval-bench-html FOLDER [CASES] (default 10000). Writes FOLDER/results.json and FOLDER/report.html
// (rendered as `fmeval report results.json --html` would) and prints the render time and the file sizes.
// Cases: every 10th fails (a failing metric and a schema violation), every 97th errors, every 23rd is flaky
// (five attempts, one failed, gate 80 %), the rest pass; every 3rd calls a tool; every 50th answers with markup.
import Foundation
import FMCore
import FMEvaluate
import FMReport
import FMResults

let arguments = CommandLine.arguments
guard arguments.count > 1 else {
    FileHandle.standardError.write(Data("usage: fmeval-bench-html FOLDER [CASES]\n".utf8))
    exit(2)
}
let folder = URL(fileURLWithPath: arguments[1])
let caseCount = arguments.count > 2 ? Int(arguments[2]) ?? 10_000 : 10_000
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)

let cityTool: [ToolDefinition] = {
    let schema = #"{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}"#
    guard let parameters = try? GenerationSchema(json: schema) else { return [] }
    return [ToolDefinition(name: "getCityInfo", description: "Weather and facts for one city", parameters: parameters)]
}()

/// The answer of case `index`: a paragraph, markup for every 50th so the report's escaping is exercised.
func answer(_ index: Int) -> String {
    if index % 50 == 0 { return "<script>alert('pwned \(index)')</script> & <b>bold</b>" }
    return "City \(index % 400) is sunny today, 21 °C with a light breeze; rain tomorrow afternoon."
}

func transcript(_ index: Int, toolCall: Bool) -> Transcript {
    var entries: [Transcript.Entry] = [
        .instructions(.init(id: "i", segments: [.text(.init(id: "i1", content:
            "You are a travel assistant. Answer in two sentences. Call getCityInfo for weather questions."))],
                            toolDefinitions: toolCall ? cityTool : [])),
        .prompt(.init(id: "p", segments: [.text(.init(id: "p1",
                                                      content: "What is the weather in city \(index % 400)?"))])),
    ]
    if toolCall {
        let arguments = GeneratedContent(properties: [("city", GeneratedContent("City \(index % 400)"))])
        let call = ToolCall(id: "call-1", name: "getCityInfo", arguments: arguments)
        entries.append(.toolCalls(.init(id: "c", calls: [call])))
        entries.append(.toolOutput(.init(id: "o", toolName: "getCityInfo", toolCallID: "call-1",
                                         segments: [.text(.init(id: "o1", content: "Sunny, 21 °C, wind W 12 km/h."))])))
    }
    entries.append(.response(.init(id: "r", segments: [.text(.init(id: "r1", content: answer(index)))])))
    return Transcript(entries: entries)
}

func attempt(_ index: Int, attempt: Int, _ outcome: AttemptOutcome) -> AttemptResult {
    let toolCall = index % 3 == 0
    var metrics = [Metric.passing("contains", rationale: "mentions the weather")]
    var violations: [Violation] = []
    var error: AttemptError?
    switch outcome {
    case .passed: break
    case .failed:
        metrics.append(.failing("toolCalls.allPass", rationale: "expected getCityInfo(city: City \(index % 400))"))
        violations.append(Violation(path: "/city", keyword: .enum,
                                    expected: GeneratedContent([GeneratedContent("London")]),
                                    actual: GeneratedContent("City \(index)"), message: "not one of London"))
    case .error:
        metrics = []
        error = AttemptError(domain: "LanguageModelError", caseName: "timeout", message: "engine timed out after 30 s")
    }
    return AttemptResult(index: attempt, status: outcome, text: answer(index),
                         transcript: transcript(index, toolCall: toolCall),
                         usage: Usage(inputTokens: 180 + index % 50, outputTokens: 40 + index % 20), metrics: metrics,
                         violations: violations, error: error, durationMs: 120 + Double(index % 300),
                         snapshotCount: 4, engineCalls: toolCall ? 2 : 1)
}

let cases = (0..<caseCount).map { index -> CaseResult in
    let outcomes: [AttemptOutcome]
    var gate = CaseGate()
    if index % 10 == 0 {
        outcomes = [.failed]
    } else if index % 97 == 0 {
        outcomes = [.error]
    } else if index % 23 == 0 {
        outcomes = [.passed, .passed, .failed, .passed, .passed]
        gate = CaseGate(minPassRate: 0.8)
    } else {
        outcomes = [.passed]
    }
    let suite = "suite-\(index % 20)"
    return CaseResult(id: "\(suite)/case-\(index)", suite: suite, caseID: "case-\(index)", tags: ["bench"],
                      source: "suites/\(suite).yaml:\(12 + index / 20)", gate: gate,
                      attempts: outcomes.enumerated().map { attempt(index, attempt: $0.offset, $0.element) },
                      durationMs: 150 * Double(outcomes.count))
}
let fingerprint = Fingerprint(fmevalVersion: FMEvalVersion.current,
                              engine: EngineIdentity(name: "scripted", model: "bench"),
                              os: "Linux", cpu: "bench", cpuCount: 2, architecture: "x86_64")
let run = RunResult(run: RunInfo(id: "bench-html", startedAt: "2026-12-06T05:00:00Z", durationMs: 600_000,
                                 paths: ["suites"], fingerprint: fingerprint), cases: cases)
let results = folder.appendingPathComponent("results.json")
try ResultsFile.write(run, to: results.path)
let start = Date()
let html = HTMLReport.render(run)
let seconds = Date().timeIntervalSince(start)
let report = folder.appendingPathComponent("report.html")
try Data(html.utf8).write(to: report)
let resultsSize = (try? FileManager.default.attributesOfItem(atPath: results.path)[.size] as? Int) ?? 0
print(String(format: "%d cases (%d do not hold the run): render %.2f s; report.html %.2f MB, results.json %.2f MB",
             caseCount, cases.filter { !$0.holdsRun }.count, seconds, Double(html.utf8.count) / 1e6,
             Double(resultsSize) / 1e6))
