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

/// A string-keyed dictionary inside an encoded value is written with sorted keys, so equal values
/// give equal bytes in every process (Swift encodes dictionaries in per-process hash order).
@Test func contentEncoderWritesDictionaryKeysSorted() throws {
    struct Holder: Encodable {
        var name = "n"
        var details: [String: String]
        var counts: [[String: Int]]
    }
    let keys = (0 ..< 40).map { "key\($0)" }
    let holder = Holder(details: Dictionary(uniqueKeysWithValues: keys.map { ($0, "v" + $0) }),
                        counts: [Dictionary(uniqueKeysWithValues: keys.map { ($0, $0.count) })])
    let text = try ContentEncoder.jsonText(holder)
    func keyOrder(_ object: GeneratedContent?) -> [String]? {
        guard case .structure(_, let orderedKeys)? = object?.kind else { return nil }
        return orderedKeys
    }
    let content = try GeneratedContent(json: text)
    #expect(keyOrder(content["details"]) == keys.sorted())
    guard case .array(let counts) = content["counts"]?.kind else { Issue.record("counts is not an array"); return }
    #expect(keyOrder(counts.first) == keys.sorted())
    #expect(text.hasPrefix(#"{"name":"n","details":{"key0":"vkey0","key1":"vkey1","key10":"vkey10""#))
}

/// Integer widths other than Int and Float values encode as numbers (they once recursed until the stack
/// overflowed), and an unsigned value past Int.max is an encoding error, never a changed number.
@Test func otherIntegerWidthsAndFloatsEncodeAsNumbers() throws {
    struct Widths: Encodable {
        var seed: UInt64 = 42, small: Int8 = -3, count: UInt32 = 7, ratio: Float = 0.5
        var list: [UInt16] = [1, 2]
        var single: UInt64? = 9
    }
    #expect(try ContentEncoder.jsonText(Widths()) == #"{"seed":42,"small":-3,"count":7,"ratio":0.5,"list":[1,2],"single":9}"#)
    #expect(try ContentEncoder.jsonText([UInt64(5)]) == "[5]")
    #expect(throws: EncodingError.self) { try ContentEncoder.jsonText([UInt64.max]) }
}
