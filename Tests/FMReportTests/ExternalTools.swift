import Foundation
import Testing

/// True when the tests run in CI (`CI=true`): missing tools then fail the tests instead of skipping them.
let runningInCI = ProcessInfo.processInfo.environment["CI"]?.lowercased() == "true"

/// The package root (the folder holding Package.swift), found from this source file's path.
let reportPackageRoot: URL = {
    var url = URL(fileURLWithPath: #filePath)
    while url.path != "/" {
        url.deleteLastPathComponent()
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
    }
    return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
}()

/// The Apache Ant JUnit schema every JUnit file we write must satisfy.
let junitSchema = reportPackageRoot.deletingLastPathComponent().appendingPathComponent("shared/reference/junit/JUnit.xsd")

/// The first executable named `name` on `$PATH`.
func findExecutable(_ name: String) -> URL? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":") {
        let url = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return nil
}

/// True when xmllint can run here, or when in CI (so the test runs and fails loudly if it is missing).
let xmllintRunnable = findExecutable("xmllint") != nil || runningInCI

/// What one run of an external tool printed.
struct ToolOutput {
    /// Exit status.
    var status: Int32
    /// Standard output and standard error together.
    var output: String
}

/// Runs `executable` with `arguments` and returns its status and combined output.
func runTool(_ executable: URL, _ arguments: [String]) throws -> ToolOutput {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ToolOutput(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
}

/// Writes `xml` to a temporary file and validates it with `xmllint --noout` (against `schema` when given).
///
/// Records a test failure naming the missing package when xmllint is absent (the caller only runs
/// when it is present or in CI), and returns xmllint's output so tests can check its verdict.
@discardableResult
func xmllint(_ xml: String, schema: URL? = junitSchema, sourceLocation: SourceLocation = #_sourceLocation) throws -> ToolOutput {
    guard let tool = findExecutable("xmllint") else {
        Issue.record("xmllint is missing: install Debian package libxml2-utils (.ci/run does)", sourceLocation: sourceLocation)
        return ToolOutput(status: -1, output: "xmllint missing")
    }
    if let schema, !FileManager.default.fileExists(atPath: schema.path) {
        Issue.record("the schema \(schema.path) is missing; it ships in ../shared/reference", sourceLocation: sourceLocation)
        return ToolOutput(status: -1, output: "schema missing")
    }
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-junit-\(UUID().uuidString).xml")
    try Data(xml.utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    var arguments = ["--noout"]
    if let schema { arguments += ["--schema", schema.path] }
    return try runTool(tool, arguments + [file.path])
}
