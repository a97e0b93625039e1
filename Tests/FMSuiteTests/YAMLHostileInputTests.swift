import Foundation
import Testing
import FMCore
@testable import FMSuite

private func parse(_ text: String) throws -> YAMLNode { try YAMLParser.parse(text, file: "h.yaml") }

/// The parse error for `text`, or nil when it parses.
private func parseError(_ text: String) -> Diagnostic? {
    do { _ = try parse(text); return nil } catch let diagnostic as Diagnostic { return diagnostic } catch { return nil }
}

/// Parses `text`, prints how long it took under `label`, and returns the tree.
private func timedParse(_ text: String, _ label: String) throws -> YAMLNode {
    let started = Date()
    let node = try parse(text)
    print("\(label): \(text.utf8.count) bytes parsed in \(String(format: "%.3f", Date().timeIntervalSince(started))) s")
    return node
}

@Test func oneLineFlowCollectionsParseInLinearTime() throws {
    let count = 200_000
    let numbers = try timedParse("x: [" + (0..<count).map(String.init).joined(separator: ", ") + "]\n", "flow sequence, ASCII")
    let items = try #require(numbers["x"]?.sequence)
    #expect(items.count == count)
    #expect(items.last?.scalar?.value == .int(count - 1))
    let lastColumn = 5 + (0..<count - 1).map { String($0).count + 2 }.reduce(0, +)
    #expect(items.last?.location == SourceLocation(file: "h.yaml", line: 1, column: lastColumn))

    let words = try timedParse("x: [" + (0..<count).map { "é\($0)" }.joined(separator: ", ") + "]\n", "flow sequence, non-ASCII")
    let unicodeItems = try #require(words["x"]?.sequence)
    #expect(unicodeItems.count == count)
    #expect(unicodeItems.last?.location.column == lastColumn + count - 1)

    let mapping = try timedParse("{" + (0..<count).map { "k\($0): \($0)" }.joined(separator: ", ") + "}", "flow mapping")
    #expect(mapping.mapping?.count == count)
    #expect(mapping["k\(count - 1)"]?.scalar?.value == .int(count - 1))
}

@Test func aLineHoldingOnlyATabInsideABlockScalarIsText() throws {
    #expect(try parse("k: |\n  a\n  \t\n  b\n")["k"]?.scalar?.text == "a\n\t\nb\n")
    #expect(try parse("k: >\n  a\n  \t\n  b\n")["k"]?.scalar?.text == "a\n\t\nb\n")
    #expect(try parse("k: |-\n  a\n    \t\n")["k"]?.scalar?.text == "a\n  \t")
    #expect(try parse("k: |\n  a\n   \n  b\n")["k"]?.scalar?.text == "a\n \nb\n")
}

@Test func aTabInTheIndentationOfABlockScalarLineIsALocatedError() throws {
    let less = try #require(parseError("k: |\n  a\n\t\n  b\n"))
    #expect(less.location.line == 3 && less.location.column == 1)
    #expect(less.message.contains("tab character in the indentation of a block scalar line"))
    #expect(less.message.contains("at least 2 spaces"))
    let partial = try #require(parseError("k: >\n  a\n \t\n  b\n"))
    #expect(partial.location.line == 3 && partial.location.column == 2)
    let leading = try #require(parseError("k: |\n\t\n  a\n"))
    #expect(leading.location.line == 2 && leading.location.column == 1)
}

@Test func overIndentedLeadingEmptyLinesInABlockScalarAreRejected() throws {
    let error = try #require(parseError("k: |\n    \n  a\n"))
    #expect(error.location.line == 2 && error.location.column == 1)
    #expect(error.message.contains("4 spaces, more than its first text line (2)"))
    #expect(try parse("k: |\n  \n \n  a\n")["k"]?.scalar?.text == "\n\na\n")
    #expect(try parse("k: |2\n    \n  a\n")["k"]?.scalar?.text == "  \na\n")
}

@Test func controlCharactersAreRejectedWhereTheyAre() throws {
    let nul = try #require(parseError("k: a\u{0}b\n"))
    #expect(nul.location == SourceLocation(file: "h.yaml", line: 1, column: 5))
    #expect(nul.message.contains("control character U+0000"))
    #expect(nul.message.contains("'\\x00'"))
    for (text, line, column) in [("k: 'é\u{1}'\n", 1, 6), ("a: 1\n# \u{1B}[31m\n", 2, 3), ("k: \"\u{7F}\"", 1, 5), ("k: x\u{80}", 1, 5)] {
        let error = try #require(parseError(text), "\(text.debugDescription)")
        #expect(error.location.line == line && error.location.column == column, "\(error)")
    }
    #expect(try parse("k: \"a\\0b\"")["k"]?.scalar?.text == "a\u{0}b")
    #expect(try parse("k: a\u{85}b\t c")["k"]?.scalar?.text == "a\u{85}b\t c")
}

@Test func decimalIntegersOfAnySizeAreKeptExactly() throws {
    #expect(try parse("k: 9223372036854775808")["k"]?.scalar?.value == .bigInt(try #require(ExactInteger(literal: "9223372036854775808"))))
    #expect(try parse("k: -9223372036854775809")["k"]?.scalar?.value == .bigInt(try #require(ExactInteger(literal: "-9223372036854775809"))))
    #expect(try parse("k: +18446744073709551617")["k"]?.scalar?.value == .bigInt(try #require(ExactInteger(literal: "18446744073709551617"))))
    let content = try NodeDecoding.content(of: try parse("k: [9007199254740993, 99999999999999999999]"))
    #expect(content.jsonString == #"{"k":[9007199254740993,99999999999999999999]}"#, "written back digit for digit")
    #expect(content["k"]?.arrayValue?.first != GeneratedContent(9_007_199_254_740_992), "not the double it rounds to")
}

@Test func hexIntegersOutside64BitsAndFloatsBeyondDoubleAreRejectedNotRounded() throws {
    #expect(try parse("k: 9223372036854775807")["k"]?.scalar?.value == .int(Int.max))
    #expect(try parse("k: -9223372036854775808")["k"]?.scalar?.value == .int(Int.min))
    #expect(try parse("k: 0x7FFFFFFFFFFFFFFF")["k"]?.scalar?.value == .int(Int.max))
    #expect(try parse("k: '9223372036854775808'")["k"]?.scalar?.value == .string("9223372036854775808"))
    #expect(try parse("k: 1.7976931348623157e+308")["k"]?.scalar?.value == .float(.greatestFiniteMagnitude))
    let cases: [(String, Int, String)] = [
        ("k: 0xFFFFFFFFFFFFFFFFFF", 4, "out of range"),
        ("k: 0o7777777777777777777777", 4, "out of range"),
        ("k: 1e400", 4, "beyond the largest 64-bit float"),
    ]
    for (text, column, message) in cases {
        let error = try #require(parseError(text), "\(text)")
        #expect(error.location.column == column && error.message.contains(message), "\(error)")
        #expect(error.message.contains("quote it"), "\(error)")
    }
}

/// Inputs the YAML 1.2 spec rejects, one per class of mistake, with where the error must point.
private let specRejected: [(text: String, line: Int, column: Int, message: String)] = [
    ("[ x, y, z,#c ]\n", 1, 11, "'#' starts a comment only after a space"),
    ("[-]\n", 1, 2, "'-' alone is an indicator"),
    ("- [-, z]\n", 1, 4, "'-' alone is an indicator"),
    ("{a: ?}\n", 1, 5, "'?' alone is an indicator"),
    ("[:, b]\n", 1, 2, "':' alone is an indicator"),
    ("k: %x\n", 1, 4, "'%' cannot start a plain scalar"),
    ("list: [one,\ntwo]\n", 2, 1, "continues the flow sequence '[' opened at 1:7 but is indented 0 spaces; indent it at least 1"),
    ("m:\n  inner: {a: 1,\n  b: 2}\n", 3, 3, "indent it at least 3"),
    ("- [x,\n  y,\n]\n", 3, 1, "continues the flow sequence '[' opened at 1:3"),
    ("text: \"one\ntwo\"\n", 2, 1, "continues a quoted string"),
    ("text: 'one\n\ttwo'\n", 2, 2, "continues a quoted string"),
    ("text: \"one \\\ntwo\"\n", 2, 1, "continues a quoted string"),
    ("- [\n\t\n x ]\n", 2, 1, "tab character in indentation inside the flow sequence '[' opened at 1:3"),
    ("-\t- x\n", 1, 2, "tab character before a nested block collection"),
    ("- \tk: v\n", 1, 3, "tab character before a nested block collection"),
    ("k: >\n   \n  text\n", 2, 1, "more than its first text line"),
    ("k: |\n  \t\nj: 1\n", 2, 3, "tab character in the indentation of a block scalar line"),
]

@Test func inputsTheSpecRejectsAreRejectedWithTheirLocation() throws {
    for (text, line, column, message) in specRejected {
        let error = try #require(parseError(text), "accepted: \(text.debugDescription)")
        #expect(error.location.line == line && error.location.column == column, "\(text.debugDescription): \(error)")
        #expect(error.message.contains(message), "\(text.debugDescription): \(error)")
    }
}

@Test func validNeighboursOfTheRejectedInputsStillParse() throws {
    #expect(try parse("[ x, y, z, #c\n]\n").description == "[x, y, z]")
    #expect(try parse("[-x, a-, '-']\n").description == "[-x, a-, -]")
    #expect(try parse("{a: ?b, c: x%}\n").description == "{a: ?b, c: x%}")
    #expect(try parse("list: [one,\n two]\n").description == "{list: [one, two]}")
    #expect(try parse("[one,\ntwo]\n").description == "[one, two]")
    #expect(try parse("text: \"one\n two\"\n")["text"]?.scalar?.text == "one two")
    #expect(try parse("- [\n \t\n x ]\n").description == "[[x]]")
    #expect(try parse("-\tx\n").description == "[x]")
    #expect(try parse(": v\nk: [':']\n").description == "{: v, k: [:]}")
}

@Test func aTabAfterTheDetectedIndentationOfABlockScalarIsText() throws {
    #expect(try parse("k: |-\n \tx\n")["k"]?.scalar?.text == "\tx")
    #expect(try parse("- >\n \t\n word\n").sequence?.first?.scalar?.text == "\t\nword\n")
    let unresolved = try #require(parseError("k: |\n \t\nj: 1\n"))
    #expect(unresolved.location.line == 2 && unresolved.location.column == 2)
}

@Test func aBlockScalarThatEndsTheFileWithoutALineBreakHasNoFinalBreak() throws {
    #expect(try parse("k: >\n  a\n  b")["k"]?.scalar?.text == "a b")
    #expect(try parse("k: |+\n  a")["k"]?.scalar?.text == "a")
    #expect(try parse("k: |+\n  a\n\n")["k"]?.scalar?.text == "a\n\n")
    #expect(try parse("k: |\n  a\nj: 1")["k"]?.scalar?.text == "a\n")
}

@Test func aSequenceEntryWhereAMappingKeyBelongsIsRejectedEvenWithAColonLater() throws {
    let error = try #require(parseError("a: 1\n- b: 2\n"))
    #expect(error.location.line == 2 && error.location.column == 1)
    #expect(error.message.contains("a sequence entry '- ' where a mapping key was expected"))
    let quoted = try #require(parseError("a:\n  x: 1\n  - 'y: z'\n"))
    #expect(quoted.location.line == 3 && quoted.location.column == 3)
    let percent = try #require(parseError("a: 1\n%b: 2\n"))
    #expect(percent.location.line == 2 && percent.location.column == 1)
}
