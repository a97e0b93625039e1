import FMCore
import Testing
@testable import FMGrammar

/// What the `device` profile enforces differently from `strict`, and where loop guards cut a document.
@Suite struct GuideEnforcementGrammarTests {
    static let cityArguments = #"""
        {"type":"object","additionalProperties":false,"required":["city"],"x-order":["city","unit"],"properties":{
         "city":{"anyOf":[{"type":"string","enum":["London"]},{"type":"string","enum":["Paris"]}]},
         "unit":{"type":"string","enum":["C","F"]}}}
        """#

    static func tool(_ schema: String) throws -> [ToolDefinition] {
        [ToolDefinition(name: "getCityInfo", description: "Weather.", parameters: try GenerationSchema(json: schema))]
    }

    @Test func deviceLeavesStringChoicesInToolArgumentsUnenforced() throws {
        let tools = try Self.tool(Self.cityArguments)
        let strict = try Grammar.toolCall(tools: tools, options: GrammarOptions(enforcement: .strict))
        let device = try Grammar.toolCall(tools: tools, options: GrammarOptions(enforcement: .device))
        let outside = #"{"name":"getCityInfo","arguments":{"city":"Beijing","unit":"K"}}"#
        let inside = #"{"name":"getCityInfo","arguments":{"city":"Paris","unit":"C"}}"#
        #expect(!strict.accepts(Array(outside.utf8)))
        #expect(device.accepts(Array(outside.utf8)))
        #expect(strict.accepts(Array(inside.utf8)) && device.accepts(Array(inside.utf8)))
        #expect(!device.accepts(Array(#"{"name":"getCityInfo","arguments":{"town":"Paris"}}"#.utf8)), "structure stays enforced")
    }

    @Test func deviceStillEnforcesChoicesInTheResponseSchema() throws {
        let schema = try GenerationSchema(json: Self.cityArguments)
        let device = try Grammar.json(schema: schema, options: GrammarOptions(enforcement: .device))
        #expect(!device.accepts(Array(#"{"city":"Beijing"}"#.utf8)))
        #expect(device.accepts(Array(#"{"city":"London"}"#.utf8)))
        let both = try Grammar.response(schema: schema, tools: try Self.tool(Self.cityArguments), toolCallPrefix: "<tool_call>",
                                        options: GrammarOptions(enforcement: .device))
        #expect(!both.accepts(Array(#"{"city":"Beijing"}"#.utf8)))
        #expect(both.accepts(Array(#"<tool_call>{"name":"getCityInfo","arguments":{"city":"Beijing"}}"#.utf8)))
    }

    @Test func deviceRefusesPatternsThatAreNotSimple() throws {
        let simple = try GenerationSchema(json: #"{"type":"string","pattern":"[A-Z]{3}-\\d+"}"#)
        let alternation = try GenerationSchema(json: #"{"type":"object","additionalProperties":false,"required":["code"],"x-order":["code"],"properties":{"code":{"type":"string","pattern":"(ab)+|c"}}}"#)
        let device = GrammarOptions(enforcement: .device)
        #expect(try Grammar.json(schema: simple, options: device).accepts(Array(#""ABC-12""#.utf8)))
        #expect(try Grammar.json(schema: alternation).accepts(Array(#"{"code":"abab"}"#.utf8)))
        do {
            _ = try Grammar.json(schema: alternation, options: device)
            Issue.record("a pattern with | compiled under device")
        } catch LanguageModelError.unsupportedGenerationGuide(let context) {
            #expect(context.debugDescription.contains("/properties/code/pattern"))
            #expect(context.debugDescription.contains("guideEnforcement: strict"))
        }
    }

    @Test func cutsAreFoundWhereTheGuardsStoppedTheDocument() throws {
        let options = GrammarOptions(maximumStringBytes: 5, maximumUnboundedItems: 2, maximumRecursionDepth: 1)
        let schema = try GenerationSchema(json: #"""
            {"type":"object","additionalProperties":false,"required":["name","tags","fixed"],"x-order":["name","tags","fixed"],"properties":{
             "name":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}},
             "fixed":{"type":"array","items":{"type":"integer"},"maxItems":2}}}
            """#)
        let grammar = try Grammar.json(schema: schema, options: options)
        let cut = #"{"name":"Mittens","tags":["a","b"],"fixed":[1,2]}"#
        #expect(grammar.accepts(Array(cut.utf8)))
        #expect(!grammar.accepts(Array(#"{"name":"M","tags":["a","b","c"],"fixed":[]}"#.utf8)))
        let cuts = GrammarLimitCuts.find(in: try GeneratedContent(json: cut), schema: schema, options: options)
        #expect(cuts == [GrammarLimitCut(path: "/name", guard: .maximumStringBytes, limit: 5),
                         GrammarLimitCut(path: "/tags", guard: .maximumUnboundedItems, limit: 2)])
        let free = #"{"name":"Mitt","tags":["a"],"fixed":[1,2]}"#
        #expect(GrammarLimitCuts.find(in: try GeneratedContent(json: free), schema: schema, options: options).isEmpty)
        #expect(GrammarLimitCuts.find(in: try GeneratedContent(json: cut), schema: schema, options: GrammarOptions()).isEmpty)
    }

    @Test func recursionCutIsReportedAtTheLevelThatLostItsChoice() throws {
        let schema = try ReferenceSchemas.load("person")
        let options = GrammarOptions(maximumRecursionDepth: 1)
        let text = #"{"children":[{"children":[],"name":"b"}],"name":"a"}"#
        #expect(try Grammar.json(schema: schema, options: options).accepts(Array(text.utf8)))
        let cuts = GrammarLimitCuts.find(in: try GeneratedContent(json: text), schema: schema, options: options)
        #expect(cuts == [GrammarLimitCut(path: "/children/0/children", guard: .maximumRecursionDepth, limit: 1)])
        let shallow = #"{"children":[],"name":"a"}"#
        #expect(GrammarLimitCuts.find(in: try GeneratedContent(json: shallow), schema: schema, options: options).isEmpty)
    }

    @Test func toolArgumentCutsNameTheTool() throws {
        let tools = try Self.tool(Self.cityArguments)
        let options = GrammarOptions(maximumStringBytes: 4, enforcement: .device)
        let arguments = try GeneratedContent(json: #"{"city":"Beijing"}"#)
        let cuts = GrammarLimitCuts.find(in: arguments, schema: tools[0].parameters, options: options, tool: "getCityInfo")
        #expect(cuts == [GrammarLimitCut(path: "/city", guard: .maximumStringBytes, limit: 4, tool: "getCityInfo")])
        let strict = GrammarOptions(maximumStringBytes: 4)
        #expect(GrammarLimitCuts.find(in: arguments, schema: tools[0].parameters, options: strict, tool: "getCityInfo").isEmpty,
                "an enforced choice is not a free string")
    }
}

/// Integer enums (read as single-value choices) are enforced exactly by the grammar.
@Suite struct NumberEnumGrammarTests {
    @Test func onlyTheListedIntegersAreGenerated() throws {
        let grammar = try Grammar.json(schema: GenerationSchema(json: #"{"type":"integer","enum":[1,3,10]}"#))
        for text in ["1", "3", "10"] { #expect(grammar.accepts(Array(text.utf8)), "\(text)") }
        for text in ["2", "0", "100", "-1", "1.0"] { #expect(!grammar.accepts(Array(text.utf8)), "\(text)") }
    }
}
