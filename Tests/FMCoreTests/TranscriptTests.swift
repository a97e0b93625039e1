import Foundation
import Testing
@testable import FMCore

@Test(arguments: ["test_transcript", "test_transcript_full"])
func referenceTranscriptRoundTripsSemantically(name: String) throws {
    let original = try GeneratedContent(json: try referenceText(name))
    let transcript = try Transcript(content: original)
    #expect(transcript.content == original, "\(name): \(transcript.jsonString)")
    #expect(try Transcript(json: transcript.jsonString) == transcript)
}

@Test func fullTranscriptDecodesEveryEntryKind() throws {
    let transcript = try Transcript(json: try referenceText("test_transcript_full"))
    #expect(transcript.entries.count == 5)
    guard case .instructions(let instructions) = transcript.entries[0],
          case .prompt(let prompt) = transcript.entries[1],
          case .toolCalls(let calls) = transcript.entries[2],
          case .toolOutput(let output) = transcript.entries[3],
          case .response(let response) = transcript.entries[4] else {
        throw TestFailure("unexpected entry kinds: \(transcript.entries)")
    }
    #expect(instructions.toolDefinitions.map(\.name) == ["searchBreadDatabaseTool"])
    #expect(instructions.toolDefinitions[0].parameters.root.title == "Arguments")
    #expect(prompt.responseFormat?.name == "Recipe")
    #expect(prompt.options == GenerationOptions())
    #expect(calls.calls == [ToolCall(id: "8A856753-32E0-4D5D-9FBC-B95AC0BBFA59", name: "searchBreadDatabaseTool",
                                     arguments: ["searchTerm": "brioche", "limit": 1])])
    #expect(output.toolName == "searchBreadDatabaseTool")
    #expect(output.toolCallID == "8A856753-32E0-4D5D-9FBC-B95AC0BBFA59")
    guard case .structure(let structure) = response.segments.first else { throw TestFailure("no structure segment") }
    #expect(structure.source == "Recipe")
    #expect(structure.content["name"] == "brioche")
    #expect(response.assetIDs.count == 3)
    let violations = SchemaValidator.violations(of: structure.content, against: try #require(prompt.responseFormat).schema)
    #expect(violations.isEmpty)
}

@Test func structuredTranscriptOfTheFullReference() throws {
    let structured = try Transcript(json: try referenceText("test_transcript_full")).structuredTranscript
    #expect(structured.instructionText == "You are a bread expert and can answer questions about bread.")
    #expect(structured.prompts == ["What is a basic recipe for a brioche?"])
    #expect(structured.responses.count == 1)
    #expect(try GeneratedContent(json: structured.responses[0])["name"] == "brioche")
    #expect(structured.toolCalls.map(\.name) == ["searchBreadDatabaseTool"])
    #expect(structured.toolCalls[0].arguments["limit"] == 1)
    #expect(structured.toolOutputs == [.init(toolName: "searchBreadDatabaseTool", toolCallID: "8A856753-32E0-4D5D-9FBC-B95AC0BBFA59", text: "[]")])
    #expect(try StructuredTranscript(content: structured.content) == structured)
    #expect(structured.content["toolCalls"]?.arrayValue?.first?["arguments"]?["searchTerm"] == "brioche")
}

@Test func structuredTranscriptOfTheSimpleReference() throws {
    let structured = try Transcript(json: try referenceText("test_transcript")).structuredTranscript
    #expect(structured.instructionText == "You are a helpful math tutor.")
    #expect(structured.prompts == ["What is 5+3?", "What is 10-4?", "What is 2*6?"])
    #expect(structured.responses == ["5 + 3 equals 8.", "10 - 4 equals 6.", "2 multiplied by 6 equals 12."])
    #expect(structured.toolCalls.isEmpty && structured.toolOutputs.isEmpty)
}

@Test func reasoningAttachmentsAndOptionsRoundTrip() throws {
    let transcript = Transcript(entries: [
        .prompt(.init(id: "p", segments: [.text(.init(id: "t", content: "Describe")), .attachment(.init(id: "a", url: "file:///tmp/cat.png", label: "a cat"))],
                      options: GenerationOptions(sampling: .random(top: 40, seed: 7), temperature: 0.5, maximumResponseTokens: 64, toolCallingMode: .disallowed))),
        .reasoning(.init(id: "r", segments: [.text(.init(id: "0", content: "Thinking"))])),
        .response(.init(id: "s", segments: [.text(.init(id: "0", content: "A cat."))])),
    ])
    let decoded = try Transcript(json: transcript.jsonString)
    #expect(decoded.content == transcript.content, "written again, the same JSON value")
    #expect(decoded.entries.count == 3 && decoded.firstAttachment?.content.image?.url == "file:///tmp/cat.png")
    #expect(decoded.structuredTranscript.prompts == ["Describe\na cat"])
    let viaFoundation = try JSONDecoder().decode(Transcript.self, from: try JSONEncoder().encode(transcript))
    #expect(viaFoundation.content == transcript.content)
}

/// The reference transcript with `change` applied to its JSON text.
private func mutatedFull(_ change: (String) -> String) throws -> String {
    change(try referenceText("test_transcript_full"))
}

@Test func unknownRoleIsAnErrorNamingThePath() throws {
    let text = try mutatedFull { $0.replacingOccurrences(of: #""role": "tool""#, with: #""role": "robot""#) }
    #expect(throws: JSONFormatError(path: "/transcript/entries/3/role", message: #"unknown role "robot"; expected one of instructions, user, response, tool, reasoning"#)) {
        try Transcript(json: text)
    }
}

@Test func unknownSegmentTypeIsAnErrorNamingThePath() throws {
    let text = try mutatedFull { $0.replacingOccurrences(of: #""type": "structure""#, with: #""type": "video""#) }
    do {
        _ = try Transcript(json: text)
        Issue.record("decoded an unknown segment type")
    } catch let error as JSONFormatError {
        #expect(error.path == "/transcript/entries/4/contents/0/type")
        #expect(error.message.contains("video"))
    }
}

@Test func missingFieldsAndBadShapesNameThePath() throws {
    let missingName = try mutatedFull { $0.replacingOccurrences(of: #""toolName": "searchBreadDatabaseTool","#, with: "") }
    #expect(throws: JSONFormatError.self) { try Transcript(json: missingName) }
    do { _ = try Transcript(json: missingName) } catch let error as JSONFormatError {
        #expect(error.path == "/transcript/entries/3")
        #expect(error.message.contains("toolName"))
    }
    let badArguments = try mutatedFull { $0.replacingOccurrences(of: #"\"limit\": 1}"#, with: #"\"limit\": }"#) }
    do { _ = try Transcript(json: badArguments); Issue.record("accepted bad arguments") } catch let error as JSONFormatError {
        #expect(error.path == "/transcript/entries/2/toolCalls/0/arguments")
    }
    let badSchema = try mutatedFull { $0.replacingOccurrences(of: #""items": { "type": "string" }"#, with: ##""items": { "$ref": "#/$defs/Step" }"##) }
    do { _ = try Transcript(json: badSchema); Issue.record("accepted an undefined $ref") } catch let error as SchemaError {
        #expect(error.path.hasPrefix("/transcript/entries/1/responseFormat/jsonSchema/schema/properties/"))
        #expect(error.description.contains("'Step'"))
    }
    #expect(throws: JSONFormatError(path: "/version", message: #"unsupported transcript version 2; this reader understands versions 1 (Foundation Models 26) and "1.1" (Foundation Models 27)"#)) {
        try Transcript(json: #"{"version": 2, "type": "FoundationModels.Transcript", "transcript": {"entries": []}}"#)
    }
}

@Test func toolCallArgumentsAreWrittenAsAJSONString() throws {
    let call = ToolCall(id: "1", name: "getCityInfo", arguments: ["city": "Paris"])
    #expect(call.content["arguments"] == GeneratedContent(#"{"city": "Paris"}"#))
    #expect(try ToolCall(content: call.content) == call)
}
