import Foundation
import Testing
import FMCore
import FMEvaluate
import FMResults
@testable import FMRun
import FMSuite

/// The repository's example suite of recorded transcripts.
private let exampleSuite: String = {
    var root = URL(fileURLWithPath: #filePath)
    while !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) { root.deleteLastPathComponent() }
    return root.appendingPathComponent("suites/recorded-device-transcripts.yaml").path
}()

/// A results path in a fresh temporary folder.
private func resultsPath() throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-recorded-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder.appendingPathComponent("results.json").path
}

@Test func theExampleTranscriptsScoreWithoutAModel() throws {
    let request = RunRequest(paths: [exampleSuite], resultsPath: try resultsPath())
    let plan = try RunPipeline.plan(request)
    #expect(plan.notes.isEmpty && plan.warnings.isEmpty)
    let result = try RunPipeline.execute(request, plan: plan)
    let statuses = Dictionary(uniqueKeysWithValues: result.cases.map { ($0.caseID, $0.status) })
    #expect(statuses == ["bread-recipe": .passed, "math-tutor": .passed, "review-sentiment": .passed, "receipt-photo": .passed,
                         "recipe-off-schema": .knownIssue, "fm-session-planets": .passed, "fm-session-ocr-tool": .passed,
                         "fm27-image-flat-options": .passed, "fm27-ticket-off-schema": .knownIssue],
            "\(result.cases.map { "\($0.caseID) \($0.status) \($0.reason)" })")
    #expect(result.exitCode == 0)
    #expect(result.cases.allSatisfy { $0.engine == EngineIdentity(name: "recorded", model: "transcripts") })
    #expect(result.run.fingerprint.engine.name == "recorded")
    let sources = try #require(result.run.fingerprint.recordedTranscripts)
    #expect(sources.map { ($0.path as NSString).lastPathComponent } == ["bread-recipe.json", "fm-session-ocr-tool.json",
        "fm-session-planets.json", "fm27-image-flat-options.json", "fm27-ticket-off-schema.json", "math-tutor.json",
        "receipt-photo.json", "recipe-off-schema.json", "review-sentiment.json"])
    #expect(sources.allSatisfy { $0.sha256.count == 64 })

    let offSchema = try #require(result.cases.first { $0.caseID == "recipe-off-schema" }?.attempts.first)
    let keywords = offSchema.violations.map { "\($0.path) \($0.keyword.rawValue)" }.sorted()
    #expect(keywords == ["/difficulty enum", "/toolCalls/0/arguments/limit maximum", "/yield anyOf"], "\(keywords)")
    #expect(offSchema.usage == Usage(inputTokens: 872, outputTokens: 209))
    let reloaded = try ResultsFile.load(request.resultsPath)
    #expect(reloaded.run.fingerprint.recordedTranscripts == sources)
}

@Test func flagsForEnginesLeaveRecordedCasesAloneWithANote() throws {
    var request = RunRequest(paths: [exampleSuite], resultsPath: try resultsPath())
    request.engine = "openai"
    request.model = "smollm2"
    let plan = try RunPipeline.plan(request)
    #expect(plan.notes.map(\.text) == ["note: --engine, --model do not apply to the 9 cases scored from recorded transcripts (recorded-device-transcripts): no engine runs for them"])
    #expect(plan.notes.map(\.kind) == [.flagsSkipRecordedCases] && plan.notes.first?.suites == ["recorded-device-transcripts"])
    #expect(plan.cases.allSatisfy { EngineResolution.resolve($0, request: request).configuration.name == "recorded" })
}

@Test func anInvalidTranscriptStopsTheRunUnlessKeepGoing() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-recorded-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("t"), withIntermediateDirectories: true)
    let reference = URL(fileURLWithPath: exampleSuite).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("reference/apple-fm-sdk")
    try FileManager.default.copyItem(at: reference.appendingPathComponent("test_transcript.json"), to: folder.appendingPathComponent("t/good.json"))
    try Data(#"{"version": 1, "type": "FoundationModels.Transcript", "transcript": {"entries": [{"id": "x", "role": "user"}]}}"#.utf8)
        .write(to: folder.appendingPathComponent("t/bad.json"))
    try Data("suite: r\ntranscripts: t/*.json\ncases:\n  - id: good\n    expect: { contains: \"12\" }\n".utf8).write(to: folder.appendingPathComponent("s.yaml"))
    var request = RunRequest(paths: [folder.appendingPathComponent("s.yaml").path], resultsPath: folder.appendingPathComponent("r.json").path)
    #expect {
        try RunPipeline.plan(request)
    } throws: { error in
        let text = (error as? Fault)?.description ?? ""
        return text.contains("t/bad.json:1:") && text.contains("at /transcript/entries/0: missing \"contents\"") && text.contains("--keep-going")
    }
    request.keepGoing = true
    let plan = try RunPipeline.plan(request)
    #expect(plan.warnings.count == 1 && plan.warnings[0].hasSuffix("(--keep-going: listed as an error)"))
    let result = try RunPipeline.execute(request, plan: plan)
    let statuses = Dictionary(uniqueKeysWithValues: result.cases.map { ($0.caseID, $0.status) })
    #expect(statuses == ["bad": .error, "good": .passed])
    let error = try #require(result.cases.first { $0.caseID == "bad" }?.attempts.first?.error)
    #expect(error.domain == "RecordedTranscript" && error.caseName == "invalidTranscript")
    #expect(RecordedCases.problems(of: plan.cases).count == 1)
}
