import Testing
@testable import FMCore

/// Checks the invariants of a partial value against the complete value it is a prefix of.
private func expectConsistent(_ partial: GeneratedContent, with full: GeneratedContent, prefix: String) {
    switch (partial.kind, full.kind) {
    case (.structure(let properties, let keys), .structure(let fullProperties, let fullKeys)):
        #expect(Array(fullKeys.prefix(keys.count)) == keys, "keys out of order for \(prefix)")
        for key in keys {
            guard let inner = properties[key], let fullInner = fullProperties[key] else {
                Issue.record("unknown key \(key) for \(prefix)")
                continue
            }
            expectConsistent(inner, with: fullInner, prefix: prefix)
            if key != keys.last { #expect(inner.isComplete, "an earlier member is incomplete for \(prefix)") }
        }
    case (.array(let elements), .array(let fullElements)):
        #expect(elements.count <= fullElements.count)
        for (element, fullElement) in zip(elements, fullElements) { expectConsistent(element, with: fullElement, prefix: prefix) }
    case (.string(let text), .string(let fullText)):
        #expect(fullText.hasPrefix(text), "string '\(text)' is not a prefix of '\(fullText)' for \(prefix)")
    case (.number(let value), .number(let fullValue)):
        if partial.isComplete { #expect(value == fullValue) }
    default:
        #expect(partial == full, "kind mismatch for \(prefix)")
    }
    if partial.isComplete { #expect(partial == full, "complete but different for \(prefix)") }
}

@Test func everyPrefixOfAStructuredInstanceParses() throws {
    let text = #"{"name": "Sir Bristle\u00e9 \ud83d\ude00 \"Jr\"", "age": {"years": 12, "months": -3.25e1}, "favoriteFood": "leek", "ok": true, "none": null, "hobbies": ["digging", "naps", "snuffling"], "empty": [], "obj": {}}"#
    let full = try GeneratedContent(json: text)
    let scalars = Array(text.unicodeScalars)
    for length in 0...scalars.count {
        var prefix = ""
        prefix.unicodeScalars.append(contentsOf: scalars[0..<length])
        let partial = GeneratedContent.partial(json: prefix)
        if length == 0 {
            #expect(partial == nil)
            continue
        }
        guard let partial else {
            Issue.record("no partial value for prefix of length \(length)")
            continue
        }
        expectConsistent(partial, with: full, prefix: prefix)
        #expect(partial.isComplete == (length == scalars.count), "isComplete wrong at length \(length)")
    }
    #expect(GeneratedContent.partial(json: text) == full)
}

@Test func partialValuesMarkOpenNodes() throws {
    let value = try #require(GeneratedContent.partial(json: #"{"a": [1, 2], "b": {"c": "hel"#))
    #expect(!value.isComplete)
    #expect(value["a"]?.isComplete == true)
    #expect(value["b"]?.isComplete == false)
    #expect(value["b"]?["c"]?.stringValue == "hel")
    #expect(value["b"]?["c"]?.isComplete == false)
}

@Test func partialDropsMembersWhoseValueHasNotStarted() throws {
    let value = try #require(GeneratedContent.partial(json: #"{"a": 1, "b": "#))
    #expect(value.orderedProperties?.map(\.key) == ["a"])
    #expect(value["a"]?.isComplete == true)
    let literal = try #require(GeneratedContent.partial(json: #"[true, fa"#))
    #expect(literal.arrayValue == [true])
}

@Test func partialRejectsTextThatCannotStartJSON() {
    #expect(GeneratedContent.partial(json: "   ") == nil)
    #expect(GeneratedContent.partial(json: "{\"a\" 1") == nil)
    #expect(GeneratedContent.partial(json: "[1,,") == nil)
    #expect(GeneratedContent.partial(json: "[1] [") == nil)
}

@Test func partialSurrogateEscapesWaitForTheirPair() throws {
    #expect(GeneratedContent.partial(json: #""ab\ud83d"#)?.stringValue == "ab")
    #expect(GeneratedContent.partial(json: #""ab\ud83d\"#)?.stringValue == "ab")
    #expect(GeneratedContent.partial(json: #""ab\ud83d\ude0"#)?.stringValue == "ab")
    #expect(GeneratedContent.partial(json: #""ab\ud83d\ude00"#)?.stringValue == "ab😀")
    #expect(GeneratedContent.partial(json: #""ab\ud83dx"#) == nil)
}
