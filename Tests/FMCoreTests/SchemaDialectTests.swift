import Testing
@testable import FMCore

/// JSON Schema keywords suites bring from other tool formats: what the dialect carries, what it refuses
/// (located, saying what to write instead), and every problem of a schema reported at once.
@Suite struct SchemaDialectTests {
    private func message(_ json: String) throws -> (path: String, message: String) {
        do {
            _ = try GenerationSchema(json: json)
        } catch let error as JSONFormatError {
            return (error.path, error.message)
        }
        Issue.record("accepted: \(json)")
        return ("", "")
    }

    /// The device generates only the properties `x-order` lists (Foundation Models 27's decoder reads the
    /// order from it), so a property it leaves out, required or not, is refused, never silently appended.
    @Test func anXOrderThatLeavesOutAPropertyIsRefusedNotAppended() throws {
        for required in [#"["name","age"]"#, #"["name"]"#] {
            let problem = try message(#"{"title":"P","type":"object","additionalProperties":false,"required":"#
                + required + #","x-order":["name"],"properties":{"name":{"type":"string"},"age":{"type":"integer"}}}"#)
            #expect(problem.path == "/x-order")
            #expect(problem.message.contains(#"x-order leaves out "age""#))
            #expect(problem.message.contains("add it to x-order"))
        }
        let listed = try GenerationSchema(
            json: #"{"type":"object","x-order":["b","a"],"properties":{"a":{"type":"string"},"b":{"type":"string"}}}"#)
        guard case .object(let object) = listed.root.kind else { Issue.record("\(listed.root.kind)"); return }
        #expect(object.properties.map(\.name) == ["b", "a"])
    }

    /// Apple's string guides have no length (`@Guide` offers `.pattern`, and `.count` on arrays), so a length
    /// keyword is refused with both remedies, not as an unknown key.
    @Test func lengthKeywordsAreRefusedWithThePatternAndCountRemedies() throws {
        for key in ["maxLength", "minLength"] {
            let problem = try message(#"{"type":"string","\#(key)":5}"#)
            #expect(problem.path == "/\(key)")
            #expect(problem.message.contains("no \"\(key)\"") && problem.message.contains("\"pattern\""))
            #expect(problem.message.contains("\"maxItems\"") && problem.message.contains(".count"), "\(problem.message)")
        }
    }

    @Test func integerAndNumberEnumsBecomeSingleValueChoices() throws {
        let schema = try GenerationSchema(json: #"{"type":"integer","description":"Stars.","enum":[1,3,5]}"#)
        guard case .anyOf(let choices) = schema.root.kind else { Issue.record("\(schema.root.kind)"); return }
        #expect(choices.count == 3 && schema.root.description == "Stars.")
        #expect(SchemaValidator.violations(of: GeneratedContent(3), against: schema).isEmpty)
        #expect(!SchemaValidator.violations(of: GeneratedContent(4), against: schema).isEmpty)
        #expect(schema.jsonString.contains(#""anyOf":[{"type":"integer","minimum":1,"maximum":1}"#))
        let number = try GenerationSchema(json: #"{"type":"number","enum":[0.5,2]}"#)
        #expect(SchemaValidator.violations(of: GeneratedContent(0.5), against: number).isEmpty)
        #expect(!SchemaValidator.violations(of: GeneratedContent(1), against: number).isEmpty)
        let fraction = try message(#"{"type":"integer","enum":[1,2.5]}"#)
        #expect(fraction.path == "/enum/1" && fraction.message.contains("whole number"))
        let text = try message(#"{"type":"number","enum":[1,"two"]}"#)
        #expect(text.path == "/enum/1" && text.message.contains("expected a number"))
    }

    @Test func defaultAndFormatAreRefusedWithWhatToWriteInstead() throws {
        let defaulted = try message(#"{"type":"object","properties":{"unit":{"type":"string","default":"C"}},"required":[]}"#)
        #expect(defaulted.path == "/properties/unit/default")
        #expect(defaulted.message.contains("no \"default\"") && defaulted.message.contains("required"))
        let formatted = try message(#"{"type":"string","format":"date"}"#)
        #expect(formatted.path == "/format")
        #expect(formatted.message.contains(#"date "\d{4}-\d{2}-\d{2}""#))
    }

    @Test func freeFormObjectsAreRefusedButAnEmptyObjectIsCarried() throws {
        for json in [#"{"type":"object"}"#, #"{"type":"object","additionalProperties":true,"properties":{}}"#] {
            let refused = try message(json)
            #expect(refused.path == "" && refused.message.contains("free-form object"), "\(json)")
        }
        let nested = try message(#"{"type":"object","properties":{"extra":{"type":"object"}},"required":["extra"]}"#)
        #expect(nested.path == "/properties/extra")
        _ = try GenerationSchema(json: #"{"type":"object","properties":{}}"#)
        _ = try GenerationSchema(json: #"{"type":"object","additionalProperties":false}"#)
        _ = try GenerationSchema(json: #"{"type":"object","additionalProperties":true,"properties":{"a":{"type":"string"}}}"#)
    }

    @Test func everyProblemOfASchemaIsListedAtOnce() throws {
        let content = try GeneratedContent(json: #"""
            {"type":"object","required":["a","b","c","d"],"properties":{
             "a":{"type":"string","default":"x"},
             "b":{"type":"string","format":"email"},
             "c":{"type":"string","pattern":"(?=x)"},
             "d":{"type":"integer","minimum":5,"maximum":1},
             "e":{"type":"array","items":{"$ref":"#/$defs/Missing"}}}}
            """#)
        let problems = GenerationSchema.problems(in: content)
        let paths = problems.map { ($0 as? JSONFormatError)?.path ?? ($0 as? SchemaError)?.path ?? "?" }
        #expect(paths == ["/properties/a/default", "/properties/b/format", "/properties/c/pattern", "/properties/d",
                          "/properties/e/items/$ref"])
        do {
            _ = try GenerationSchema(content: content)
            Issue.record("accepted")
        } catch let error as JSONFormatError {
            #expect(error.path == paths[0])
        }
        #expect(GenerationSchema.problems(in: try GeneratedContent(json: #"{"type":"string"}"#)).isEmpty)
    }
}
