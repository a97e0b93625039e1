import FMCore
import Foundation
import Testing
@testable import FMEngines

@Suite struct OpenAIResponseDecoderTests {
    let url = "http://127.0.0.1:1/v1/chat/completions"

    @Test func textResponseWithUsageModelAndFingerprint() throws {
        let json = """
            {"id":"x","model":"smollm2","system_fingerprint":"b1-abc","choices":[{"index":0,"message":{"role":"assistant","content":"Paris."},"finish_reason":"stop"}],
             "usage":{"prompt_tokens":31,"completion_tokens":3,"total_tokens":34,"prompt_tokens_details":{"cached_tokens":30}}}
            """
        let request = EngineRequest(transcript: OpenAIFixtures.transcript(prompt: "Capital?"))
        let completion = try OpenAIResponseDecoder.completion(json: json, request: request, url: url)
        #expect(completion.response == EngineResponse(text: "Paris.", finishReason: .stop,
                                                      usage: Usage(inputTokens: 31, cachedInputTokens: 30, outputTokens: 3)))
        #expect(completion.serverModel == "smollm2")
        #expect(completion.systemFingerprint == "b1-abc")
    }

    @Test func lengthFinishIsTheTruncationFlag() throws {
        let json = #"{"choices":[{"message":{"content":"abc"},"finish_reason":"length"}]}"#
        let completion = try OpenAIResponseDecoder.completion(json: json, request: EngineRequest(transcript: Transcript()), url: url)
        #expect(completion.response.finishReason == .length)
    }

    @Test func structuredContentIsParsedAndAParseFailureLeavesNoContent() throws {
        let request = EngineRequest(transcript: Transcript(), schema: try OpenAIFixtures.citySchema())
        let good = #"{"choices":[{"message":{"content":"{\"city\":\"Oslo\"}"},"finish_reason":"stop"}]}"#
        #expect(try OpenAIResponseDecoder.completion(json: good, request: request, url: url).response.content == ["city": "Oslo"])
        let cut = #"{"choices":[{"message":{"content":"{\"city\":\"Os"},"finish_reason":"length"}]}"#
        let response = try OpenAIResponseDecoder.completion(json: cut, request: request, url: url).response
        #expect(response.content == nil)
        #expect(response.text == #"{"city":"Os"#)
    }

    @Test func toolCallsHaveParsedArguments() throws {
        let json = """
            {"choices":[{"message":{"content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"getWeather","arguments":"{\\"city\\":\\"Rome\\"}"}},
            {"type":"function","function":{"name":"getWeather","arguments":"not json"}}]},"finish_reason":"tool_calls"}]}
            """
        let response = try OpenAIResponseDecoder.completion(json: json, request: EngineRequest(transcript: Transcript()), url: url).response
        #expect(response.finishReason == .toolCalls)
        #expect(response.toolCalls == [ToolCall(id: "c1", name: "getWeather", arguments: ["city": "Rome"]),
                                       ToolCall(id: "call_1", name: "getWeather", arguments: "not json")])
    }

    @Test func contentArrayPartsAreJoined() throws {
        let json = #"{"choices":[{"message":{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]},"finish_reason":"stop"}]}"#
        #expect(try OpenAIResponseDecoder.completion(json: json, request: EngineRequest(transcript: Transcript()), url: url).response.text == "ab")
    }

    /// A content that is not text, or a usage count no server can mean, is the server's malformed response
    /// (infrastructure, exit 3), not an empty answer the model is blamed for or a figure stored as fact.
    @Test(arguments: [
        (#"{"choices":[{"message":{"content":42},"finish_reason":"stop"}]}"#, "message.content is a JSON number"),
        (#"{"choices":[{"message":{"content":{"text":"a"}},"finish_reason":"stop"}]}"#, "message.content is a JSON object"),
        (#"{"choices":[{"message":{"content":[{"type":"text","text":7}]},"finish_reason":"stop"}]}"#, "content[0].text is a JSON number"),
        (#"{"choices":[{"message":{"content":"a"}}],"usage":{"prompt_tokens":1,"completion_tokens":-3}}"#, "usage.completion_tokens is -3"),
        (#"{"choices":[{"message":{"content":"a"}}],"usage":{"prompt_tokens":1e300}}"#, "usage.prompt_tokens is 1e"),
        (#"{"choices":[{"message":{"content":"a"}}],"usage":{"prompt_tokens":2.5}}"#, "usage.prompt_tokens is 2.5"),
        (#"{"choices":[{"message":{"content":"a"}}],"usage":{"prompt_tokens":"9"}}"#, "usage.prompt_tokens is \"9\""),
    ])
    func impossibleContentAndUsageAreMalformedResponses(json: String, detail: String) {
        let request = EngineRequest(transcript: Transcript())
        #expect { try OpenAIResponseDecoder.completion(json: json, request: request, url: url) } throws: { error in
            guard let error = error as? OpenAIError, error.kind == .malformedResponse else { return false }
            return "\(error)".contains(detail) && error.failureClass == .infrastructure
        }
    }

    @Test func nullContentAndNullUsageFieldsAreEmptyNotMalformed() throws {
        let json = #"{"choices":[{"message":{"content":null}}],"usage":{"prompt_tokens":null,"completion_tokens":0}}"#
        let response = try OpenAIResponseDecoder.completion(json: json, request: EngineRequest(transcript: Transcript()), url: url).response
        #expect(response.text == "" && response.usage == Usage())
    }

    @Test(arguments: ["garbage{", #"{"object":"list"}"#, #"{"choices":[{"message":{"tool_calls":{"a":1}}}]}"#])
    func malformedBodiesAreMalformedResponse(json: String) {
        #expect { try OpenAIResponseDecoder.completion(json: json, request: EngineRequest(transcript: Transcript()), url: url) } throws: {
            ($0 as? OpenAIError)?.kind == .malformedResponse
        }
    }

    @Test func llamaServerContextOverflowIsContextSizeExceeded() throws {
        let body = #"{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":612,"n_ctx":256}}"#
        let error = try #require(OpenAIResponseDecoder.languageModelError(status: 400, body: body))
        #expect(error.caseName == "contextSizeExceeded")
        #expect(error.context.debugDescription.contains("holds 256 tokens but the prompt needs 612"))
    }

    @Test func vllmAndOpenAIContextOverflowsAreContextSizeExceeded() throws {
        let vllm = #"{"object":"error","message":"This model's maximum context length is 2048 tokens. However, you requested 4000 tokens.","type":"BadRequestError","param":null,"code":400}"#
        #expect(OpenAIResponseDecoder.languageModelError(status: 400, body: vllm)?.caseName == "contextSizeExceeded")
        let openai = #"{"error":{"message":"too long","type":"invalid_request_error","code":"context_length_exceeded"}}"#
        #expect(OpenAIResponseDecoder.languageModelError(status: 400, body: openai)?.caseName == "contextSizeExceeded")
        #expect(OpenAIResponseDecoder.languageModelError(status: 400, body: #"{"error":{"message":"bad tool"}}"#) == nil)
        #expect(OpenAIResponseDecoder.languageModelError(status: 500, body: vllm) == nil)
    }
}
