import Testing
@testable import FMCore

/// The violations of instance JSON `json` against reference schema `name`.
private func violations(_ json: String, against name: String) throws -> [Violation] {
    SchemaValidator.violations(of: try GeneratedContent(json: json), against: try GenerationSchema(json: try referenceText(name)))
}

/// The (path, keyword) pairs of `violations`, for compact expectations.
private func summary(_ violations: [Violation]) -> [String] {
    violations.map { "\($0.path) \($0.keyword.rawValue)" }
}

@Test func validInstancesHaveNoViolations() throws {
    #expect(try violations(#"{"years": 3, "months": 2}"#, against: "age").isEmpty)
    #expect(try violations(#"{"name": "Ann", "children": []}"#, against: "person").isEmpty, "optional age absent")
    #expect(try violations(#"{"title": "T", "topic": "cats"}"#, against: "newsletter").isEmpty, "all optionals absent")
    let hedgehog = #"{"name": "Spike", "age": {"years": 2, "months": 1}, "favoriteFood": "leek", "home": "a hedge", "hobbies": ["a", "b", "c"]}"#
    #expect(try violations(hedgehog, against: "hedgehog").isEmpty)
}

@Test func typeViolationsIncludingIntegersWithFractions() throws {
    let found = try violations(#"{"years": "three", "months": 2.5}"#, against: "age")
    #expect(summary(found) == ["/years type", "/months type"])
    #expect(found[0].expected == "integer" && found[0].actual == "string")
    #expect(found[1].actual == "number")
    #expect(found[1].message.contains("not an integer"))
    #expect(summary(try violations("[]", against: "age")) == [" type"])
}

@Test func requiredAndAdditionalPropertiesReportEveryOffender() throws {
    let found = try violations(#"{"color": "grey", "weight": 3}"#, against: "age")
    #expect(summary(found) == ["/years required", "/months required", "/color additionalProperties", "/weight additionalProperties"])
    #expect(found[0].expected == "years" && found[0].actual == .null)
    #expect(found[2].expected == ["years", "months"] && found[2].actual == "color")
}

@Test func enumMinItemsMaxItemsAndNestedReferences() throws {
    let hedgehog = #"{"name": "Spike", "age": {"years": "old"}, "favoriteFood": "cake", "home": "a hedge", "hobbies": ["a"]}"#
    let found = try violations(hedgehog, against: "hedgehog")
    #expect(summary(found) == ["/age/years type", "/age/months required", "/favoriteFood enum", "/hobbies minItems"])
    #expect(found[2].expected == ["carrot", "turnip", "leek"] && found[2].actual == "cake")
    #expect(found[3].expected == 3 && found[3].actual == 1)
    let tooMany = try violations(#"{"name": "S", "age": {"years": 1, "months": 1}, "favoriteFood": "leek", "home": "a hedge", "hobbies": ["a", "b", "c", "d"]}"#, against: "hedgehog")
    #expect(summary(tooMany) == ["/hobbies maxItems"])
}

@Test func minimumMaximumAndRootRecursionInArraysOfObjects() throws {
    let person = #"{"name": "A", "age": 101, "children": [{"name": "B", "age": 17, "children": []}, {"children": [{"name": "D", "children": [], "pet": "cat"}]}, {"name": "E", "children": []}, {"name": "F", "children": []}]}"#
    let found = try violations(person, against: "person")
    #expect(summary(found) == ["/age maximum", "/children maxItems", "/children/0/age minimum", "/children/1/children/0/pet additionalProperties", "/children/1/name required"])
    #expect(found[0].expected == 100 && found[0].actual == 101)
    #expect(found[2].expected == 18 && found[2].actual == 17)
}

@Test func arraysOfReferencedObjectsInDefinitions() throws {
    let club = #"{"members": [{"name": "A", "children": [{"name": 5, "children": []}]}], "cats": [{"name": "Tom", "age": {"years": 1, "months": 13.5}, "profile": "x"}, {"name": "Kit"}], "hedgehogs": [], "otherPets": [1], "presidentName": "A"}"#
    let found = try violations(club, against: "petClub")
    #expect(summary(found) == [
        "/members/0/children/0/name type", "/cats/0/age/months type", "/cats/1/age required", "/cats/1/profile required", "/otherPets/0 type",
    ])
}

@Test func patternMatchesTheWholeString() throws {
    let schema = try GenerationSchema(json: #"{"type": "object", "properties": {"code": {"type": "string", "pattern": "[A-Z]{3}"}}, "required": ["code"], "additionalProperties": false}"#)
    #expect(SchemaValidator.isValid(["code": "ABC"], against: schema))
    let found = SchemaValidator.violations(of: ["code": "ABCD"], against: schema)
    #expect(summary(found) == ["/code pattern"])
    #expect(found[0].expected == "[A-Z]{3}" && found[0].actual == "ABCD")
    #expect(!SchemaValidator.isValid(["code": "abc"], against: schema))
}

@Test func anyOfPassesWhenOneChoiceMatches() throws {
    let schema = try GenerationSchema(json: ##"{"$defs": {"Cat": {"title": "Cat", "type": "object", "properties": {"meow": {"type": "boolean"}}, "required": ["meow"], "additionalProperties": false}}, "anyOf": [{"$ref": "#/$defs/Cat"}, {"type": "string", "enum": ["none"]}, {"type": "null"}]}"##)
    #expect(SchemaValidator.isValid(["meow": true], against: schema))
    #expect(SchemaValidator.isValid("none", against: schema))
    #expect(SchemaValidator.isValid(nil, against: schema))
    let found = SchemaValidator.violations(of: ["meow": 1], against: schema)
    #expect(summary(found) == [" anyOf"])
    #expect(found[0].expected == ["Cat", "string", "null"])
    #expect(found[0].message.contains("closest, Cat"))
}

@Test func everyKeywordIsCovered() throws {
    let schema = try GenerationSchema(json: #"{"type": "object", "properties": {"n": {"type": "number", "minimum": 0, "maximum": 1}, "b": {"type": "boolean"}, "z": {"type": "null"}, "s": {"type": "string", "enum": ["x"], "pattern": "x"}, "a": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}, "u": {"anyOf": [{"type": "boolean"}]}, "r": {"type": "string"}}, "required": ["r"], "additionalProperties": false}"#)
    let instance = try GeneratedContent(json: #"{"n": -1, "b": "yes", "z": 0, "s": "y", "a": [1.5], "u": 3, "extra": 1}"#)
    let found = SchemaValidator.violations(of: instance, against: schema)
    #expect(summary(found) == ["/n minimum", "/b type", "/z type", "/s enum", "/s pattern", "/a minItems", "/a/0 type", "/u anyOf", "/r required", "/extra additionalProperties"])
    let tooBig = SchemaValidator.violations(of: ["n": 2, "a": [1, 2, 3], "r": "ok"], against: schema)
    #expect(summary(tooBig) == ["/n maximum", "/a maxItems"])
    #expect(Set((found + tooBig).map(\.keyword)) == Set(Violation.Keyword.allCases))
}

@Test func violationsEncodeAsTheCLIObject() throws {
    let violation = Violation(path: "/a", keyword: .enum, expected: ["x"], actual: "y", message: "/a is \"y\"")
    #expect(violation.content.jsonString == #"{"path":"/a","keyword":"enum","expected":["x"],"actual":"y","message":"/a is \"y\""}"#)
}

@Test func aChoiceViolationNamesTheAllowedValues() throws {
    let guide = try GenerationSchema(json: #"""
        {"type": "object", "properties": {
          "label": {"anyOf": [{"type": "string", "enum": ["positive"]}, {"type": "string", "enum": ["negative"]},
                              {"type": "string", "enum": ["neutral"]}]},
          "plain": {"type": "string", "enum": ["positive", "negative", "neutral"]},
          "stars": {"type": "integer", "enum": [1, 3, 5]},
          "city": {"type": "string", "enum": ["London", "New York", "Washington, D.C."]}}}
        """#)
    let found = SchemaValidator.violations(of: try GeneratedContent(json: #"""
        {"label": "maybe", "plain": "maybe", "stars": 4, "city": "Paris"}
        """#), against: guide)
    #expect(summary(found) == ["/label anyOf", "/plain enum", "/stars anyOf", "/city enum"])
    #expect(found[0].message == #"/label is "maybe", which is not one of: positive, negative, neutral"#)
    #expect(found[0].expected == ["positive", "negative", "neutral"])
    #expect(found[1].message == #"/plain is "maybe", which is not one of: positive, negative, neutral"#)
    #expect(found[2].message == "/stars is 4, which is not one of: 1, 3, 5" && found[2].expected == [1, 3, 5])
    #expect(found[3].message == #"/city is "Paris", which is not one of: London, New York, "Washington, D.C.""#)
}

@Test func schemaMistakesTeachTheFormToWrite() throws {
    func error(_ json: String) throws -> JSONFormatError {
        do {
            _ = try GenerationSchema(json: json)
        } catch let error as JSONFormatError {
            return error
        }
        throw JSONFormatError(path: "", message: "\(json) built")
    }
    let strings = try error(#"{"type": "object", "properties": {"a": {"anyOf": ["x", "y"]}}}"#)
    #expect(strings.path == "/properties/a/anyOf")
    #expect(strings.message.contains("a choice among fixed values is an `enum`"))
    #expect(strings.example == ["type": "string", "enum": ["x", "y"]])
    #expect(strings.description.hasSuffix(#", like: {"type":"string","enum":["x","y"]}"#))
    let mapping = try error(#"{"anyOf": {"type": "integer"}}"#)
    #expect(mapping.path == "/anyOf" && mapping.example == ["anyOf": [["type": "integer"]]])
    let typed = try error(##"{"type": "string", "anyOf": [{"enum": ["a"]}, {"$ref": "#"}]}"##)
    #expect(typed.path == "/anyOf" && typed.example == ["anyOf": [["type": "string", "enum": ["a"]], ["$ref": "#"]]])
    let untyped = try error(#"{"type": "object", "properties": {"n": {"minimum": 1}}}"#)
    #expect(untyped.path == "/properties/n" && untyped.message.contains("its keys describe a number"))
    #expect(untyped.example == ["type": "number", "minimum": 1])
}
