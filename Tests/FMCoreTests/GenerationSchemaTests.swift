import Testing
@testable import FMCore

@Test(arguments: referenceSchemaNames)
func referenceSchemaRoundTripsSemantically(name: String) throws {
    let original = try GeneratedContent(json: try referenceText(name))
    let schema = try GenerationSchema(content: original)
    #expect(schema.content == original, "\(name): \(schema.jsonString)")
    #expect(try GenerationSchema(json: schema.jsonString) == schema)
}

@Test func decodedSchemaExposesTheNodeModel() throws {
    let schema = try GenerationSchema(json: try referenceText("newsletter"))
    #expect(schema.root.title == "ShelterNewsletter")
    #expect(schema.definitions.map(\.name) == ["Age", "Cat", "Hedgehog", "Person"])
    guard case .object(let object) = schema.root.kind else { throw TestFailure("root is not an object") }
    #expect(object.properties.map(\.name) == ["title", "topic", "sponsor", "issueNumber", "tags", "featuredCats", "featuredHedgehog", "featuredStaff"])
    #expect(object.requiredNames == ["title", "topic"])
    #expect(object.additionalProperties == false)
    let hedgehog = try #require(object.property(named: "featuredHedgehog"))
    #expect(hedgehog.node.kind == .reference("Hedgehog"))
    let resolved = try #require(schema.resolve(hedgehog.node))
    #expect(resolved.title == "Hedgehog")
    guard case .object(let inner) = resolved.kind, case .string(let food) = inner.property(named: "favoriteFood")?.node.kind else {
        throw TestFailure("Hedgehog.favoriteFood is not a string")
    }
    #expect(food.choices == ["carrot", "turnip", "leek"])
}

@Test func rootRecursionResolvesToTheRoot() throws {
    let schema = try GenerationSchema(json: try referenceText("person"))
    guard case .object(let object) = schema.root.kind, case .array(let children) = object.property(named: "children")?.node.kind else {
        throw TestFailure("person.children is not an array")
    }
    #expect(children.items.kind == .reference("#"))
    #expect(children.maxItems == 3)
    #expect(schema.resolve(children.items) == schema.root)
    #expect(schema.jsonString.contains(##""$ref":"#""##))
}

@Test func propertiesWithoutXOrderKeepTheirOrder() throws {
    let schema = try GenerationSchema(json: ##"{"type":"object","properties":{"b":{"type":"boolean"},"a":{"type":"null"}}}"##)
    guard case .object(let object) = schema.root.kind else { throw TestFailure("not an object") }
    #expect(object.properties.map(\.name) == ["b", "a"])
    #expect(object.requiredNames.isEmpty)
    #expect(object.additionalProperties == nil)
}

@Test func anyOfAndPatternDecodeAndEncode() throws {
    let text = ##"{"anyOf":[{"type":"string","pattern":"[A-Z]{3}"},{"type":"number","minimum":0.5}],"description":"code or ratio"}"##
    let schema = try GenerationSchema(json: text)
    #expect(schema.content == (try GeneratedContent(json: text)))
    guard case .anyOf(let choices) = schema.root.kind else { throw TestFailure("not anyOf") }
    #expect(choices.count == 2)
}

/// The error `body` throws, formatted, or a recorded issue.
private func errorText(_ body: () throws -> Void) -> String {
    do {
        try body()
        Issue.record("no error thrown")
        return ""
    } catch {
        return "\(error)"
    }
}

/// Bad schema JSON, a fragment of the expected message, and the JSON path it must name.
private let badSchemas: [(String, String, String)] = [
    (##"{"type":"object","properties":{"a":{"$ref":"#/$defs/Missing"}}}"##, "undefined type 'Missing'", "/properties/a/$ref"),
    (##"{"type":"string","enum":[]}"##, "offers no choices", "at the schema root"),
    (##"{"anyOf":[]}"##, "offers no choices", "at the schema root"),
    (##"{"type":"object","title":"T","properties":{"a":{"type":"string"}},"x-order":["a","a"]}"##, "property 'a' more than once", "/x-order/1"),
    (##"{"type":"string","pattern":"(unclosed"}"##, "not a valid pattern", "/pattern"),
    (##"{"type":"string","pattern":"(?=a)b"}"##, "only (?:…) groups are supported", "/pattern"),
    (##"{"type":"strin"}"##, "unknown type \"strin\"", "/type"),
    (##"{"type":"integer","minimun":1}"##, "unknown key \"minimun\"", "/minimun"),
    (##"{"type":"array"}"##, "missing \"items\"", "the top level"),
    (##"{"type":"object","properties":{"a":{"type":"string"}},"required":["b"]}"##, "required names \"b\"", "/required/0"),
    (##"{"$ref":"#/definitions/X"}"##, "unsupported $ref", "/$ref"),
    (##"{"type":"array","items":{"type":"string"},"minItems":-1}"##, "non-negative integer", "/minItems"),
    ("[1]", "expected a generation schema as a JSON object", "the top level"),
    (##"{"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}, "$ref": "#/$defs/A"}"##, "in a circle", "/$ref"),
    (##"{"type": "integer", "minimum": 5, "maximum": 1}"##, "minimum 5 is above maximum 1", "at the schema root"),
    (##"{"type": "integer", "minimum": 0.2, "maximum": 0.8}"##, "no integer lies between 0.2 and 0.8", "at the schema root"),
    (##"{"type": "array", "items": {"type": "string"}, "minItems": 3, "maxItems": 2}"##, "minItems 3 is above maxItems 2", "at the schema root"),
]

@Test(arguments: badSchemas)
func badSchemasNameThePathAndTheProblem(json: String, fragment: String, path: String) {
    let text = errorText { _ = try GenerationSchema(json: json) }
    #expect(text.contains(fragment), "\(text)")
    #expect(text.contains(path), "\(text)")
}

@Test func builderMakesTheCatSchema() throws {
    let age = DynamicGenerationSchema(name: "Age", properties: [
        .init(name: "years", schema: .integer),
        .init(name: "months", schema: .integer),
    ])
    let cat = DynamicGenerationSchema(name: "Cat", description: "A description of a cute cat", properties: [
        .init(name: "name", schema: .string),
        .init(name: "age", description: "The age of the cat, at most 20 years", schema: DynamicGenerationSchema(referenceTo: "Age")),
        .init(name: "profile", description: "One sentence about this cat's personality", schema: .string),
    ])
    let schema = try GenerationSchema(root: cat, dependencies: [age])
    #expect(schema.content == (try GeneratedContent(json: try referenceText("cat"))))
}

@Test func builderMakesRecursiveEnumAndArraySchemas() throws {
    let person = DynamicGenerationSchema(name: "Person", properties: [
        .init(name: "mood", schema: DynamicGenerationSchema(name: "Mood", anyOf: ["happy", "sad"])),
        .init(name: "children", schema: DynamicGenerationSchema(arrayOf: DynamicGenerationSchema(referenceTo: "Person"), maximumElements: 3)),
        .init(name: "nickname", schema: .string, isOptional: true),
    ])
    let schema = try GenerationSchema(root: person, dependencies: [])
    let text = schema.jsonString
    #expect(text.contains(##""$ref":"#""##))
    #expect(text.contains(##""enum":["happy","sad"]"##))
    #expect(text.contains(##""required":["mood","children"]"##))
    #expect(try GenerationSchema(json: text) == schema)
}

@Test func builderThrowsEverySchemaError() {
    let duplicateProperty = DynamicGenerationSchema(name: "Dup", properties: [.init(name: "x", schema: .string), .init(name: "x", schema: .integer)])
    #expect(throws: SchemaError.duplicateProperty(schema: "Dup", property: "x", path: "/properties")) {
        try GenerationSchema(root: duplicateProperty, dependencies: [])
    }
    let thing = DynamicGenerationSchema(name: "Thing", properties: [])
    #expect(throws: SchemaError.duplicateType(type: "Thing", path: "/$defs/Thing")) {
        try GenerationSchema(root: DynamicGenerationSchema(name: "Root", properties: []), dependencies: [thing, thing])
    }
    #expect(throws: SchemaError.emptyTypeChoices(schema: "Color", path: "")) {
        try GenerationSchema(root: DynamicGenerationSchema(name: "Color", anyOf: [String]()), dependencies: [])
    }
    #expect(throws: SchemaError.emptyTypeChoices(schema: "Shape", path: "")) {
        try GenerationSchema(root: DynamicGenerationSchema(name: "Shape", anyOf: [DynamicGenerationSchema]()), dependencies: [])
    }
    let dangling = DynamicGenerationSchema(name: "Owner", properties: [
        .init(name: "pet", schema: DynamicGenerationSchema(referenceTo: "Pet")),
        .init(name: "car", schema: DynamicGenerationSchema(referenceTo: "Car")),
    ])
    #expect(throws: SchemaError.undefinedReferences(schema: "Owner", references: ["Pet", "Car"], path: "/properties/pet/$ref")) {
        try GenerationSchema(root: dangling, dependencies: [])
    }
}

@Test func schemaErrorMessagesNameTheOffendingName() {
    #expect(SchemaError.duplicateProperty(schema: "Cat", property: "age", path: "/properties").description.contains("'age'"))
    #expect(SchemaError.duplicateType(type: "Age", path: "/$defs/Age").description.contains("'Age'"))
    #expect(SchemaError.emptyTypeChoices(schema: "Color", path: "").description.contains("'Color'"))
    #expect(SchemaError.undefinedReferences(schema: "Cat", references: ["Age"], path: "/x").description.contains("'Age'"))
}

@Test func builderRejectsNegativeElementCounts() {
    let list = DynamicGenerationSchema(name: "List", properties: [
        .init(name: "items", schema: DynamicGenerationSchema(arrayOf: .string, minimumElements: -1)),
    ])
    #expect(throws: SchemaError.unsatisfiableBounds(schema: "List", detail: "an element count of -1 is negative", path: "/properties/items")) {
        try GenerationSchema(root: list, dependencies: [])
    }
}
