import FMCore
import Foundation
import Testing
@testable import FMSuite

/// The streamed parse (`YAMLParser.parse(bytes:file:streaming:)`) against the whole-document parse: the same
/// nodes at the same locations, and the same first error, on generated documents, broken copies of them and
/// the edge cases of when `cases:` may stream.
@Suite struct YAMLStreamingTests {
    /// A node with every location, style and text, so two trees compare exactly.
    static func dump(_ node: YAMLNode) -> String {
        let at = "@\(node.location.line):\(node.location.column)"
        switch node.content {
        case .scalar(let scalar): return "\(scalar.style):\(scalar.text.debugDescription)\(at)"
        case .sequence(let items): return "[" + items.map(dump).joined(separator: ", ") + "]" + at
        case .mapping(let entries):
            return "{" + entries.map { dump($0.key) + ": " + dump($0.value) }.joined(separator: ", ") + "}" + at
        }
    }

    /// The whole parse: the tree, or the error's text.
    static func whole(_ text: String) -> String {
        do { return dump(try YAMLParser.parse(text, file: "t.yaml")) } catch { return "error \(error)" }
    }

    /// The streamed parse with the entries put back under `cases` (or the first error), and whether it streamed.
    static func streamed(_ text: String) -> (result: String, streamed: Bool) {
        var didStream = false
        do {
            let (root, entries) = try YAMLParser.parse(bytes: Array(text.utf8), file: "t.yaml", streaming: "cases")
            guard let entries, case .mapping(var pairs) = root.content, let last = pairs.last else {
                return (dump(root), false)
            }
            didStream = true
            var items: [YAMLNode] = []
            while let entry = try entries.next() { items.append(entry) }
            #expect(try entries.next() == nil, "the stream stays ended")
            pairs[pairs.count - 1].value = YAMLNode(.sequence(items), at: last.value.location)
            return (dump(YAMLNode(.mapping(pairs), at: root.location)), true)
        } catch {
            return ("error \(error)", didStream)
        }
    }

    /// A generated block mapping that ends with `cases:` over a generated block sequence.
    static func document(seed: UInt64) -> String {
        var generator = YAMLDocumentGenerator(random: SplitMix64(seed: seed))
        var lines = generator.chance(20) ? [] : generator.blockMapping(indent: 0, depth: 2)
        lines.append("cases:" + (generator.chance(20) ? "  # the cases" : ""))
        if generator.chance(15) { lines.append("# between") }
        lines += generator.blockSequence(indent: generator.chance(30) ? 0 : 2, depth: 3)
        if generator.chance(10) { lines.append("...") }
        return lines.joined(separator: "\n") + (generator.chance(80) ? "\n" : "")
    }

    @Test func streamedDocumentsEqualWholeOnes() {
        var streamedCount = 0
        for seed in UInt64(0)..<400 {
            let text = Self.document(seed: seed)
            let (result, didStream) = Self.streamed(text)
            #expect(result == Self.whole(text), "seed \(seed):\n\(text)")
            if didStream { streamedCount += 1 }
        }
        #expect(streamedCount > 300, "most generated documents end with a streamable cases: list")
    }

    @Test func brokenDocumentsGiveTheWholeParsesFirstError() {
        let breaks = ["\t", "- x\n", "  ", "\n    deeper: 1\n", "&a ", "*a ", "!t ", "\"open", "---\n",
                      "...\nmore: 1\n", "{", "]", ": ", "\n#c\n", "\n  - y\n", "\nlater: key\n", "\u{7}"]
        var errors = 0
        for seed in UInt64(0)..<400 {
            var generator = YAMLDocumentGenerator(random: SplitMix64(seed: seed))
            var bytes = Array(Self.document(seed: seed).utf8)
            let at = Int.random(in: bytes.count / 3...bytes.count, using: &generator.random)
            bytes.insert(contentsOf: Array(generator.pick(breaks).utf8), at: at)
            let text = String(decoding: bytes, as: UTF8.self)
            let expected = Self.whole(text)
            #expect(Self.streamed(text).result == expected, "seed \(seed):\n\(text)")
            if expected.hasPrefix("error") { errors += 1 }
        }
        #expect(errors > 150, "most breaks are errors: \(errors)")
    }

    @Test func onlyALastSingleBlockListUnderTheRootStreams() {
        let cases: [(String, Bool)] = [
            ("suite: s\ncases:\n  - a\n  - b\n", true),
            ("suite: s\ncases:\n- a\n- b\n", true),
            ("cases:\n  - a\nsuite: s\n", false),
            ("suite: s\ncases: [a, b]\n", false),
            ("suite: s\ncases:\n", false),
            ("suite: s\n\"cases\":\n  - a\n", false),
            ("- cases:\n  - a\n", false),
            ("{suite: s,\n cases: [a]}\n", false),
            ("cases:\n  - a\ncases:\n  - b\n", false),
            ("suite: s\nnested:\n  cases:\n    - a\n", false),
        ]
        for (text, streams) in cases {
            let (result, didStream) = Self.streamed(text)
            #expect(didStream == streams, "\(text)")
            #expect(result == Self.whole(text), "\(text)")
        }
        #expect(Self.whole("cases:\n  - a\ncases:\n  - b\n").contains("duplicate key 'cases'"))
    }

    @Test func aSyntaxErrorInAStreamedCaseIsTheFilesOnlyProblem() throws {
        let text = """
        suite: s
        engine: scripted
        cases:
          - { id: a, prompt: A, expect: { equals: x } }
          - { id: a, prompt: duplicate id, expect: { equals: x } }
          - id: c
            prompt: "unclosed
        """
        let (suite, diagnostics) = SuiteLoader.load(text: text, file: "t.yaml")
        #expect(suite == nil)
        let whole = try #require(Result { try YAMLParser.parse(text, file: "t.yaml") }.failureDescription)
        #expect(diagnostics.map(\.description) == [whole], "only the syntax error, as a whole-file parse reports it")
    }

    @Test func streamedCasesKeepExactLocations() throws {
        let text = """
        suite: s
        engine: scripted
        cases:
          - id: a
            prompt: A
            options: { temperature: 0.7 }
            expect: { equals: x }
          - { id: a, prompt: B, expect: { equals: x } }
        """
        let (_, diagnostics, warnings) = SuiteLoader.read(text: text, file: "t.yaml")
        #expect(warnings.map(\.location.line) == [6])
        #expect(warnings.first?.location.column == 29, "at the value, as before streaming")
        #expect(diagnostics.contains { $0.location.line == 8 && $0.message.contains("'a'") }, "\(diagnostics)")
    }
}

extension Result where Failure == any Error {
    /// The error's text, nil on success.
    var failureDescription: String? {
        if case .failure(let error) = self { return "\(error)" }
        return nil
    }
}
