import FMCore
import Testing
@testable import FMGrammar

/// Byte-level acceptance of the grammars compiled from the reference schemas.
@Suite struct SchemaGrammarTests {
    @Test(arguments: ReferenceSchemas.names)
    func sampleDocumentsAreAccepted(name: String) throws {
        let schema = try ReferenceSchemas.load(name)
        let grammar = try Grammar.json(schema: schema)
        var samples = ExampleDocuments(schema: schema, seed: 7)
        for _ in 0..<40 {
            let document = samples.next()
            #expect(SchemaValidator.isValid(document, against: schema), "generator made an invalid \(name): \(document.jsonString)")
            #expect(grammar.accepts(Array(document.jsonString.utf8)), "\(name) grammar rejects \(document.jsonString)")
        }
    }

    @Test func oneSpaceAfterSeparatorsIsAllowedButNoMore() throws {
        let grammar = try Grammar.json(schema: ReferenceSchemas.load("age"))
        #expect(grammar.accepts(Array(#"{"years": 3, "months": 4}"#.utf8)))
        #expect(!grammar.accepts(Array(#"{"years":  3,"months":4}"#.utf8)))
        #expect(!grammar.accepts(Array(#"{ "years":3,"months":4}"#.utf8)))
        #expect(!grammar.accepts(Array(#"{"years":3,"months":4} "#.utf8)))
        let compact = try Grammar.json(schema: ReferenceSchemas.load("age"), options: GrammarOptions(allowsSpaceAfterSeparators: false))
        #expect(!compact.accepts(Array(#"{"years": 3,"months":4}"#.utf8)))
        #expect(compact.accepts(Array(#"{"years":3,"months":4}"#.utf8)))
    }

    @Test(arguments: [
        #"{"name":"Hazel","age":{"years":1,"months":2},"favoriteFood":"apple","home":"a hedge","hobbies":["a","b","c"]}"#,
        #"{"name":"Hazel","age":{"years":1,"months":2},"favoriteFood":"leek","home":"a hedge","hobbies":["a","b"]}"#,
        #"{"name":"Hazel","age":{"years":1,"months":2},"favoriteFood":"leek","home":"a hedge","hobbies":["a","b","c","d"]}"#,
        #"{"age":{"years":1,"months":2},"name":"Hazel","favoriteFood":"leek","home":"a hedge","hobbies":["a","b","c"]}"#,
        #"{"name":"Hazel","favoriteFood":"leek","home":"a hedge","hobbies":["a","b","c"]}"#,
        #"{"name":"Hazel","age":{"years":1.5,"months":2},"favoriteFood":"leek","home":"a hedge","hobbies":["a","b","c"]}"#,
        #"{"name":"Ha\zel","age":{"years":1,"months":2},"favoriteFood":"leek","home":"a hedge","hobbies":["a","b","c"]}"#,
        #"{"name":"Hazel","age":{"years":01,"months":2},"favoriteFood":"leek","home":"a hedge","hobbies":["a","b","c"]}"#,
        #"{"name":"Hazel","age":{"years":1,"months":2},"favoriteFood":"leek","home":"a hedge","hobbies":["a","b","c"],"x":1}"#,
    ])
    func invalidHedgehogsAreRejected(document: String) throws {
        let grammar = try Grammar.json(schema: ReferenceSchemas.load("hedgehog"))
        #expect(!grammar.accepts(Array(document.utf8)))
    }

    @Test func optionalPropertiesMayBeSkippedInOrder() throws {
        let grammar = try Grammar.json(schema: ReferenceSchemas.load("person"))
        #expect(grammar.accepts(Array(#"{"children":[],"name":"Ann"}"#.utf8)))
        #expect(grammar.accepts(Array(#"{"age":18,"children":[{"age":100,"children":[],"name":"B"}],"name":"Ann"}"#.utf8)))
        #expect(!grammar.accepts(Array(#"{"age":17,"children":[],"name":"Ann"}"#.utf8)))
        #expect(!grammar.accepts(Array(#"{"age":101,"children":[],"name":"Ann"}"#.utf8)))
        #expect(!grammar.accepts(Array(#"{"name":"Ann","children":[]}"#.utf8)))
        let four = Array(repeating: #"{"children":[],"name":"c"}"#, count: 4).joined(separator: ",")
        #expect(!grammar.accepts(Array(#"{"children":[\#(four)],"name":"Ann"}"#.utf8)))
    }

    @Test func stringsAreWellFormedUTF8WithEscapes() throws {
        let schema = try GenerationSchema(json: #"{"type":"string"}"#)
        let grammar = try Grammar.json(schema: schema)
        #expect(grammar.accepts(Array(#""caf\u00e9 \n \" \\ \/ é ☀️""#.utf8)))
        #expect(!grammar.accepts(Array(#""\x""#.utf8)))
        #expect(!grammar.accepts(Array(#""\u12g4""#.utf8)))
        #expect(!grammar.accepts([0x22, 0x0A, 0x22]))
        #expect(!grammar.accepts([0x22, 0xC3, 0x22]))
        #expect(!grammar.accepts([0x22, 0xC0, 0x80, 0x22]))
        #expect(!grammar.accepts([0x22, 0xED, 0xA0, 0x80, 0x22]))
        #expect(grammar.acceptsPrefix([0x22, 0xE2, 0x98]))
    }

    @Test func anyOfBooleansAndNull() throws {
        let schema = try GenerationSchema(json: """
            {"anyOf":[{"type":"boolean"},{"type":"null"},{"type":"string","enum":["x","y z"]},
             {"type":"object","properties":{"a":{"type":"integer"}},"required":["a"],"x-order":["a"],"additionalProperties":false}]}
            """)
        let grammar = try Grammar.json(schema: schema)
        for text in ["true", "false", "null", #""x""#, #""y z""#, #"{"a":-5}"#] {
            #expect(grammar.accepts(Array(text.utf8)), "\(text)")
        }
        for text in ["True", "nul", #""z""#, #"{"a":"1"}"#, "1"] {
            #expect(!grammar.accepts(Array(text.utf8)), "\(text)")
        }
    }

    @Test func fractionalNumberBoundsAreRejectedAtCompile() throws {
        let fractional = try GenerationSchema(json: #"{"type":"number","minimum":0.5}"#)
        #expect(throws: LanguageModelError.self) { try Grammar.json(schema: fractional) }
    }
}

/// The loop guards narrow the language without admitting invalid documents.
@Suite struct LoopGuardTests {
    @Test func recursionDepthAndUnboundedItemsAreCapped() throws {
        let options = GrammarOptions(maximumUnboundedItems: 2, maximumRecursionDepth: 1)
        let grammar = try Grammar.json(schema: ReferenceSchemas.load("person"), options: options)
        #expect(grammar.accepts(Array(#"{"children":[{"children":[],"name":"b"}],"name":"a"}"#.utf8)))
        #expect(!grammar.accepts(Array(#"{"children":[{"children":[{"children":[],"name":"c"}],"name":"b"}],"name":"a"}"#.utf8)))
        let tags = try Grammar.json(schema: GenerationSchema(json: #"{"type":"array","items":{"type":"integer"},"minItems":1}"#),
                                    options: options)
        #expect(tags.accepts(Array("[1,2]".utf8)))
        #expect(!tags.accepts(Array("[1,2,3]".utf8)))
        #expect(!tags.accepts(Array("[]".utf8)))
    }

    @Test func longStringsAreClosed() throws {
        let options = GrammarOptions(maximumStringBytes: 12)
        let schema = try GenerationSchema(json: """
            {"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"x-order":["name"],"additionalProperties":false}
            """)
        let table = TokenTable(grammar: try Grammar.json(schema: schema, options: options), vocabulary: SyntheticVocabulary.make())
        let matcher = TokenMatcher(table: table)
        let id = { (text: String) in table.vocabulary.tokens.firstIndex(of: Array(text.utf8))! }
        for piece in ["{\"", "name", "\":\"", "Mitt", "ens"] { #expect(matcher.accept(id(piece)), "\(piece)") }
        #expect(matcher.allowedTokens().contains(id("a")))
        #expect(matcher.accept(id("Mitt")))
        let allowed = matcher.allowedTokens()
        #expect(!allowed.isEmpty)
        #expect(allowed.allSatisfy { table.vocabulary.tokens[$0].first == UInt8(ascii: "\"") })
    }
}

/// Tool calls whose arguments are not enforced still name a defined tool and carry a JSON object.
@Suite struct UnenforcedArgumentTests {
    @Test func anyObjectArgumentsButOnlyDefinedNames() throws {
        let city = try GenerationSchema(json: """
            {"type":"object","properties":{"city":{"type":"string","enum":["Paris"]}},"required":["city"],"x-order":["city"],"additionalProperties":false}
            """)
        let grammar = try Grammar.response(schema: nil, tools: [ToolDefinition(name: "getCityInfo", description: "", parameters: city)],
                                           toolCallPrefix: "<tool_call>", enforcesArguments: false)
        #expect(grammar.accepts(Array(#"<tool_call>{"name":"getCityInfo","arguments":{"city":"Beijing"}}"#.utf8)))
        #expect(grammar.accepts(Array(#"<tool_call>{"name":"getCityInfo","arguments":{"a": [1, {"b": null}], "c": -2.5}}"#.utf8)))
        #expect(grammar.accepts(Array(#"<tool_call>{"name":"getCityInfo","arguments":{}}"#.utf8)))
        #expect(!grammar.accepts(Array(#"<tool_call>{"name":"weather","arguments":{}}"#.utf8)))
        #expect(!grammar.accepts(Array(#"<tool_call>{"name":"getCityInfo","arguments":[1]}"#.utf8)))
        #expect(!grammar.accepts(Array(#"<tool_call>{"name":"getCityInfo","arguments":{"a":[[[[[1]]]]]}}"#.utf8)))
    }
}
