import Testing
@testable import FMSuite

private func parse(_ text: String) throws -> YAMLNode { try YAMLParser.parse(text, file: "t.yaml") }

/// The parse error for `text`, or nil when it parses.
private func parseError(_ text: String) -> Diagnostic? {
    do { _ = try parse(text); return nil } catch let diagnostic as Diagnostic { return diagnostic } catch { return nil }
}

@Test func blockMappingsAndSequencesKeepOrderAndLocations() throws {
    let node = try parse("""
    b: 1
    a:
      - x
      - y: 2
        z: 3
    c:
    - compact
    """)
    #expect(node.mapping?.map(\.name) == ["b", "a", "c"])
    #expect(node.description == "{b: 1, a: [x, {y: 2, z: 3}], c: [compact]}")
    let items = try #require(node["a"]?.sequence)
    #expect(items[0].location == SourceLocation(file: "t.yaml", line: 3, column: 5))
    #expect(items[1].location.line == 4 && items[1].location.column == 5)
    #expect(node["a"]?["y"] == nil)
    #expect(items[1]["z"]?.location == SourceLocation(file: "t.yaml", line: 5, column: 8))
}

@Test func flowCollectionsNestAndSpanLines() throws {
    let node = try parse("o: {a: [1, 2, {b: c}], 'q': \"r\", e: }\nl: [\n  one,\n  two, # comment\n ]\n")
    #expect(node.description == "{o: {a: [1, 2, {b: c}], q: r, e: null}, l: [one, two]}")
}

@Test func scalarStylesAndEscapes() throws {
    let node = try parse(#"""
    plain: hello world # comment
    single: 'it''s # not a comment'
    double: "tab\there \u00e9 \x41 \U0001F600 \"q\" \\"
    pair: "\ud83d\ude00"
    url: http://example.com:80/x
    hash: a#b
    folded-plain: first
      second

      third
    """#)
    #expect(node["plain"]?.scalar?.text == "hello world")
    #expect(node["plain"]?.scalar?.style == .plain)
    #expect(node["single"]?.scalar?.text == "it's # not a comment")
    #expect(node["single"]?.scalar?.style == .singleQuoted)
    #expect(node["double"]?.scalar?.text == "tab\there é A 😀 \"q\" \\")
    #expect(node["pair"]?.scalar?.text == "😀")
    #expect(node["url"]?.scalar?.text == "http://example.com:80/x")
    #expect(node["hash"]?.scalar?.text == "a#b")
    #expect(node["folded-plain"]?.scalar?.text == "first second\nthird")
}

@Test func multiLineQuotedScalarsFold() throws {
    let node = try parse("a: 'one\n  two\n\n  three'\nb: \"x \\\n   y\"\n")
    #expect(node["a"]?.scalar?.text == "one two\nthree")
    #expect(node["b"]?.scalar?.text == "x y")
}

@Test func literalAndFoldedBlockScalarsWithChomping() throws {
    let node = try parse("""
    clip: |
      line one
        indented

    strip: |-
      text

    keep: |+
      text


    folded: >
      one
      two

      three
        kept
      four
    explicit: |2
        two extra
      base
    last: end
    """)
    #expect(node["clip"]?.scalar?.text == "line one\n  indented\n")
    #expect(node["clip"]?.scalar?.style == .literal)
    #expect(node["strip"]?.scalar?.text == "text")
    #expect(node["keep"]?.scalar?.text == "text\n\n\n")
    #expect(node["folded"]?.scalar?.text == "one two\nthree\n  kept\nfour\n")
    #expect(node["folded"]?.scalar?.style == .folded)
    #expect(node["explicit"]?.scalar?.text == "  two extra\nbase\n")
    #expect(node["last"]?.scalar?.text == "end")
}

@Test func coreSchemaTyping() throws {
    let node = try parse("""
    [~, null, Null, NULL, '', true, False, TRUE, 42, -7, +3, 0o17, 0x1F, 1.5, -2.5e3, .5, 1., .inf, -.Inf, .nan,
     "true", '42', 12abc, 0x, yes, 1_000]
    """)
    let values = try #require(node.sequence).map { $0.scalar!.value }
    #expect(Array(values[0...3]) == [.null, .null, .null, .null])
    #expect(values[4] == .string(""))
    #expect(Array(values[5...7]) == [.bool(true), .bool(false), .bool(true)])
    #expect(Array(values[8...12]) == [.int(42), .int(-7), .int(3), .int(15), .int(31)])
    #expect(Array(values[13...16]) == [.float(1.5), .float(-2500), .float(0.5), .float(1)])
    #expect(values[17] == .float(.infinity) && values[18] == .float(-.infinity))
    if case .float(let nan) = values[19] { #expect(nan.isNaN) } else { Issue.record("expected .nan") }
    #expect(Array(values[20...]) == [.string("true"), .string("42"), .string("12abc"), .string("0x"), .string("yes"), .string("1_000")])
}

@Test func emptyDocumentsCommentsAndLeadingMarker() throws {
    #expect(try parse("").isNull)
    #expect(try parse("# only a comment\n\n").isNull)
    #expect(try parse("---\na: 1\n").description == "{a: 1}")
    #expect(try parse("a: 1\n...\n").description == "{a: 1}")
    #expect(try parse("a: 1\r\nb:\r\n  - 2\r\n").description == "{a: 1, b: [2]}")
    #expect(try parse("\u{FEFF}a: 1").description == "{a: 1}")
    #expect(try parse("- \n- a\n").description == "[null, a]")
}

@Test(arguments: [
    ("a: &anchor 1\n", 1, 4, "anchors"),
    ("a: *alias\n", 1, 4, "aliases"),
    ("a: !!str 1\n", 1, 4, "tags"),
    ("- !custom x\n", 1, 3, "tags"),
    ("a: 1\n---\nb: 2\n", 2, 1, "multiple documents"),
    ("a: 1\n...\nb: 2\n", 3, 1, "multiple documents"),
    ("%YAML 1.2\n---\na: 1\n", 1, 1, "directives"),
    ("a:\n\tb: 1\n", 2, 1, "tab character in indentation"),
    ("? complex\n: value\n", 1, 1, "complex mapping keys"),
    ("a: 1\na: 2\n", 2, 1, "duplicate key 'a'"),
    ("a: {b: 1, b: 2}\n", 1, 11, "duplicate key 'b'"),
    ("a: b: c\n", 1, 4, "nested mapping cannot start on the same line"),
    ("a: - b\n", 1, 4, "block sequence cannot start on the same line"),
    ("a:\n  b: 1\n    c: 2\n", 3, 5, "'key:' inside a multi-line plain scalar"),
    ("a:\n  - x\n  y: 1\n", 3, 3, "unexpected indentation"),
    ("a:\n  b: 1\n c: 2\n", 3, 2, "unexpected indentation (1 spaces)"),
    ("- a\nb: 1\n", 2, 1, "unexpected content"),
    ("a:\n  b: 1\n  - c\n", 3, 3, "sequence entry '- ' where a mapping key was expected"),
    ("a: [1, 2\nb: 1\n", 2, 1, "continues the flow sequence '[' opened at 1:4"),
    ("a: [1, 2", 1, 4, "unterminated flow sequence"),
    ("a: {x: 1", 1, 4, "unterminated flow mapping"),
    ("a: [1,, 2]\n", 1, 7, "empty entry"),
    ("a: [k: v]\n", 1, 6, "'key: value' pairs inside [ ]"),
    ("a: [1] x\n", 1, 8, "unexpected text after a flow collection"),
    ("a: \"open\n", 1, 4, "unterminated double-quoted string"),
    ("a: 'open\n", 1, 4, "unterminated single-quoted string"),
    ("a: \"\\q\"\n", 1, 5, "unknown escape '\\q'"),
    ("a: \"\\u12\"\n", 1, 5, "hexadecimal digits"),
    ("a: |x\n  t\n", 1, 5, "after the block scalar header"),
    ("a: |--\n  t\n", 1, 6, "two chomping indicators"),
    ("a: \"x\" y\n", 1, 8, "unexpected text after a quoted scalar"),
    ("a: @x\n", 1, 4, "reserved"),
    ("a: ]\n", 1, 4, "unexpected ']'"),
    ("a: [|x]\n", 1, 5, "block scalars"),
    ("[a, b]: c\n", 1, 7, "unexpected ':'"),
] as [(String, Int, Int, String)])
func rejectedConstructsAreLocated(text: String, line: Int, column: Int, message: String) throws {
    let error = try #require(parseError(text), "expected an error for \(text.debugDescription)")
    #expect(error.location.line == line && error.location.column == column, "\(error)")
    #expect(error.message.contains(message), "\(error)")
    #expect(error.description.hasPrefix("t.yaml:\(line):\(column): error: "))
}

@Test func columnsCountUnicodeScalars() throws {
    let error = try #require(parseError("é: [ü, *x]\n"))
    #expect(error.location.column == 8)
}

@Test func deepNestingIsAnErrorNotACrash() throws {
    let flow = try #require(parseError("a: " + String(repeating: "[", count: 100_000)))
    #expect(flow.message.contains("nesting deeper than"))
    let block = try #require(parseError(String(repeating: "- ", count: 100_000) + "x\n"))
    #expect(block.message.contains("nesting deeper than"))
    #expect(try parse(String(repeating: "[", count: 150) + String(repeating: "]", count: 150)).sequence?.count == 1)
}
