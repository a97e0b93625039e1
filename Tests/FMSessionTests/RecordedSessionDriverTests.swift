import Foundation
import Testing
import FMCore
@testable import FMSession

/// A transcript file of the repository (`reference/…` or `fixtures/…`), parsed.
private func repositoryTranscript(_ path: String) throws -> Transcript {
    var root = URL(fileURLWithPath: #filePath)
    while !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) { root.deleteLastPathComponent() }
    return try Transcript(json: try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8))
}

@Test func aRecordedTranscriptIsTheSessionRecord() throws {
    let transcript = try repositoryTranscript("reference/apple-fm-sdk/test_transcript_full.json")
    let record = try RecordedSessionDriver(transcript: transcript).run(SessionPlan(configuration: SessionConfiguration(), turns: ["ignored"]))
    #expect(record.transcript == transcript)
    #expect(record.content?["name"] == "brioche")
    #expect(record.text == record.content?.jsonString)
    #expect(record.turns.count == 1)
    #expect(record.totals.engineCalls == 2)
    #expect(record.totals.toolCalls == 1)
    #expect(record.totals.usage == Usage())
}

@Test func everyPromptIsATurnAndTheLastResponseIsTheAnswer() throws {
    let transcript = try repositoryTranscript("reference/apple-fm-sdk/test_transcript.json")
    let record = try RecordedSessionDriver(transcript: transcript).run(SessionPlan(configuration: SessionConfiguration(), turns: []))
    #expect(record.turns.count == 3)
    #expect(record.turns.map(\.engineCalls) == [1, 1, 1])
    #expect(record.text == "2 multiplied by 6 equals 12.")
    #expect(record.content == nil)
}

@Test func usageRecordedInMetadataIsCounted() throws {
    let transcript = try repositoryTranscript("fixtures/recorded/recipe-off-schema.json")
    let record = try RecordedSessionDriver(transcript: transcript).run(SessionPlan(configuration: SessionConfiguration(), turns: []))
    #expect(record.totals.usage == Usage(inputTokens: 412 + 460, outputTokens: 21 + 188))
    #expect(RecordedSessionDriver.usage(in: ["usage": ["inputTokens": -1]]) == nil)
    #expect(RecordedSessionDriver.usage(in: ["usage": "many"]) == nil)
    #expect(RecordedSessionDriver.usage(in: ["metadata": ["usage": ["outputTokens": 3]]]) == Usage(outputTokens: 3))
}

@Test func aTranscriptWithoutAnAnswerHasNoText() throws {
    let transcript = Transcript(entries: [.prompt(.init(id: "p", segments: [.text(.init(id: "t", content: "Hello?"))]))])
    let record = try RecordedSessionDriver(transcript: transcript).run(SessionPlan(configuration: SessionConfiguration(), turns: []))
    #expect(record.text == nil && record.content == nil)
    #expect(record.turns.count == 1 && record.totals.engineCalls == 0)
}
