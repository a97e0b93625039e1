import Foundation
import Testing
@testable import FMSuite

/// A suite with inline cases, two variants (one case in seven runs only under `b`) and a dataset of `count`
/// lines whose contamination cases sit at the batch edges, at the end and (with `wrapping`) among the first
/// cases, whose prior prompts count on from the suite's end.
private func contaminationSuite(count: Int, wrapping: Bool) throws -> URL {
    var lines: [String] = []
    for index in 0..<count {
        var fields = [#""id": "c\#(index)""#]
        fields.append(index == 2 ? #""turns": ["t2a", "t2b"]"# : #""prompt": "p\#(index)""#)
        if ([16, 4095, 4096, 5000, count - 1] + (wrapping ? [0, 3, 15] : [])).contains(index) {
            fields.append(#""options": {"contamination": \#(index % 2 == 1 ? 16 : 5)}"#)
        }
        if index % 7 == 0 { fields.append(#""variants": ["b"]"#) }
        lines.append("{" + fields.joined(separator: ", ") + "}")
    }
    return try makeFolder([
        "s.yaml": """
        suite: big
        engine: embedded
        variants:
          - name: a
          - name: b
            prompt: "B: {{prompt}}"
        cases:
          - id: inline1
            prompt: hello
        \(wrapping ? "    options: { contamination: 3 }" : "")
        dataset: d.jsonl
        """,
        "d.jsonl": lines.joined(separator: "\n") + "\n",
    ])
}

private func encoded(_ cases: [ExpandedCase]) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: try encoder.encode(cases), as: UTF8.self)
}

@Test(arguments: [false, true])
func streamedCasesAreTheLoadedCases(wrapping: Bool) throws {
    let folder = try contaminationSuite(count: 10_000, wrapping: wrapping)
    let loaded = SuiteLoader.load(paths: [folder.path])
    var batches: [[ExpandedCase]] = []
    let streamed = SuiteLoader.stream(paths: [folder.path]) { _, batch in batches.append(batch) }
    #expect(loaded.diagnostics.isEmpty && streamed.diagnostics.isEmpty, "\(streamed.diagnostics)")
    // Cases that count on from the suite's end hold every case back until it is read.
    #expect(batches.count == (wrapping ? 1 : 3), "\(batches.map(\.count))")
    #expect(streamed.streamedCaseCount == loaded.expandedCases.count)
    #expect(streamed.suites.allSatisfy { $0.cases.isEmpty })
    let all = batches.flatMap { $0 }
    #expect(try encoded(all) == encoded(loaded.expandedCases))
    let late = try #require(all.first { $0.id == "big/c5000@a" })
    #expect(late.priorPrompts.map(\.caseID) == ["big/c4994@a", "big/c4995@a", "big/c4996@a", "big/c4997@a",
                                                "big/c4999@a"])
    if wrapping {
        let first = try #require(all.first { $0.id == "big/c0@b" })
        #expect(first.priorPrompts.map(\.caseID) == ["big/c9996@b", "big/c9997@b", "big/c9998@b", "big/c9999@b",
                                                     "big/inline1@b"])
    }
}

@Test func streamedDatasetProblemsKeepTheirLines() throws {
    var lines = (1...6000).map { #"{"id": "c\#($0)", "prompt": "p"}"# }
    lines[4999] = #"{"id": "c5000", "prompt": }"#
    lines[5499] = #"{"id": "c5500", "promt": "p"}"#
    lines[5999] = #"{"id": "c1", "prompt": "again"}"#
    let folder = try makeFolder(["s.yaml": "suite: d\ndataset: d.jsonl\n",
                                 "d.jsonl": lines.joined(separator: "\r\n")])
    let result = SuiteLoader.stream(paths: [folder.appendingPathComponent("s.yaml").path]) { _, _ in }
    let places = result.diagnostics.map { "\($0.location.line):\($0.location.column)" }
    #expect(places == ["5000:27", "5500:1", "5500:17", "6000:1"], "\(result.diagnostics)")
    #expect(result.diagnostics[3].message.contains("duplicate case id 'c1'"))
    #expect(result.streamedCaseCount == 0, "a suite with errors counts no cases")
}

@Test func aDatasetLineThatIsNotUTF8IsReportedAtItsLine() throws {
    let folder = try makeFolder(["s.yaml": "suite: d\ndataset: d.jsonl\n"])
    var bytes = Array(#"{"id": "a", "prompt": "p"}"#.utf8) + [10]
    bytes += Array(#"{"id": "b", "prompt": "caf"#.utf8) + [0xE9] + Array(#""}"#.utf8) + [10]
    try Data(bytes).write(to: folder.appendingPathComponent("d.jsonl"))
    let result = SuiteLoader.load(paths: [folder.appendingPathComponent("s.yaml").path])
    #expect(result.diagnostics.map { "\($0.location.line):\($0.location.column) \($0.message)" }
            == ["2:1 dataset line 2 is not UTF-8 text; save the file as UTF-8"], "\(result.diagnostics)")
}

@Test func lineReaderSplitsLinesAcrossChunksAndEndings() throws {
    let long = String(repeating: "x", count: (1 << 20) + 17)
    let text = "one\r\n\n\(long)\r\nlast"
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("lines-\(UUID().uuidString).txt")
    try Data(text.utf8).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    var lines: [(Int, String)] = []
    try LineReader.forEachLine(of: url) { lines.append(($0, $1)) }
    #expect(lines.map(\.0) == [1, 2, 3, 4])
    #expect(lines.map(\.1) == ["one", "", long, "last"])
}
