import Foundation
import Testing
@testable import FMCore

@Test func quotedEscapesEveryControlCharacterQuoteAndBackslashAndKeepsOtherTextVerbatim() throws {
    let named: [UInt32: String] = [0x08: #"\b"#, 0x09: #"\t"#, 0x0A: #"\n"#, 0x0C: #"\f"#, 0x0D: #"\r"#]
    for code in UInt32(0)..<0x20 {
        let character = String(UnicodeScalar(code)!)
        let expected = named[code] ?? "\\u00" + (code < 0x10 ? "0" : "") + String(code, radix: 16)
        #expect(GeneratedContent.quoted("a" + character + "b") == "\"a" + expected + "b\"")
    }
    let mixed = "é \"x\" \\ 😀\u{7F}\n\u{1F}end"
    #expect(GeneratedContent.quoted(mixed) == #""é \"x\" \\ 😀"# + "\u{7F}" + #"\n\u001fend""#)
    #expect(try GeneratedContent(json: GeneratedContent.quoted(mixed)).stringValue == mixed)
    #expect(GeneratedContent.quoted("") == "\"\"")
}

@Test func integersPrintDigitByDigitAcrossTheExactRange() {
    let cases: [(Double, String)] = [(0, "0"), (-0.0, "0"), (7, "7"), (-1, "-1"), (10, "10"), (1_234_567_890, "1234567890"),
                                     (9_007_199_254_740_992, "9007199254740992"), (-9_007_199_254_740_992, "-9007199254740992"),
                                     (9_007_199_254_740_994, "9.007199254740994e+15"), (0.5, "0.5"), (.infinity, "null")]
    for (value, text) in cases {
        #expect(GeneratedContent(kind: .number(value)).jsonString == text)
        #expect(GeneratedContent(kind: .number(value)).jsonString == GeneratedContent.format(number: value))
    }
}

@Test func compactIndentedAndSpacedFormsAgreeOnStructureOrder() throws {
    let value = try GeneratedContent(json: #"{"z": [1, {"y": "t\tab"}], "a": {}, "e": [], "n": null, "b": false}"#)
    #expect(value.jsonString == #"{"z":[1,{"y":"t\tab"}],"a":{},"e":[],"n":null,"b":false}"#)
    #expect(value.spacedJSONString == #"{"z": [1, {"y": "t\tab"}], "a": {}, "e": [], "n": null, "b": false}"#)
    #expect(value.jsonString(indent: 1) == "{\n \"z\": [\n  1,\n  {\n   \"y\": \"t\\tab\"\n  }\n ],\n \"a\": {},\n \"e\": [],\n \"n\": null,\n \"b\": false\n}")
}

@Test func contentEncoderTextMatchesTheEncodedValuesJSON() throws {
    struct Row: Encodable {
        var name = "q\"\u{1}"
        var count = 3
        var ratio = 0.25
        var missing: String? = nil
        var flags = [true, false]
        var nested: GeneratedContent = ["k": [1, "v"]]
        var infinite = Double.infinity
    }
    let text = try ContentEncoder.jsonText(Row())
    #expect(text == #"{"name":"q\"\u0001","count":3,"ratio":0.25,"flags":[true,false],"nested":{"k":[1,"v"]},"infinite":"inf"}"#)
    #expect(text == (try ContentEncoder.encode(Row())).jsonString)
}
