import Foundation
import Testing
import FMCore
import FMEvaluate
@testable import FMReport
@testable import FMResults

/// A run of one case scored from a recorded transcript carrying options, assets and `metadata` members.
private func recordedRun() -> RunResult {
    var prompt = Transcript.Prompt(id: "p", segments: [.text(.init(id: "t", content: "Weather in Paris?"))],
                                   options: GenerationOptions(temperature: 0.7, maximumResponseTokens: 512))
    prompt.additionalFields = ["metadata": ["requestID": "<R1>"]]
    var response = Transcript.Response(id: "r", assetIDs: ["com.apple.fm.language.instruct_3b.tokenizer"],
                                       segments: [.text(.init(id: "0", content: "Sunny."))])
    response.additionalFields = ["metadata": ["usage": ["inputTokens": 40, "outputTokens": 9]]]
    var attempt = sampleAttempt(0, .passed, text: "Sunny.")
    attempt.transcript = Transcript(entries: [.prompt(prompt), .response(response)])
    var info = sampleInfo()
    info.fingerprint.recordedTranscripts = [RecordedSource(path: "fixtures/recorded/paris.json", sha256: String(repeating: "ab", count: 32))]
    let item = CaseResult(id: "recorded/paris", suite: "recorded", caseID: "paris", gate: CaseGate(), attempts: [attempt], durationMs: 1)
    return RunResult(run: info, cases: [item])
}

@Test func htmlShowsRecordedOptionsAssetsMembersAndSources() {
    let html = HTMLReport.render(recordedRun())
    #expect(html.contains("Scored from 1 recorded transcript (no model ran for them)"))
    #expect(html.contains("<code>fixtures/recorded/paris.json</code> <span class=\"muted mono\">sha256 \(String(repeating: "ab", count: 32))</span>"))
    #expect(html.contains("options <code>{&quot;temperature&quot;:0.7,&quot;maximumResponseTokens&quot;:512}</code>"))
    #expect(html.contains("assets com.apple.fm.language.instruct_3b.tokenizer"))
    #expect(html.contains("&quot;requestID&quot;: &quot;&lt;R1&gt;&quot;"), "recorded members are escaped JSON")
    #expect(html.contains("&quot;outputTokens&quot;: 9"))
}

@Test func aRunWithoutRecordedTranscriptsShowsNoSources() {
    let html = HTMLReport.render(sampleRun())
    #expect(!html.contains("recorded transcript"))
    #expect(!JUnitReport.properties(sampleRun(), variant: nil).contains { $0.0 == "fmeval.transcript.sha256" })
}

@Test func junitNamesEachRecordedTranscriptWithItsHash() {
    let properties = JUnitReport.properties(recordedRun(), variant: nil)
    #expect(properties.filter { $0.0 == "fmeval.transcript.sha256" }.map(\.1) == ["\(String(repeating: "ab", count: 32)) fixtures/recorded/paris.json"])
}

@Test func olderResultsWithoutRecordedTranscriptsStillLoad() throws {
    let fingerprint = try JSONDecoder().decode(Fingerprint.self, from: Data("""
    {"fmevalVersion": "0.1.0", "engine": {"name": "embedded", "model": "m"}, "os": "Linux", "cpu": "x", "cpuCount": 2, "architecture": "x86_64"}
    """.utf8))
    #expect(fingerprint.recordedTranscripts == nil)
}
