import FMCore
import Testing
@testable import FMGrammar

/// Token masks over a synthetic vocabulary: exactly the tokens that keep a valid prefix are allowed,
/// and valid documents are reachable token by token under any tokenization.
@Suite struct TokenMatcherTests {
    /// The allowed set the grammar implies, by brute force over every token.
    private func bruteForceAllowed(_ matcher: TokenMatcher, grammar: Grammar) -> [Int] {
        let vocabulary = matcher.table.vocabulary
        var allowed: [Int] = []
        for id in 0..<vocabulary.count {
            if id == SyntheticVocabulary.control { continue }
            if id == SyntheticVocabulary.end {
                if grammar.accepts(matcher.acceptedBytes) { allowed.append(id) }
                continue
            }
            if grammar.acceptsPrefix(matcher.acceptedBytes + vocabulary.tokens[id]) { allowed.append(id) }
        }
        return allowed
    }

    @Test(arguments: ReferenceSchemas.names)
    func masksEqualBruteForceOnRandomWalks(name: String) throws {
        let schema = try ReferenceSchemas.load(name)
        let grammar = try Grammar.json(schema: schema)
        let table = TokenTable(grammar: grammar, vocabulary: SyntheticVocabulary.make())
        var random = SplitMix64(seed: 42)
        var finished = 0
        for walk in 0..<6 {
            let matcher = TokenMatcher(table: table)
            for step in 0..<160 {
                let allowed = matcher.allowedTokens()
                if walk < 2 && step % 4 == 0 { #expect(allowed == bruteForceAllowed(matcher, grammar: grammar), "\(name) step \(step)") }
                #expect(!allowed.isEmpty, "\(name): dead end after \(String(decoding: matcher.acceptedBytes, as: UTF8.self))")
                guard !allowed.isEmpty else { break }
                let structural = allowed.filter { id in
                    id == SyntheticVocabulary.end || !(table.vocabulary.tokens[id].first.map { $0 >= 0x30 } ?? false)
                }
                let pool = !structural.isEmpty && Bool.random(using: &random) ? structural : allowed
                let choice = pool.contains(SyntheticVocabulary.end) && step > 60 ? SyntheticVocabulary.end : pool.randomElement(using: &random)!
                #expect(matcher.accept(choice))
                if matcher.isTerminated { break }
            }
            if matcher.isTerminated {
                finished += 1
                let document = try GeneratedContent(json: String(decoding: matcher.acceptedBytes, as: UTF8.self))
                #expect(SchemaValidator.violations(of: document, against: schema).isEmpty, "\(document.jsonString)")
            } else {
                #expect(grammar.acceptsPrefix(matcher.acceptedBytes))
            }
        }
        #expect(finished > 0 || name == "newsletter" || name == "petClub")
    }

    @Test(arguments: ReferenceSchemas.names)
    func sampleDocumentsAreReachableUnderRandomTokenizations(name: String) throws {
        let schema = try ReferenceSchemas.load(name)
        let table = TokenTable(grammar: try Grammar.json(schema: schema), vocabulary: SyntheticVocabulary.make())
        var samples = ExampleDocuments(schema: schema, seed: 3)
        var random = SplitMix64(seed: 99)
        let matcher = TokenMatcher(table: table)
        for _ in 0..<20 {
            matcher.reset()
            let document = samples.next()
            for id in randomTokenization(Array(document.jsonString.utf8), vocabulary: table.vocabulary, using: &random) {
                #expect(matcher.allowedTokens().contains(id), "\(name): token \(id) refused in \(document.jsonString)")
                guard matcher.accept(id) else { break }
            }
            #expect(matcher.isComplete)
            #expect(matcher.allowedTokens().contains(SyntheticVocabulary.end))
        }
    }

    @Test(arguments: ReferenceSchemas.names)
    func aCopyAllowsWhatTheOriginalWouldAndLeavesItWhereItWas(name: String) throws {
        let schema = try ReferenceSchemas.load(name)
        let table = TokenTable(grammar: try Grammar.json(schema: schema), vocabulary: SyntheticVocabulary.make())
        var samples = ExampleDocuments(schema: schema, seed: 5)
        var random = SplitMix64(seed: 17)
        let document = Array(samples.next().jsonString.utf8)
        let tokens = randomTokenization(document, vocabulary: table.vocabulary, using: &random)
        let original = TokenMatcher(table: table)
        for (index, id) in tokens.enumerated() {
            let before = original.allowedTokens(), copy = original.copy()
            // The copy walks the rest of the document; the original must not move.
            for ahead in tokens[index...] where !copy.isTerminated { #expect(copy.accept(ahead)) }
            #expect(original.allowedTokens() == before && copy.isComplete, "\(name) at token \(index)")
            #expect(original.accept(id))
            if index % 5 == 0 {
                let fresh = original.copy()
                #expect(fresh.allowedTokens() == original.allowedTokens())
                #expect(fresh.acceptedBytes == original.acceptedBytes)
            }
        }
    }

    @Test func endTokenOnlyWhenCompleteAndControlTokensNever() throws {
        let table = TokenTable(grammar: try Grammar.json(schema: ReferenceSchemas.load("age")), vocabulary: SyntheticVocabulary.make())
        let matcher = TokenMatcher(table: table)
        for piece in ["{\"", "years", "\":", "42", ",\"", "months", "\":", "3"] {
            let id = table.vocabulary.tokens.firstIndex(of: Array(piece.utf8))!
            #expect(!matcher.allowedTokens().contains(SyntheticVocabulary.end))
            #expect(!matcher.allowedTokens().contains(SyntheticVocabulary.control))
            #expect(matcher.accept(id), "\(piece)")
        }
        #expect(!matcher.accept(SyntheticVocabulary.end))
        #expect(matcher.accept(table.vocabulary.tokens.firstIndex(of: Array("}".utf8))!))
        #expect(matcher.mustEnd)
        #expect(matcher.allowedTokens() == [SyntheticVocabulary.end])
        #expect(matcher.accept(SyntheticVocabulary.end))
        #expect(matcher.isTerminated)
        #expect(matcher.allowedTokens().isEmpty)
    }

    @Test func toolCallGrammarIsTheUnionOverTools() throws {
        let city = try GenerationSchema(json: """
            {"type":"object","properties":{"city":{"type":"string","enum":["London","New York","Paris"]}},
             "required":["city"],"x-order":["city"],"additionalProperties":false}
            """)
        let count = try GenerationSchema(json: """
            {"type":"object","properties":{"n":{"type":"integer","minimum":1,"maximum":3}},
             "required":["n"],"x-order":["n"],"additionalProperties":false}
            """)
        let grammar = try Grammar.toolCall(tools: [
            ToolDefinition(name: "getCityInfo", description: "City facts.", parameters: city),
            ToolDefinition(name: "count", description: "Counts.", parameters: count),
        ])
        #expect(grammar.accepts(Array(#"{"name":"getCityInfo","arguments":{"city":"Paris"}}"#.utf8)))
        #expect(grammar.accepts(Array(#"{"name": "count", "arguments": {"n": 2}}"#.utf8)))
        #expect(!grammar.accepts(Array(#"{"name":"getCityInfo","arguments":{"city":"Beijing"}}"#.utf8)))
        #expect(!grammar.accepts(Array(#"{"name":"getCityInfo","arguments":{"n":2}}"#.utf8)))
        #expect(!grammar.accepts(Array(#"{"name":"weather","arguments":{}}"#.utf8)))
        #expect(throws: LanguageModelError.self) { try Grammar.toolCall(tools: []) }
    }
}
