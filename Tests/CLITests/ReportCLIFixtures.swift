import Foundation
import TestSupport
import Testing

/// One case of a hand-written results document: id parts and whether its single attempt passed.
struct ReportFixtureCase {
    /// The suite name.
    var suite = "city-info"
    /// The case id.
    var caseID: String
    /// The variant, if any.
    var variant: String?
    /// Whether the attempt passed (else it failed with a metric and a rationale).
    var passed: Bool
}

/// A results document (docs/results-format.md, version 1) written by hand, so the CLI tests check
/// the file contract rather than the Swift model that writes it.
func reportFixtureJSON(_ cases: [ReportFixtureCase], shard: String? = nil, model: String = "SmolLM2-135M-Instruct") -> String {
    func quoted(_ text: String) -> String {
        let data = try! JSONSerialization.data(withJSONObject: [text], options: [])
        let array = String(decoding: data, as: UTF8.self)
        return String(array.dropFirst().dropLast())
    }
    let caseTexts = cases.map { item -> String in
        let id = item.variant.map { "\(item.suite)/\(item.caseID)@\($0)" } ?? "\(item.suite)/\(item.caseID)"
        let metric = item.passed
            ? #"{"name": "equals", "value": "passing", "rationale": "output equals 'Paris'"}"#
            : #"{"name": "equals", "value": "failing", "rationale": "expected 'Paris', got '<script>alert(1)</script>'"}"#
        let transcript = #"{"type": "FoundationModels.Transcript", "version": 1, "transcript": {"entries": [{"id": "p", "role": "user", "options": {}, "contents": [{"id": "p1", "type": "text", "text": "Weather?"}]}, {"id": "r", "role": "response", "contents": [{"id": "r1", "type": "text", "text": "<script>alert(1)</script>"}]}]}}"#
        return """
        {"id": \(quoted(id)), "suite": \(quoted(item.suite)), "caseID": \(quoted(item.caseID)),
         \(item.variant.map { "\"variant\": \(quoted($0))," } ?? "") "tags": [], "status": "\(item.passed ? "passed" : "failed")",
         "passes": \(item.passed ? 1 : 0), "passRate": \(item.passed ? 1 : 0), "interval": {"lower": \(item.passed ? 0.2065 : 0), "upper": \(item.passed ? 1 : 0.7935)},
         "gate": {}, "gateHolds": \(item.passed), "reason": "\(item.passed ? 1 : 0)/1 attempts passed", "durationMs": 20,
         "attempts": [{"index": 0, "status": "\(item.passed ? "passed" : "failed")", "text": "<script>alert(1)</script>",
           "transcript": \(transcript), "usage": {"inputTokens": 10, "cachedInputTokens": 0, "outputTokens": 3, "reasoningTokens": 0},
           "metrics": [\(metric)], "violations": [], "durationMs": 20, "truncated": false, "snapshotCount": 1, "engineCalls": 1}]}
        """
    }
    let passed = cases.filter(\.passed).count
    return """
    {"version": 1,
     "run": {"id": "fixture", "startedAt": "2026-11-30T12:00:00.000Z", "finishedAt": "2026-11-30T12:00:01.000Z", "durationMs": 1000,
             "paths": ["suites"], "arguments": [], "variants": [], \(shard.map { "\"shard\": \(quoted($0))," } ?? "")
             "checkDeterminism": false,
             "fingerprint": {"fmevalVersion": "0.1.0", "engine": {"name": "scripted", "model": \(quoted(model))},
                             "os": "Linux", "cpu": "test", "cpuCount": 2, "architecture": "x86_64"}},
     "summary": {"total": \(cases.count), "passed": \(passed), "failed": \(cases.count - passed), "flaky": 0, "errored": 0,
                 "skipped": 0, "gatesFailed": \(cases.count - passed), "attempts": \(cases.count), "nondeterministic": 0},
     "cases": [\(caseTexts.joined(separator: ",\n"))],
     "skipped": [],
     "classifications": []}
    """
}

/// A fresh temporary folder holding `files` (name → contents).
func reportFixtureFolder(_ files: [String: String]) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-cli-report-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for (name, contents) in files { try Data(contents.utf8).write(to: folder.appendingPathComponent(name)) }
    return folder
}

/// A scripted suite whose cases answer `answers[id]` and expect `yes`, written into `folder`.
func reportGateSuite(_ answers: [(String, String)], in folder: URL, name: String = "gate.yaml") throws -> String {
    var yaml = "suite: gate\nengine: scripted\ncases:\n"
    for (id, answer) in answers {
        yaml += "  - id: \(id)\n    prompt: Is it fine?\n    script: [ { text: \(answer) } ]\n    expect: { equals: \"yes\" }\n"
    }
    let url = folder.appendingPathComponent(name)
    try Data(yaml.utf8).write(to: url)
    return url.path
}

/// Checks a JUnit file with `.ci/check-junit` (Ant's schema once fmeval's extensions are checked and taken
/// out); nil when xmllint is missing outside CI (in CI, with `CI=true` or `FMEVAL_REQUIRE_TOOLS=1`, a missing
/// xmllint fails the test).
func reportXmllint(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> (status: Int32, output: String)? {
    let environment = ProcessInfo.processInfo.environment
    let required = environment["CI"]?.lowercased() == "true" || environment["FMEVAL_REQUIRE_TOOLS"] == "1"
    guard ["/usr/bin/xmllint", "/usr/local/bin/xmllint"].contains(where: FileManager.default.isExecutableFile) else {
        if required { Issue.record("xmllint is missing: install Debian package libxml2-utils", sourceLocation: sourceLocation) }
        return nil
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", packageRoot.appendingPathComponent(".ci/check-junit").path, path]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = readToEnd(pipe.fileHandleForReading)
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
