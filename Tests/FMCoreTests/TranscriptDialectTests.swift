import Foundation
import Testing
@testable import FMCore

/// `fixtures/recorded` in the package root.
private let recordedDirectory = appleReferenceDirectory.deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("fixtures/recorded")

/// Every transcript file the repository holds: Apple's reference transcripts and the recorded fixtures.
private func transcriptFixtures() throws -> [URL] {
    let recorded = try FileManager.default.contentsOfDirectory(at: recordedDirectory, includingPropertiesForKeys: nil)
        .filter { $0.pathExtension == "json" }
    return recorded.sorted { $0.path < $1.path }
        + ["test_transcript", "test_transcript_full"].map { appleReferenceDirectory.appendingPathComponent($0 + ".json") }
}

private func fixture(_ name: String) throws -> GeneratedContent {
    try GeneratedContent(json: try String(contentsOf: recordedDirectory.appendingPathComponent(name + ".json"), encoding: .utf8))
}

@Test func everyTranscriptFixtureRoundTripsToTheSameJSONValue() throws {
    let files = try transcriptFixtures()
    #expect(files.count >= 11)
    for file in files {
        let original = try GeneratedContent(json: try String(contentsOf: file, encoding: .utf8))
        let transcript = try Transcript(content: original)
        #expect(transcript.content == original, "\(file.lastPathComponent): \(transcript.jsonString)")
        #expect(try Transcript(content: transcript.content) == transcript, "\(file.lastPathComponent)")
    }
}

@Test func theFMToolsSessionFileLoadsWithItsWrapper() throws {
    let original = try fixture("fm-session-ocr-tool")
    let transcript = try Transcript(content: original)
    #expect(transcript.dialect == .fm27)
    #expect(transcript.modelName == "system")
    #expect(transcript.sessionFileMembers == ["modelName": "system"])
    guard case .instructions(let instructions) = transcript.entries[0], case .prompt(let prompt) = transcript.entries[1],
          case .toolCalls(let calls) = transcript.entries[2], case .attachment(let image) = prompt.segments[0] else {
        throw TestFailure("unexpected entries: \(transcript.entries)")
    }
    #expect(instructions.segments.isEmpty && instructions.toolDefinitions.map(\.name) == ["getText"])
    #expect(image.form == .attachment && image.label == "image_0")
    #expect(image.content.image?.contentType == "image/jpeg")
    #expect(image.content.image?.data.map(Transcript.ImageAttachment.contentType(of:)) == "image/jpeg")
    #expect(calls.calls.first?.arguments == ["image": ["attachmentLabel": "image_0"]])
    #expect(calls.calls.first?.content["arguments"] == GeneratedContent(#"{"image": {"attachmentLabel": "image_0"}}"#))
    // FM 27's empty contextOptions is the written-form flag, not an extra member (it is written back).
    #expect(prompt.writesContextOptions == true && prompt.additionalFields["contextOptions"] == nil)
}

@Test func foundationModels27FlatOptionsAndImageSegmentsAreRead() throws {
    let transcript = try Transcript(content: try fixture("fm27-image-flat-options"))
    #expect(transcript.sessionFileMembers == nil)
    guard case .prompt(let prompt) = transcript.entries[1], case .attachment(let image) = prompt.segments[1] else {
        throw TestFailure("unexpected entries: \(transcript.entries)")
    }
    #expect(prompt.options.sampling == .topK(41, seed: 73))
    #expect(prompt.options.temperature == 0.7 && prompt.options.maximumResponseTokens == 256)
    #expect(prompt.options.toolCallingMode == .disallowed && prompt.options.form == .flat)
    #expect(image.form == .image && image.label == nil)
    let ticket = try Transcript(content: try fixture("fm27-ticket-off-schema"))
    guard case .prompt(let nucleus) = ticket.entries[1] else { throw TestFailure("no prompt") }
    #expect(nucleus.options.sampling == .nucleus(probabilityThreshold: 0.9, seed: 7))
}

@Test func versionsAreNamedInTheError() throws {
    for version in ["2", #""1.0""#, #""1""#] {
        let text = #"{"version": \#(version), "type": "FoundationModels.Transcript", "transcript": {"entries": []}}"#
        do { _ = try Transcript(json: text); Issue.record("accepted version \(version)") } catch let error as JSONFormatError {
            #expect(error.path == "/version")
            #expect(error.message.contains(#"1 (Foundation Models 26) and "1.1" (Foundation Models 27)"#), "\(error.message)")
        }
    }
    let wrapped = #"{"modelName": "system", "transcript": {"type": "FoundationModels.Transcript", "version": 3, "transcript": {"entries": []}}}"#
    #expect(throws: JSONFormatError.self) { try Transcript(json: wrapped) }
    do { _ = try Transcript(json: wrapped) } catch let error as JSONFormatError { #expect(error.path == "/transcript/version") }
    do { _ = try Transcript(json: #"{"entries": []}"#) } catch let error as JSONFormatError {
        #expect(error.message.contains("fm session file"), "\(error.message)")
    }
}

@Test func convertingBetweenDialectsRewritesVersionOptionsAndImages() throws {
    let fm27 = try Transcript(content: try fixture("fm27-image-flat-options"))
    let fm26 = fm27.converted(to: .fm26).content
    #expect(fm26["version"] == 1)
    let prompt = try #require(fm26["transcript"]?["entries"]?.arrayValue?[1])
    #expect(prompt["options"]?["sampling"] == ["topK": 41, "seed": 73])
    #expect(prompt["options"]?["randomSeed"] == nil)
    #expect(prompt["contents"]?.arrayValue?[1]["content"]?["image"]?["contentType"] == "image/jpeg")
    let back = try Transcript(content: fm26).converted(to: .fm27)
    #expect(back.content["version"] == "1.1")
    #expect(back.content["transcript"]?["entries"]?.arrayValue?[1]["options"]?["topK"] == 41)
    let math = try Transcript(json: try referenceText("test_transcript")).converted(to: .fm27).content
    let entries = try #require(math["transcript"]?["entries"]?.arrayValue)
    #expect(entries[1]["contextOptions"] == GeneratedContent(properties: []), "FM 27 writes contextOptions on prompts")
}

@Test func newTranscriptsAreWrittenInTheFoundationModels27Dialect() throws {
    let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]
    let transcript = Transcript(entries: [
        .prompt(.init(id: "p", segments: [.text(.init(id: "t", content: "Total?")),
                                          .attachment(.init(id: "a", content: .image(.init(contentType: "image/png", data: png)), label: "receipt")),
                                          .attachment(.init(id: "b", content: .image(.init(contentType: "image/png", data: png))))],
                      options: GenerationOptions(sampling: .random(top: 5, seed: 9), temperature: 0.5))),
        .response(.init(id: "r", segments: [.text(.init(id: "s", content: "12"))])),
    ])
    let content = transcript.content
    #expect(content["version"] == "1.1")
    let entries = try #require(content["transcript"]?["entries"]?.arrayValue)
    #expect(entries[0]["options"] == ["topK": 5, "randomSeed": 9, "temperature": 0.5])
    #expect(entries[0]["contextOptions"] == GeneratedContent(properties: []))
    let uri = "data:image/png;base64,\(Data(png).base64EncodedString())"
    #expect(entries[0]["contents"]?.arrayValue?[1] == ["type": "attachment", "id": "a",
                                                        "attachment": ["type": "image", "label": "receipt", "data": GeneratedContent(uri)]])
    #expect(entries[0]["contents"]?.arrayValue?[2] == ["type": "image", "id": "b", "image": GeneratedContent(uri)])
    #expect(entries[1]["assets"] == GeneratedContent([GeneratedContent]()))
    #expect(try Transcript(content: content).content == content)
}

@Test func unknownKeysInOptionsToolsCallsAndSegmentsAreKept() throws {
    var text = try String(contentsOf: recordedDirectory.appendingPathComponent("fm-session-ocr-tool.json"), encoding: .utf8)
    text = text.replacingOccurrences(of: #""options": {}"#, with: #""options": {"futureOption": true}"#)
    text = text.replacingOccurrences(of: #""type": "function","#, with: #""type": "function", "strict": false,"#)
    text = text.replacingOccurrences(of: #""name": "getText","#, with: #""name": "getText", "metadata": {"latencyMs": 3},"#)
    text = text.replacingOccurrences(of: #""label": "image_0","#, with: #""label": "image_0", "width": 8,"#)
    let original = try GeneratedContent(json: text)
    let transcript = try Transcript(content: original)
    #expect(transcript.content == original, "\(transcript.jsonString)")
    guard case .prompt(let prompt) = transcript.entries[1], case .toolCalls(let calls) = transcript.entries[2],
          case .instructions(let instructions) = transcript.entries[0], case .attachment(let image) = prompt.segments[0] else {
        throw TestFailure("unexpected entries")
    }
    #expect(prompt.options.additionalFields == ["futureOption": true])
    #expect(instructions.toolDefinitions[0].additionalFields == ["strict": false])
    #expect(calls.calls[0].additionalFields == ["metadata": ["latencyMs": 3]])
    #expect(image.attachmentFields == ["width": 8])
}

@Test func nestedAndFlatSamplingTogetherIsALocatedError() throws {
    let options: GeneratedContent = ["sampling": ["topK": 3], "topK": 4]
    #expect(throws: JSONFormatError.self) { try GenerationOptions(content: options, at: "/o", keepingUnknownKeys: true) }
    do { _ = try GenerationOptions(content: options, at: "/o", keepingUnknownKeys: true) } catch let error as JSONFormatError {
        #expect(error.path == "/o/topK")
    }
    #expect(throws: JSONFormatError.self) { try GenerationOptions(content: ["randomSeed": 3]) }
}
