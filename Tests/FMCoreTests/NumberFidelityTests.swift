import Foundation
import Testing
@testable import FMCore

/// A number keeps the form it was written in (integer or decimal) through parse, content, transcript and codecs.

@Test func parsedNumbersWriteBackAsWritten() throws {
    let content = try GeneratedContent(json: #"{"a": 1.0, "b": 1, "c": 2.50, "d": 1e2, "e": -0.0, "f": 1.5}"#)
    #expect(content.jsonString == #"{"a":1.0,"b":1,"c":2.5,"d":100.0,"e":-0.0,"f":1.5}"#)
    #expect(content["a"]?.writtenAsDecimal == true)
    #expect(content["b"]?.writtenAsDecimal == false)
    #expect(content.spacedJSONString == #"{"a": 1.0, "b": 1, "c": 2.5, "d": 100.0, "e": -0.0, "f": 1.5}"#)
    #expect(content.jsonString(indent: 1).contains(#""a": 1.0"#))
    #expect(try GeneratedContent(json: content.jsonString).jsonString == content.jsonString, "writing and reading again is stable")
}

@Test func theWrittenFormIsNotPartOfEquality() throws {
    let decimal = try GeneratedContent(json: "1.0")
    let integer = try GeneratedContent(json: "1")
    #expect(decimal == integer)
    #expect(decimal.hashValue == integer.hashValue)
    #expect(GeneratedContent(decimal: 3) == GeneratedContent(3))
    #expect(GeneratedContent(decimal: 3).jsonString == "3.0")
    #expect(GeneratedContent(3.0).jsonString == "3", "a Double made in code has no written form and prints as before")
}

@Test func anIntegerSchemaDetectsADecimal() throws {
    let schema = try GenerationSchema(json: #"{"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"], "additionalProperties": false}"#)
    let decimal = SchemaValidator.violations(of: try GeneratedContent(json: #"{"n": 5.0}"#), against: schema)
    #expect(decimal.map(\.keyword) == [.type])
    #expect(decimal.first?.path == "/n")
    #expect(decimal.first?.message == "/n is 5.0, written as a decimal where an integer is required")
    #expect(SchemaValidator.violations(of: try GeneratedContent(json: #"{"n": 5}"#), against: schema).isEmpty)
    let number = try GenerationSchema(json: #"{"type": "number"}"#)
    #expect(SchemaValidator.violations(of: try GeneratedContent(json: "5.0"), against: number).isEmpty)
}

@Test func toolCallArgumentsKeepDecimalsThroughTheTranscript() throws {
    let call = ToolCall(id: "1", name: "convert", arguments: try GeneratedContent(json: #"{"amount": 1.0, "count": 2}"#))
    #expect(call.content["arguments"] == GeneratedContent(#"{"amount": 1.0, "count": 2}"#))
    let transcript = Transcript(entries: [.toolCalls(.init(id: "t", calls: [call]))])
    let reloaded = try Transcript(json: transcript.jsonString)
    guard case .toolCalls(let calls)? = reloaded.entries.first else { throw TestFailure("no tool calls entry") }
    #expect(calls.calls.first?.arguments["amount"]?.writtenAsDecimal == true)
    #expect(calls.calls.first?.arguments["count"]?.writtenAsDecimal == false)
    #expect(reloaded.jsonString == transcript.jsonString)
}

@Test func contentEncoderKeepsTheDecimal() throws {
    let content = try GeneratedContent(json: #"{"a": 1.0, "b": 1}"#)
    let text = try ContentEncoder.jsonText(["value": content])
    #expect(text == #"{"value":{"a":1.0,"b":1}}"#)
    #expect(try GeneratedContent(json: text)["value"]?["a"]?.writtenAsDecimal == true)
}
