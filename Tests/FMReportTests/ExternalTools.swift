import Foundation
import TestSupport
import Testing

/// True when the tests run in CI (`CI=true`, or `FMEVAL_REQUIRE_TOOLS=1` as `.ci/run` sets): missing
/// tools then fail the tests instead of skipping them.
let runningInCI = ProcessInfo.processInfo.environment["CI"]?.lowercased() == "true"
    || ProcessInfo.processInfo.environment["FMEVAL_REQUIRE_TOOLS"] == "1"

/// The package root (the folder holding Package.swift), found from this source file's path.
let reportPackageRoot: URL = {
    var url = URL(fileURLWithPath: #filePath)
    while url.path != "/" {
        url.deleteLastPathComponent()
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
    }
    return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
}()

/// `.ci/check-junit`: a JUnit file fmeval wrote is valid against the Ant schema without fmeval's extensions.
let junitChecker = reportPackageRoot.appendingPathComponent(".ci/check-junit")

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

/// True when headless Chromium can run here, or when in CI (so the test runs and fails loudly if it is missing).
let chromiumRunnable = findExecutable("chromium") != nil || runningInCI

/// What one run of an external tool printed.
struct ToolOutput {
    /// Exit status.
    var status: Int32
    /// Standard output (and standard error, unless it was read separately).
    var output: String
    /// Standard error when read separately.
    var errors: String = ""
}

/// Runs `executable` with `arguments` and returns its status and output; `separateErrors` keeps stderr apart.
func runTool(_ executable: URL, _ arguments: [String], separateErrors: Bool = false) throws -> ToolOutput {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let pipe = Pipe(), errorPipe = Pipe()
    process.standardOutput = pipe
    process.standardError = separateErrors ? errorPipe : pipe
    try process.run()
    // Drain stderr on another thread so a chatty tool cannot block on a full pipe; the group's wait
    // orders the write to `errors.data` before the read below.
    let errors = DataBox()
    let group = DispatchGroup()
    if separateErrors {
        group.enter()
        DispatchQueue.global().async {
            errors.data = readToEnd(errorPipe.fileHandleForReading)
            group.leave()
        }
    }
    let data = readToEnd(pipe.fileHandleForReading)
    group.wait()
    process.waitUntilExit()
    return ToolOutput(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self),
                      errors: String(decoding: errors.data, as: UTF8.self))
}

/// A reference holder for bytes filled on another thread.
// @unchecked Sendable: one thread writes `data`, and the reader reads it only after that thread is waited for.
private final class DataBox: @unchecked Sendable {
    /// The bytes read.
    var data = Data()
}

/// The folder for files tests leave behind for `.ci/run` (`$FMEVAL_REPORT_ARTIFACTS`), or a fresh temporary one.
func artifactFolder() throws -> URL {
    let folder = ProcessInfo.processInfo.environment["FMEVAL_REPORT_ARTIFACTS"].map { URL(fileURLWithPath: $0) }
        ?? FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-report-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// What headless Chromium made of a page: the DOM after scripts ran, and the console messages it logged.
struct BrowserRender {
    /// The serialised DOM.
    var dom: String
    /// Lines of Chromium's log that carry page console output (errors, warnings, logs, CSP violations).
    var console: [String]
}

/// Loads `page` in headless Chromium (`--dump-dom`, console to stderr); records a failure when Chromium is missing.
func renderInChromium(_ page: URL, sourceLocation: SourceLocation = #_sourceLocation) throws -> BrowserRender? {
    guard let chromium = findExecutable("chromium") else {
        Issue.record("chromium is missing: install Debian package chromium (.ci/run does)", sourceLocation: sourceLocation)
        return nil
    }
    let profile = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-chromium-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: profile) }
    let result = try runTool(chromium, ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                        "--user-data-dir=\(profile.path)", "--enable-logging=stderr", "--v=0",
                                        "--virtual-time-budget=2000", "--dump-dom", page.absoluteString],
                             separateErrors: true)
    let console = result.errors.split(separator: "\n").map(String.init).filter { $0.contains(":CONSOLE") }
    return BrowserRender(dom: result.output, console: console)
}

/// Writes the JUnit document `xml` to a temporary file and checks it with `.ci/check-junit` (the Ant schema
/// after fmeval's extensions are checked and taken out); records a failure when xmllint is missing.
@discardableResult
func checkJUnit(_ xml: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> ToolOutput {
    guard findExecutable("xmllint") != nil, let python = findExecutable("python3") else {
        Issue.record("xmllint or python3 is missing: install libxml2-utils (.ci/run does)", sourceLocation: sourceLocation)
        return ToolOutput(status: -1, output: "xmllint or python3 missing")
    }
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-junit-\(UUID().uuidString).xml")
    try Data(xml.utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    return try runTool(python, [junitChecker.path, file.path])
}

/// Writes `xml` to a temporary file and checks it is well-formed with `xmllint --noout`.
///
/// Records a test failure naming the missing package when xmllint is absent (the caller only runs
/// when it is present or in CI), and returns xmllint's output so tests can check its verdict.
@discardableResult
func xmllintWellFormed(_ xml: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> ToolOutput {
    guard let tool = findExecutable("xmllint") else {
        Issue.record("xmllint is missing: install Debian package libxml2-utils (.ci/run does)", sourceLocation: sourceLocation)
        return ToolOutput(status: -1, output: "xmllint missing")
    }
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-xml-\(UUID().uuidString).xml")
    try Data(xml.utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    return try runTool(tool, ["--noout", file.path])
}
