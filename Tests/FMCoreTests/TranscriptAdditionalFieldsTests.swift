import Foundation
import Testing
@testable import FMCore

/// Apple's full reference transcript with Foundation Models 27 style members added at every level.
private func transcriptWithNewKeys() throws -> GeneratedContent {
    var text = try referenceText("test_transcript_full")
    text = text.replacingOccurrences(of: #""role": "instructions","#, with: #""role": "instructions", "metadata": {"locale": "en_US"},"#)
    text = text.replacingOccurrences(of: #""role": "user","#, with: #""role": "user", "metadata": {"requestID": "R1"},"#)
    text = text.replacingOccurrences(of: #""role": "tool""#, with: #""role": "tool", "metadata": {"durationMs": 12}"#)
    text = text.replacingOccurrences(of: #""role": "response","#, with: #""role": "response", "metadata": {"usage": {"inputTokens": 40, "outputTokens": 9}},"#)
    text = text.replacingOccurrences(of: #""text": "[]""#, with: #""text": "[]", "mimeType": "application/json""#)
    text = text.replacingOccurrences(of: #""type": "FoundationModels.Transcript""#, with: #""type": "FoundationModels.Transcript", "createdAt": "2026-06-09T10:00:00Z""#)
    text = text.replacingOccurrences(of: #""transcript": {"#, with: #""transcript": { "sessionID": "S1","#)
    return try GeneratedContent(json: text)
}

@Test func unknownKeysAtEveryLevelAreKeptAndWrittenBack() throws {
    let original = try transcriptWithNewKeys()
    let transcript = try Transcript(content: original)
    #expect(transcript.content == original, "\(transcript.jsonString)")
    #expect(try Transcript(json: transcript.jsonString) == transcript)
    #expect(transcript.additionalFields[""] == ["createdAt": "2026-06-09T10:00:00Z"])
    #expect(transcript.additionalFields["/transcript"] == ["sessionID": "S1"])
    guard case .instructions(let instructions) = transcript.entries[0], case .prompt(let prompt) = transcript.entries[1],
          case .toolCalls(let calls) = transcript.entries[2], case .toolOutput(let output) = transcript.entries[3],
          case .response(let response) = transcript.entries[4], case .text(let outputText) = output.segments[0] else {
        throw TestFailure("unexpected entries: \(transcript.entries)")
    }
    #expect(instructions.additionalFields == ["metadata": ["locale": "en_US"]])
    #expect(prompt.additionalFields == ["metadata": ["requestID": "R1"]])
    #expect(calls.additionalFields["metadata"]?["usage"]?["outputTokens"] == 9)
    #expect(output.additionalFields == ["metadata": ["durationMs": 12]])
    #expect(outputText.additionalFields == ["mimeType": "application/json"])
    #expect(response.additionalFields["metadata"]?["usage"]?["inputTokens"] == 40)
}

@Test func theReferenceFilesGainNoMembers() throws {
    for name in ["test_transcript", "test_transcript_full"] {
        let transcript = try Transcript(json: try referenceText(name))
        #expect(transcript.additionalFields.isEmpty)
        #expect(transcript.content == (try GeneratedContent(json: try referenceText(name))))
    }
}

@Test func newKeysDoNotRelaxTheKnownOnes() throws {
    let wrongOptions = try referenceText("test_transcript_full").replacingOccurrences(of: #""options": {}"#, with: #""options": {"temperature": "hot"}"#)
    do { _ = try Transcript(json: wrongOptions); Issue.record("accepted a string temperature") } catch let error as JSONFormatError {
        #expect(error.path == "/transcript/entries/1/options/temperature")
    }
    let newStructureKey = try referenceText("test_transcript_full").replacingOccurrences(of: #""source": "Recipe","#, with: #""source": "Recipe", "extra": 1,"#)
    let kept = try Transcript(json: newStructureKey)
    #expect(kept.content == (try GeneratedContent(json: newStructureKey)), "a structure's unknown key is kept and written back")
}
