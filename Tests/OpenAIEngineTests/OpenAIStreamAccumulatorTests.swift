import FMCore
import Foundation
import Testing
@testable import FMEngines

@Suite struct OpenAIStreamAccumulatorTests {
    let url = "http://127.0.0.1:1/v1/chat/completions"

    static func event(_ json: String) -> String { "data: \(json)\n\n" }

    @Test func textDeltasAccumulateAcrossArbitraryChunkBoundaries() throws {
        let body = Self.event(#"{"model":"m","choices":[{"delta":{"role":"assistant","content":""}}]}"#)
            + Self.event(#"{"choices":[{"delta":{"content":"Hel"}}]}"#)
            + Self.event(#"{"choices":[{"delta":{"content":"lo"},"finish_reason":null}]}"#)
            + Self.event(#"{"choices":[{"delta":{},"finish_reason":"stop"}]}"#)
            + Self.event(#"{"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":2,"prompt_tokens_details":{"cached_tokens":4}}}"#)
            + "data: [DONE]\r\n\r\n"
        let bytes = Array(body.utf8)
        for size in [1, 7, bytes.count] {
            var accumulator = OpenAIStreamAccumulator(request: EngineRequest(transcript: Transcript()), url: url)
            var events: [EngineEvent] = []
            for start in stride(from: 0, to: bytes.count, by: size) {
                try accumulator.consume(Data(bytes[start..<min(bytes.count, start + size)])) { events.append($0) }
            }
            let completion = try accumulator.finish()
            #expect(events == [.textDelta("Hel"), .textDelta("lo")])
            #expect(completion.response == EngineResponse(text: "Hello", usage: Usage(inputTokens: 5, cachedInputTokens: 4, outputTokens: 2)))
            #expect(completion.serverModel == "m")
            #expect(accumulator.timeToFirstTokenMs != nil)
        }
    }

    @Test func structuredDeltasBecomeSnapshots() throws {
        let request = EngineRequest(transcript: Transcript(), schema: try OpenAIFixtures.citySchema())
        var accumulator = OpenAIStreamAccumulator(request: request, url: url)
        var snapshots: [GeneratedContent] = []
        for piece in [#"{\"city\""#, #":\"Os"#, #"lo\"}"#] {
            try accumulator.consume(Data(Self.event(#"{"choices":[{"delta":{"content":"\#(piece)"}}]}"#).utf8)) {
                if case .partialStructure(let content) = $0 { snapshots.append(content) }
            }
        }
        try accumulator.consume(Data(Self.event(#"{"choices":[{"delta":{},"finish_reason":"stop"}]}"#).utf8)) { _ in }
        #expect(snapshots.last == ["city": "Oslo"])
        #expect(snapshots.first?.isComplete == false)
        #expect(try accumulator.finish().response.content == ["city": "Oslo"])
    }

    @Test func toolCallDeltasAreJoinedByIndex() throws {
        var accumulator = OpenAIStreamAccumulator(request: EngineRequest(transcript: Transcript()), url: url)
        let chunks = [
            #"{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"a","type":"function","function":{"name":"getWeather","arguments":""}}]}}]}"#,
            #"{"choices":[{"delta":{"tool_calls":[{"index":1,"id":"b","function":{"name":"getWeather","arguments":"{\"city\":"}}]}}]}"#,
            #"{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\":\"Oslo\"}"}}]}}]}"#,
            #"{"choices":[{"delta":{"tool_calls":[{"index":1,"function":{"arguments":"\"Rome\"}"}}]}}]}"#,
            #"{"choices":[{"delta":{},"finish_reason":"tool_calls"}]}"#,
        ]
        for chunk in chunks { try accumulator.consume(Data(Self.event(chunk).utf8)) { _ in } }
        let response = try accumulator.finish().response
        #expect(response.finishReason == .toolCalls)
        #expect(response.toolCalls == [ToolCall(id: "a", name: "getWeather", arguments: ["city": "Oslo"]),
                                       ToolCall(id: "b", name: "getWeather", arguments: ["city": "Rome"])])
    }

    @Test func aStreamWithoutFinishOrDoneIsCut() throws {
        var accumulator = OpenAIStreamAccumulator(request: EngineRequest(transcript: Transcript()), url: url)
        try accumulator.consume(Data(Self.event(#"{"choices":[{"delta":{"content":"Hal"}}]}"#).utf8)) { _ in }
        #expect { try accumulator.finish() } throws: { ($0 as? OpenAIError)?.kind == .streamCut }
    }

    @Test func aNumberDeltaOrImpossibleUsageIsMalformed() throws {
        for event in [#"{"choices":[{"delta":{"content":5}}]}"#, #"{"choices":[],"usage":{"completion_tokens":-1}}"#] {
            var accumulator = OpenAIStreamAccumulator(request: EngineRequest(transcript: Transcript()), url: url)
            #expect { try accumulator.consume(Data(Self.event(event).utf8)) { _ in } } throws: {
                ($0 as? OpenAIError)?.kind == .malformedResponse
            }
        }
    }

    @Test func garbageEventIsMalformedAndErrorEventIsTyped() throws {
        var accumulator = OpenAIStreamAccumulator(request: EngineRequest(transcript: Transcript()), url: url)
        #expect { try accumulator.consume(Data("data: {nope\n".utf8)) { _ in } } throws: { ($0 as? OpenAIError)?.kind == .malformedResponse }
        var other = OpenAIStreamAccumulator(request: EngineRequest(transcript: Transcript()), url: url)
        let overflow = #"{"error":{"code":400,"type":"exceed_context_size_error","message":"too long","n_prompt_tokens":9,"n_ctx":4}}"#
        #expect(throws: LanguageModelError.self) { try other.consume(Data(Self.event(overflow).utf8)) { _ in } }
        var third = OpenAIStreamAccumulator(request: EngineRequest(transcript: Transcript()), url: url)
        #expect { try third.consume(Data(Self.event(#"{"error":{"code":503,"message":"busy"}}"#).utf8)) { _ in } } throws: {
            ($0 as? OpenAIError)?.kind == .httpStatus(503)
        }
    }
}
