import Foundation
import Testing
@testable import FMSuite

/// A fresh temporary folder holding `files` (relative path → contents).
func makeFolder(_ files: [String: String]) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fmsuite-\(UUID().uuidString)")
    for (path, text) in files {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }
    return folder
}

/// Loads suite text as `file` with no referenced files.
func loadSuite(_ text: String, file: String = "s.yaml") -> (suite: Suite?, diagnostics: [Diagnostic]) {
    SuiteLoader.load(text: text, file: file)
}

/// The diagnostic loading `text` reports with `message` in it, after checking that it stands at `line`:`column`.
@discardableResult
func expectLocatedDiagnostic(_ text: String, _ message: String, line: Int, column: Int,
                             sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Diagnostic {
    let diagnostics = loadSuite(text).diagnostics
    let found = try #require(diagnostics.first { $0.message.contains(message) }, "no '\(message)' in \(diagnostics)",
                             sourceLocation: sourceLocation)
    #expect(found.location.line == line && found.location.column == column, "\(found)", sourceLocation: sourceLocation)
    return found
}

/// The package root, found from this source file.
let suitePackageRoot: URL = {
    var url = URL(fileURLWithPath: #filePath)
    while url.path != "/" {
        url.deleteLastPathComponent()
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
    }
    return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
}()

/// A minimal valid suite with one tool, used as the base of error tests.
let baseSuite = """
suite: base
tools:
  - name: lookup
    arguments:
      type: object
      properties:
        q: { type: string }
      required: [q]
    output: found
cases:
  - id: one
    prompt: Hello
"""
