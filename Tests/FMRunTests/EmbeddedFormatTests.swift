import FMCore
import Testing
@testable import FMEngines

/// The embedded engine's prompt rendering and output parsing (no model needed).
@Suite struct EmbeddedFormatTests {
    static let city = try! GenerationSchema(json: """
        {"type":"object","additionalProperties":false,"x-order":["city"],"required":["city"],
         "properties":{"city":{"type":"string","enum":["London","New York","Paris"]}}}
        """)
    static let tool = ToolDefinition(name: "getCityInfo", description: "Get the weather in a city.", parameters: city)

    private func request(mode: GenerationOptions.ToolCallingMode, schema: GenerationSchema?, shown: Bool = true) -> EngineRequest {
        let transcript = Transcript(entries: [
            .instructions(.init(id: "i", segments: [.text(.init(id: "s0", content: "Be brief."))])),
            .prompt(.init(id: "p", segments: [.text(.init(id: "s1", content: "Weather in Paris?"))])),
            .toolCalls(.init(id: "c", calls: [ToolCall(id: "call_1", name: "getCityInfo", arguments: ["city": "Paris"])])),
            .toolOutput(.init(id: "o", toolName: "getCityInfo", toolCallID: "call_1", segments: [.text(.init(id: "s2", content: "Sunny."))])),
        ])
        return EngineRequest(transcript: transcript, options: GenerationOptions(toolCallingMode: mode), schema: schema,
                             tools: [Self.tool], includeSchemaInPrompt: shown)
    }

    @Test func systemTurnHoldsInstructionsToolsAndSchema() throws {
        let messages = try EmbeddedPromptFormat.messages(for: request(mode: .required, schema: Self.city), defaultSystemPrompt: "Default.")
        #expect(messages.map(\.role) == ["system", "user", "assistant", "user"])
        let system = messages[0].content
        #expect(system.hasPrefix("Be brief.\n\n# Tools\nYou must call one of these tools."))
        #expect(system.contains("## getCityInfo\nGet the weather in a city.\nArguments (JSON schema): {"))
        #expect(system.contains("# Response format\n"))
        #expect(messages[2].content == #"<tool_call>{"name":"getCityInfo","arguments":{"city":"Paris"}}"#)
        #expect(messages[3].content == "<tool_response name=\"getCityInfo\">\nSunny.\n</tool_response>")
    }

    @Test func disallowedModeHidesToolsAndSchemaCanBeHidden() throws {
        let messages = try EmbeddedPromptFormat.messages(for: request(mode: .disallowed, schema: Self.city, shown: false),
                                                         defaultSystemPrompt: "Default.")
        #expect(messages[0].content == "Be brief.")
    }

    @Test func attachmentsAreUnsupportedTranscriptContent() throws {
        var request = request(mode: .allowed, schema: nil)
        request.transcript.entries.append(.prompt(.init(id: "q", segments: [.attachment(.init(id: "a", url: "file:///cat.png"))])))
        #expect(throws: LanguageModelError.self) {
            try EmbeddedPromptFormat.messages(for: request, defaultSystemPrompt: nil)
        }
    }

    @Test func toolCallsAreParsedWithPrefixOrLeniently() throws {
        let empty = Transcript()
        let calls = EmbeddedOutputParser.toolCalls(in: #"<tool_call>{"name":"getCityInfo","arguments":{"city":"Paris"}}"#,
                                                   lenient: false, transcript: empty)
        #expect(calls == [ToolCall(id: "call_1", name: "getCityInfo", arguments: ["city": "Paris"])])
        let bare = #"{"name": "getCityInfo", "arguments": {"city": "Rome"}}"#
        #expect(EmbeddedOutputParser.toolCalls(in: bare, lenient: true, transcript: empty)?.first?.arguments == ["city": "Rome"])
        #expect(EmbeddedOutputParser.toolCalls(in: bare, lenient: false, transcript: empty) == nil)
        #expect(EmbeddedOutputParser.toolCalls(in: "It is sunny.", lenient: true, transcript: empty) == nil)
        let cut = #"<tool_call>{"name":"getCityInfo","argu"#
        #expect(EmbeddedOutputParser.toolCalls(in: cut, lenient: false, transcript: empty) == nil, "a cut call is text, not a call of no tool")
        #expect(EmbeddedOutputParser.toolCalls(in: cut, lenient: true, transcript: empty) == nil)
    }

    @Test func parallelCallsAreParsedInOrderWithIDsAfterEarlierCalls() throws {
        let earlier = Transcript(entries: [.toolCalls(.init(id: "c", calls: [ToolCall(id: "call_1", name: "getCityInfo", arguments: ["city": "Rome"])]))])
        let text = #"<tool_call>{"name":"getCityInfo","arguments":{"city":"Vienna"}}"# + "\n"
            + #"<tool_call>{"name": "getCityInfo", "arguments": {"city": "Berlin"}}"#
        let calls = EmbeddedOutputParser.toolCalls(in: text, lenient: false, transcript: earlier)
        #expect(calls == [ToolCall(id: "call_2", name: "getCityInfo", arguments: ["city": "Vienna"]),
                          ToolCall(id: "call_3", name: "getCityInfo", arguments: ["city": "Berlin"])])
        let secondCut = #"<tool_call>{"name":"getCityInfo","arguments":{"city":"Vienna"}}"# + "\n" + #"<tool_call>{"name":"get"#
        #expect(EmbeddedOutputParser.toolCalls(in: secondCut, lenient: false, transcript: earlier) == nil)
    }

    @Test func aGrammarTurnLeavesOutRepeatsOfAnEarlierCallOfTheTurn() throws {
        let vienna = #"<tool_call>{"name":"getCityInfo","arguments":{"city":"Vienna","days":2}}"#
        let text = [vienna, #"<tool_call>{"name": "getCityInfo", "arguments": {"days": 2, "city": "Vienna"}}"#,
                    #"<tool_call>{"name":"getCityInfo","arguments":{"city":"Berlin","days":2}}"#].joined(separator: "\n")
        let calls = EmbeddedOutputParser.toolCalls(in: text, lenient: false, dropsRepeats: true, transcript: Transcript())
        #expect(calls == [ToolCall(id: "call_1", name: "getCityInfo", arguments: ["city": "Vienna", "days": 2]),
                          ToolCall(id: "call_2", name: "getCityInfo", arguments: ["city": "Berlin", "days": 2])],
                "the repeat (same arguments in another key order) is left out and the ids stay consecutive")
        #expect(EmbeddedOutputParser.toolCalls(in: text, lenient: false, transcript: Transcript())?.count == 3,
                "without the grammar the model's calls are kept as written")
    }

    @Test func structuresAreTakenWholeOrFoundInProseOnThePromptChannel() throws {
        let object = try GenerationSchema(json: #"{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}"#)
        #expect(EmbeddedOutputParser.structure(in: #"{"a":1}"#, exact: true, schema: object) == ["a": 1])
        #expect(EmbeddedOutputParser.structure(in: #"{"a":1"#, exact: true, schema: object) == nil)
        let prose = "Sure! ```json\n{\"a\": \"x}\", \"b\": [1]}\n``` Done."
        #expect(EmbeddedOutputParser.structure(in: prose, exact: false, schema: object) == ["a": "x}", "b": [1]])
        #expect(EmbeddedOutputParser.structure(in: prose, exact: true, schema: object) == nil)
        let label = try GenerationSchema(json: #"{"anyOf":[{"type":"string","enum":["low"]},{"type":"string","enum":["high"]}]}"#)
        #expect(EmbeddedOutputParser.structure(in: " urgent\n", exact: false, schema: label) == "urgent")
        #expect(EmbeddedOutputParser.structure(in: "urgent", exact: true, schema: label) == nil)
        #expect(EmbeddedOutputParser.structure(in: "no json here", exact: false, schema: object) == nil)
    }
}
