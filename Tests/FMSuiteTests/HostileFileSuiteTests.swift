import Foundation
import Testing
import FMCore
@testable import FMSuite

/// A suite with one tool whose output is the file `output`.
private func fileToolSuite(_ output: String, extra: String = "") -> String {
    """
    suite: files
    \(extra)tools:
      - name: read
        arguments: { type: object, properties: { q: { type: string } } }
        output: { file: \(output) }
    cases:
      - { id: one, prompt: Hello }
    """
}

@Test func aDatasetWithCRLFLineEndingsLoads() throws {
    let folder = try makeFolder([
        "s.yaml": "suite: d\ndataset: d.jsonl\n",
        "d.jsonl": #"{"id": "a", "prompt": "one"}"# + "\r\n" + #"{"id": "b", "prompt": "two"}"# + "\r\n\r\n",
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let (suite, diagnostics) = SuiteLoader.load(file: folder.appendingPathComponent("s.yaml").path)
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    #expect(try #require(suite).cases.map(\.id) == ["a", "b"])
    let bad = try makeFolder(["s.yaml": "suite: d\ndataset: d.jsonl\n",
                              "d.jsonl": #"{"id": "a", "prompt": "one"}"# + "\r\n" + #"{"id": "b" "prompt": 2}"# + "\r\n"])
    defer { try? FileManager.default.removeItem(at: bad) }
    let located = SuiteLoader.load(file: bad.appendingPathComponent("s.yaml").path).diagnostics
    #expect(located.count == 1 && located.first?.location.line == 2, "a bad CRLF line is located on its own line: \(located)")
}

@Test func anEmptyCaseIDIsALocatedError() throws {
    try expectLocatedDiagnostic("suite: s\ncases:\n  - id: \"\"\n    prompt: hi\n", "a case id cannot be empty", line: 3, column: 9)
    let folder = try makeFolder(["s.yaml": "suite: d\ndataset: d.jsonl\n", "d.jsonl": #"{"id": "", "prompt": "hi"}"# + "\n"])
    defer { try? FileManager.default.removeItem(at: folder) }
    let diagnostics = SuiteLoader.load(file: folder.appendingPathComponent("s.yaml").path).diagnostics
    #expect(diagnostics.contains { $0.message.contains("a case id cannot be empty") && $0.location.line == 1 }, "\(diagnostics)")
}

@Test func toolOutputsAndDatasetsMustBeRegularFilesInTheSuitesTree() throws {
    let folder = try makeFolder(["s.yaml": fileToolSuite("/proc/self/environ")])
    defer { try? FileManager.default.removeItem(at: folder) }
    let suitePath = folder.appendingPathComponent("s.yaml").path
    let environ = SuiteLoader.load(file: suitePath).diagnostics
    #expect(environ.contains { $0.message.contains("tool output file '/proc/self/environ' is in /proc, a kernel file system") },
            "\(environ)")
    #expect(environ.first?.location.line == 5)

    try Data(fileToolSuite("out.txt").utf8).write(to: URL(fileURLWithPath: suitePath))
    #expect(mkfifo(folder.appendingPathComponent("out.txt").path, 0o600) == 0)
    let fifo = SuiteLoader.load(file: suitePath).diagnostics
    #expect(fifo.contains { $0.message.contains("tool output file 'out.txt' is a FIFO") }, "\(fifo)")

    try Data("suite: d\ndataset: out.txt\n".utf8).write(to: URL(fileURLWithPath: suitePath))
    #expect(SuiteLoader.load(file: suitePath).diagnostics.contains { $0.message.contains("dataset file 'out.txt' is a FIFO") })

    let outside = try makeFolder(["secret.txt": "s"])
    defer { try? FileManager.default.removeItem(at: outside) }
    try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("linked.txt").path,
                                               withDestinationPath: outside.appendingPathComponent("secret.txt").path)
    try Data(fileToolSuite("linked.txt").utf8).write(to: URL(fileURLWithPath: suitePath))
    let linked = SuiteLoader.load(file: suitePath).diagnostics
    #expect(linked.contains { $0.message.contains("is a symbolic link to") && $0.message.contains("outside the suite's folder") },
            "\(linked)")
    try Data(fileToolSuite("linked.txt", extra: "allowLinksOutsideSuite: true\n").utf8).write(to: URL(fileURLWithPath: suitePath))
    let allowed = SuiteLoader.load(file: suitePath)
    #expect(allowed.diagnostics.isEmpty, "\(allowed.diagnostics)")
}

@Test func aSuiteFileThatIsAFifoIsRefusedWithoutWaiting() throws {
    let folder = try makeFolder([:])
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let fifo = folder.appendingPathComponent("s.yaml").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let loaded = SuiteLoader.load(paths: [fifo])
    #expect(loaded.diagnostics.contains { $0.message.contains("the suite file is a FIFO") }, "\(loaded.diagnostics)")
}
