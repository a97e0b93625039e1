import FMCore
import FMGrammar
import Testing

/// A response grammar lets the model make 1 to `maximumToolCalls` calls in one turn, one per line.
@Suite struct ParallelToolCallGrammarTests {
    /// Built per use rather than kept in a static: LeakSanitizer reports a static's schema nodes as leaked.
    static var tools: [ToolDefinition] { [
        ToolDefinition(name: "getWeather", description: "", parameters: try! GenerationSchema(json: """
            {"type":"object","properties":{"city":{"type":"string","enum":["Vienna","Berlin","Paris"]}},"required":["city"],"x-order":["city"],"additionalProperties":false}
            """)),
        ToolDefinition(name: "getTime", description: "", parameters: try! GenerationSchema(json: """
            {"type":"object","properties":{"zone":{"type":"string"}},"required":["zone"],"x-order":["zone"],"additionalProperties":false}
            """)),
    ] }

    private func calls(_ bodies: [String]) -> [UInt8] {
        Array(bodies.map { "<tool_call>" + $0 }.joined(separator: "\n").utf8)
    }

    @Test func oneToThreeCallsOfAnyToolAreAccepted() throws {
        let grammar = try Grammar.response(schema: nil, tools: Self.tools, toolCallPrefix: "<tool_call>", maximumToolCalls: 3)
        let vienna = #"{"name":"getWeather","arguments":{"city":"Vienna"}}"#
        let berlin = #"{"name": "getWeather", "arguments": {"city": "Berlin"}}"#
        let time = #"{"name":"getTime","arguments":{"zone":"CET"}}"#
        #expect(grammar.accepts(calls([vienna])))
        #expect(grammar.accepts(calls([vienna, berlin])))
        #expect(grammar.accepts(calls([vienna, time, berlin])))
        #expect(!grammar.accepts(calls([vienna, berlin, time, vienna])), "a fourth call is past the bound")
        #expect(grammar.accepts(calls([vienna]) + Array("\n".utf8)), "a line feed after a call may end the turn")
        #expect(!grammar.accepts(calls([vienna]) + Array("\n\n".utf8)))
        #expect(!grammar.accepts(calls([vienna, berlin, time]) + Array("\n".utf8)), "after the last allowed call only the end")
        #expect(!grammar.accepts(calls([vienna, #"{"name":"getWeather","arguments":{"city":"Rome"}}"#])), "every call's arguments are enforced")
        #expect(grammar.acceptsPrefix(calls([vienna]) + Array("\n<tool_".utf8)))
    }

    @Test func theDefaultIsOneCallPerTurn() throws {
        let grammar = try Grammar.response(schema: nil, tools: Self.tools, toolCallPrefix: "<tool_call>")
        let vienna = #"{"name":"getWeather","arguments":{"city":"Vienna"}}"#
        #expect(grammar.accepts(calls([vienna])))
        #expect(!grammar.accepts(calls([vienna, vienna])))
    }

    @Test func withASchemaTheResponseIsTheDocumentOrTheCalls() throws {
        let label = try GenerationSchema(json: #"{"type":"string","enum":["yes","no"]}"#)
        let grammar = try Grammar.response(schema: label, tools: Self.tools, toolCallPrefix: "<tool_call>", maximumToolCalls: 2)
        let paris = #"{"name":"getWeather","arguments":{"city":"Paris"}}"#
        #expect(grammar.accepts(Array(#""yes""#.utf8)))
        #expect(grammar.accepts(calls([paris, paris])))
        #expect(!grammar.accepts(Array(#""yes""#.utf8) + Array("\n".utf8) + calls([paris])))
    }
}
