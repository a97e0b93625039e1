import Testing
@testable import FMCore

/// What the device's GenerationSchema decoder refuses that fmeval's reader accepts. Source of each
/// behaviour: Foundation Models 27's `JSONDecoder().decode(GenerationSchema.self, …)`, measured and
/// published (an object without `x-order` or `additionalProperties` is `keyNotFound`; object nodes require
/// `title`, `additionalProperties`, `required` and `x-order`), and the `fm` tool's note that hand-written
/// schemas need `title`, `additionalProperties: false` and `x-order`.
@Suite struct DeviceSchemaDialectTests {
    private let complete = #"{"title":"Person","type":"object","additionalProperties":false,"required":["name"],"x-order":["name"],"properties":{"name":{"type":"string"}}}"#

    @Test func aCompleteObjectIsAccepted() throws {
        #expect(DeviceSchemaDialect.problems(in: try GeneratedContent(json: complete)).isEmpty)
        for name in ["age", "cat", "hedgehog", "newsletter", "person", "petClub", "shelter"] {
            #expect(DeviceSchemaDialect.problems(in: try GeneratedContent(json: try referenceText(name))).isEmpty,
                    "Apple's own schema \(name) is one the device reads")
        }
    }

    @Test(arguments: ["title", "required", "x-order", "additionalProperties"])
    func anObjectWithoutAKeyTheDecoderRequiresIsRefused(key: String) throws {
        var members = try #require(try GeneratedContent(json: complete).orderedProperties)
        members.removeAll { $0.key == key }
        let schema = GeneratedContent(properties: members.map { ($0.key, $0.value) })
        #expect(try GenerationSchema(content: schema).root.title != nil || key == "title", "fmeval's reader accepts it")
        let problems = DeviceSchemaDialect.problems(in: schema)
        #expect(problems.map(\.path) == [""])
        #expect(problems.first?.message.contains("the device refuses an object without \"\(key)\"") == true)
        #expect(problems.first?.message.contains("keyNotFound") == true)
    }

    @Test func definitionsAndNestedObjectsAreCheckedToo() throws {
        let schema = try GeneratedContent(json: ##"{"title":"R","type":"object","additionalProperties":false,"required":["a"],"x-order":["a"],"properties":{"a":{"$ref":"#/$defs/A"}},"$defs":{"A":{"type":"object","additionalProperties":false,"required":[],"x-order":["b"],"properties":{"b":{"type":"array","items":{"type":"object","title":"B","required":[],"x-order":[],"properties":{}}}}}}}"##)
        let problems = DeviceSchemaDialect.problems(in: schema)
        #expect(problems.map(\.path) == ["/$defs/A", "/$defs/A/properties/b/items"])
        #expect(problems.map { $0.message.contains("\"title\"") } == [true, false])
    }
}
