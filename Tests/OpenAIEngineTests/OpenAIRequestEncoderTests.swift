import FMCore
import Foundation
import Testing
@testable import FMEngines

@Suite struct OpenAIRequestEncoderTests {
    @Test func greedyTextRequestIsTemperatureZeroWithMessagesAndMaxTokens() throws {
        var request = EngineRequest(transcript: OpenAIFixtures.transcript(instructions: "Be brief.", prompt: "Hi"))
        request.options.maximumResponseTokens = 32
        let body = try OpenAIRequestEncoder.body(for: request, settings: OpenAIFixtures.settings())
        #expect(body.jsonString == #"{"model":"test-model","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi"}],"temperature":0,"max_tokens":32}"#)
    }

    @Test func seedIsSentWithGreedyAndRandomSamplingUsesItsOwn() throws {
        let request = EngineRequest(transcript: OpenAIFixtures.transcript(prompt: "Hi"))
        let greedy = try OpenAIRequestEncoder.body(for: request, settings: OpenAIFixtures.settings(seed: 7))
        #expect(greedy["temperature"]?.intValue == 0)
        #expect(greedy["seed"]?.intValue == 7)
        var random = request
        random.options = GenerationOptions(sampling: .random(top: 5, seed: 18_446_744_073_709_551_615), temperature: 0.7)
        let body = try OpenAIRequestEncoder.body(for: random, settings: OpenAIFixtures.settings(seed: 7))
        #expect(body.jsonString.contains(#""temperature":0.7,"top_k":5,"seed":18446744073709551615"#))
        random.options = GenerationOptions(sampling: .random(probabilityThreshold: 0.9))
        let nucleus = try OpenAIRequestEncoder.body(for: random, settings: OpenAIFixtures.settings())
        #expect(nucleus["top_p"]?.numberValue == 0.9)
        #expect(nucleus["temperature"]?.numberValue == 1)
        #expect(nucleus["seed"] == nil)
    }

    @Test func toolTranscriptBecomesAssistantToolCallsAndToolMessages() throws {
        let call = ToolCall(id: "call_1", name: "getWeather", arguments: ["city": "Paris"])
        let transcript = Transcript(entries: [
            .instructions(.init(id: "i", segments: [OpenAIFixtures.text("Use tools.")], toolDefinitions: [try OpenAIFixtures.weatherTool()])),
            .prompt(.init(id: "p", segments: [OpenAIFixtures.text("Weather in Paris?")])),
            .toolCalls(.init(id: "c", calls: [call])),
            .toolOutput(.init(id: "o", toolName: "getWeather", toolCallID: "call_1", segments: [OpenAIFixtures.text("Sunny")])),
            .response(.init(id: "r", segments: [OpenAIFixtures.text("It is sunny.")])),
        ])
        let messages = try OpenAIRequestEncoder.messages(for: EngineRequest(transcript: transcript))
        #expect(GeneratedContent(messages).jsonString == """
            [{"role":"system","content":"Use tools."},{"role":"user","content":"Weather in Paris?"},\
            {"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"getWeather","arguments":"{\\"city\\":\\"Paris\\"}"}}]},\
            {"role":"tool","tool_call_id":"call_1","content":"Sunny"},{"role":"assistant","content":"It is sunny."}]
            """)
    }

    @Test func toolOutputWithoutCallIDAnswersTheLastCallOfThatTool() throws {
        let transcript = Transcript(entries: [
            .prompt(.init(id: "p", segments: [OpenAIFixtures.text("Go")])),
            .toolCalls(.init(id: "c", calls: [ToolCall(id: "", name: "getWeather", arguments: ["city": "Oslo"])])),
            .toolOutput(.init(id: "o", toolName: "getWeather", segments: [OpenAIFixtures.text("Snow")])),
        ])
        let messages = try OpenAIRequestEncoder.messages(for: EngineRequest(transcript: transcript))
        let madeUp = messages[1]["tool_calls"]?.arrayValue?.first?["id"]?.stringValue
        #expect(madeUp == "call_1_0")
        #expect(messages[2]["tool_call_id"]?.stringValue == madeUp)
    }

    @Test(arguments: [(GenerationOptions.ToolCallingMode.required, "required"), (.allowed, "auto"), (.disallowed, "none")])
    func toolCallingModeMapsToToolChoice(mode: GenerationOptions.ToolCallingMode, choice: String) throws {
        var request = EngineRequest(transcript: OpenAIFixtures.transcript(prompt: "Hi"), tools: [try OpenAIFixtures.weatherTool()])
        request.options.toolCallingMode = mode
        let body = try OpenAIRequestEncoder.body(for: request, settings: OpenAIFixtures.settings())
        #expect(body["tool_choice"]?.stringValue == choice)
        let function = body["tools"]?.arrayValue?.first?["function"]
        #expect(body["tools"]?.arrayValue?.first?["type"]?.stringValue == "function")
        #expect(function?["name"]?.stringValue == "getWeather")
        #expect(function?["parameters"] == (try OpenAIFixtures.citySchema()).content)
    }

    @Test func noToolsMeansNoToolsOrToolChoice() throws {
        let body = try OpenAIRequestEncoder.body(for: EngineRequest(transcript: OpenAIFixtures.transcript(prompt: "Hi")),
                                                 settings: OpenAIFixtures.settings())
        #expect(body["tools"] == nil)
        #expect(body["tool_choice"] == nil)
    }

    @Test func grammarChannelSendsStrictJSONSchemaResponseFormatAndShowsTheSchema() throws {
        let schema = try OpenAIFixtures.appleSchema("person")
        let request = EngineRequest(transcript: OpenAIFixtures.transcript(prompt: "A person"), schema: schema)
        let body = try OpenAIRequestEncoder.body(for: request, settings: OpenAIFixtures.settings())
        let format = try #require(body["response_format"])
        #expect(format["type"]?.stringValue == "json_schema")
        #expect(format["json_schema"]?["name"]?.stringValue == "Person")
        #expect(format["json_schema"]?["strict"]?.boolValue == true)
        let sent = try #require(format["json_schema"]?["schema"])
        #expect(sent["$ref"]?.stringValue == "#/$defs/Person", "root recursion goes through $defs: \(sent.jsonString)")
        let person = try #require(sent["$defs"]?["Person"])
        #expect(person["properties"]?["children"]?["items"]?["$ref"]?.stringValue == "#/$defs/Person")
        #expect(person["properties"]?["name"] == schema.content["properties"]?["name"])
        #expect(!sent.jsonString.contains(##""$ref":"#""##))
        let system = body["messages"]?.arrayValue?.first
        #expect(system?["role"]?.stringValue == "system")
        #expect(system?["content"]?.stringValue == EmbeddedPromptFormat.responseFormatSection(schema))
    }

    @Test func schemasWithoutRootRecursionAreSentAsTheyAre() throws {
        for name in OpenAIFixtures.appleSchemaNames where name != "person" {
            let schema = try OpenAIFixtures.appleSchema(name)
            let body = try OpenAIRequestEncoder.body(for: EngineRequest(transcript: OpenAIFixtures.transcript(prompt: "x"), schema: schema),
                                                     settings: OpenAIFixtures.settings())
            #expect(body["response_format"]?["json_schema"]?["schema"] == schema.content, "\(name)")
        }
        let nested = try GeneratedContent(json: ##"{"title":"Node","$defs":{"Leaf":{"type":"string"}},"type":"object","properties":{"leaf":{"$ref":"#/$defs/Leaf"},"next":{"$ref":"#"}}}"##)
        let rewritten = OpenAISchemaRewrite.rootRecursionAsDefinition(nested)
        #expect(rewritten.jsonString == ##"{"$ref":"#/$defs/Node","$defs":{"Leaf":{"type":"string"},"Node":{"title":"Node","type":"object","properties":{"leaf":{"$ref":"#/$defs/Leaf"},"next":{"$ref":"#/$defs/Node"}}}}}"##)
    }

    @Test func promptChannelShowsTheSchemaExactlyAsTheEmbeddedEngineAndSendsNoResponseFormat() throws {
        let schema = try OpenAIFixtures.appleSchema("cat")
        let request = EngineRequest(transcript: OpenAIFixtures.transcript(instructions: "You name cats.", prompt: "A cat"),
                                    schema: schema, constrained: false)
        let body = try OpenAIRequestEncoder.body(for: request, settings: OpenAIFixtures.settings())
        #expect(body["response_format"] == nil)
        let embedded = try EmbeddedPromptFormat.messages(for: request, defaultSystemPrompt: nil)
        let ours = try #require(body["messages"]?.arrayValue)
        #expect(ours.count == embedded.count)
        #expect(ours.first?["content"]?.stringValue == EmbeddedPromptFormat.systemText(instructions: "You name cats.", request: request))
        #expect(ours.first?["content"]?.stringValue?.hasSuffix(schema.jsonString) == true)
    }

    @Test func schemaHiddenFromThePromptLeavesOnlyInstructions() throws {
        let request = EngineRequest(transcript: OpenAIFixtures.transcript(prompt: "A cat"), schema: try OpenAIFixtures.appleSchema("cat"),
                                    includeSchemaInPrompt: false)
        let body = try OpenAIRequestEncoder.body(for: request, settings: OpenAIFixtures.settings())
        #expect(body["messages"]?.arrayValue?.count == 1)
        #expect(body["response_format"] != nil)
    }

    @Test func streamAsksForUsageAndExtraBodyIsMergedLast() throws {
        let extra: GeneratedContent = ["temperature": 0.5, "cache_prompt": true]
        let body = try OpenAIRequestEncoder.body(for: EngineRequest(transcript: OpenAIFixtures.transcript(prompt: "Hi")),
                                                 settings: OpenAIFixtures.settings(stream: true, extraBody: extra))
        #expect(body["stream"]?.boolValue == true)
        #expect(body["stream_options"]?["include_usage"]?.boolValue == true)
        #expect(body["temperature"]?.numberValue == 0.5)
        #expect(body["cache_prompt"]?.boolValue == true)
        #expect(body.orderedProperties?.last?.key == "cache_prompt")
    }

    @Test func attachmentsAreUnsupportedTranscriptContent() {
        let transcript = Transcript(entries: [.prompt(.init(id: "p", segments: [.attachment(.init(id: "a", url: "file:///x.png"))]))])
        #expect(throws: LanguageModelError.self) { try OpenAIRequestEncoder.messages(for: EngineRequest(transcript: transcript)) }
    }
}
