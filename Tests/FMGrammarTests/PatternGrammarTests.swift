import FMCore
import Testing
@testable import FMGrammar

/// The `pattern` subset: whole-string matching of the JSON-decoded text, JSON escapes in the bytes.
@Suite struct PatternGrammarTests {
    private func grammar(_ pattern: String) throws -> Grammar {
        try Grammar.json(schema: GenerationSchema(json: #"{"type":"string","pattern":\#(GeneratedContent.quoted(pattern))}"#))
    }

    private func accepts(_ grammar: Grammar, _ text: String) -> Bool {
        grammar.accepts(Array(GeneratedContent.quoted(text).utf8))
    }

    @Test func digitsClassesAndCounts() throws {
        let phone = try grammar(#"^\d{3}-\d{4}$"#)
        #expect(accepts(phone, "555-1234"))
        #expect(!accepts(phone, "555-123"))
        #expect(!accepts(phone, "a555-1234"))
        let code = try grammar("[A-Z]{2,3}_[a-z0-9]+")
        #expect(accepts(code, "AB_x1"))
        #expect(accepts(code, "ABC_007"))
        #expect(!accepts(code, "A_x"))
        #expect(!accepts(code, "ABCD_x"))
        #expect(!accepts(code, "AB_"))
    }

    @Test func alternationGroupsAndOptional() throws {
        let grammar = try grammar(#"(?:Mr|Mrs|Ms)\.? [A-Z]\w*( Jr)?"#)
        for text in ["Mr Smith", "Mrs. Jones", "Ms Lee Jr", "Mr. X_1"] { #expect(accepts(grammar, text), "\(text)") }
        for text in ["Dr Smith", "Mr smith", "Mr  Smith", "Mr Smith Sr"] { #expect(!accepts(grammar, text), "\(text)") }
    }

    @Test func charactersThatJSONEscapesAreWrittenEscaped() throws {
        let grammar = try grammar(#"say "hi"\\[^a-z]\n."#)
        #expect(accepts(grammar, "say \"hi\"\\Z\né"))
        #expect(accepts(grammar, "say \"hi\"\\\"\n☀"))
        #expect(!accepts(grammar, "say \"hi\"\\q\nx"))
        #expect(!grammar.accepts(Array("\"say \"hi\"".utf8)))
    }

    @Test(arguments: [#"(?=a)b"#, #"(a)\1"#, #"\bword"#, #"(?i)abc"#, #"\p{L}+"#, #"a{1,999}"#, #"(?<year>\d+)"#, #"(?!x)y"#, #"a^b"#, #"\Bx"#])
    func unsupportedConstructsAreRefusedWhenTheSchemaIsRead(pattern: String) throws {
        do {
            _ = try grammar(pattern)
            Issue.record("pattern \(pattern) compiled")
        } catch let error as SchemaError {
            #expect(error.description.contains("/pattern") && error.description.contains("pattern character"), "\(error)")
        }
    }

    @Test func theCompilerRefusesUnsupportedPatternsAsGenerationGuides() throws {
        var nfa = ByteNFA()
        do {
            _ = try PatternCompiler(pattern: "(?=a)b", path: "/p/pattern").compile(&nfa, from: nfa.start)
            Issue.record("compiled look-ahead")
        } catch let error as LanguageModelError {
            guard case .unsupportedGenerationGuide(let context) = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(context.debugDescription.contains("/p/pattern: pattern character 2"), "\(context.debugDescription)")
        }
    }

    /// Guided generation and validation run the same automaton: on every short string over a small
    /// alphabet, the grammar accepts exactly the strings the validator passes.
    @Test(arguments: [#"(a|bc)*"#, #"[ab]{1,3}c?"#, #"\d+\.?"#, #"(a+)+b"#, #"[^a]\w?"#, #"x|"#, #"\"."#])
    func grammarAndValidatorAgree(pattern: String) throws {
        let grammar = try grammar(pattern)
        let schema = try GenerationSchema(json: #"{"type":"string","pattern":\#(GeneratedContent.quoted(pattern))}"#)
        let alphabet = ["a", "b", "c", "x", "1", ".", "\"", "\n"]
        var strings = [""]
        for _ in 0..<3 { strings += strings.flatMap { prefix in alphabet.map { prefix + $0 } }.filter { $0.count <= 3 } }
        for text in Set(strings) {
            let valid = SchemaValidator.isValid(GeneratedContent(text), against: schema)
            #expect(accepts(grammar, text) == valid, "\(pattern) on \(GeneratedContent.quoted(text))")
        }
    }
}

/// Example documents for pattern strings come from walks of the pattern's grammar.
@Suite struct PatternExampleTests {
    @Test func examplesOfPatternStringsValidate() throws {
        let schema = try GenerationSchema(json: #"{"type":"string","pattern":"^[A-Z]{3}-\\d{2,4}(x|yz)?$"}"#)
        var examples = ExampleDocuments(schema: schema, seed: 5)
        for _ in 0..<30 {
            let document = examples.next()
            #expect(SchemaValidator.isValid(document, against: schema), "\(document.jsonString)")
        }
    }
}
