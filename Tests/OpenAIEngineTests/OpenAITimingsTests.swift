import FMCore
import Foundation
import Testing
@testable import FMEngines

/// llama-server's `timings` object becomes the response's `EngineTimings`, streamed or not.
@Suite struct OpenAITimingsTests {
    let url = "http://127.0.0.1:1/v1/chat/completions"
    let timings = #""timings":{"prompt_n":12,"prompt_ms":30.5,"predicted_n":3,"predicted_ms":9.0,"predicted_per_second":333.3}"#

    @Test func aResponseBodysTimingsAreKept() throws {
        let json = #"{"choices":[{"message":{"content":"Paris."},"finish_reason":"stop"}],"#
            + #""usage":{"prompt_tokens":31,"completion_tokens":3},"# + timings + "}"
        let response = try OpenAIResponseDecoder.completion(json: json, request: EngineRequest(transcript: Transcript()), url: url).response
        #expect(response.timings == EngineTimings(prefillTokens: 12, prefillMs: 30.5, decodeTokens: 3, decodeMs: 9))
        let plain = #"{"choices":[{"message":{"content":"Paris."},"finish_reason":"stop"}]}"#
        #expect(try OpenAIResponseDecoder.completion(json: plain, request: EngineRequest(transcript: Transcript()), url: url).response.timings == nil)
    }

    @Test func theLastStreamedEventsTimingsAreKept() throws {
        var accumulator = OpenAIStreamAccumulator(request: EngineRequest(transcript: Transcript()), url: url)
        let body = "data: " + #"{"choices":[{"delta":{"content":"Hi"}}]}"# + "\n\n"
            + "data: " + #"{"choices":[{"delta":{},"finish_reason":"stop"}],"# + timings + "}\n\n" + "data: [DONE]\n\n"
        try accumulator.consume(Data(body.utf8)) { _ in }
        #expect(try accumulator.finish().response.timings == EngineTimings(prefillTokens: 12, prefillMs: 30.5, decodeTokens: 3, decodeMs: 9))
    }
}
