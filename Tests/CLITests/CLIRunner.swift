import Foundation
import TestSupport

/// What one run of the `fmeval` binary produced.
struct CLIResult {
    /// Process exit status.
    var status: Int32
    /// Everything written to standard output.
    var stdout: String
    /// Everything written to standard error.
    var stderr: String
}

/// Runs the real `fmeval` executable built beside the test bundle (or `$FMEVAL_BIN`).
///
/// `stdin` is written to the process's standard input; `environment` adds to the inherited one;
/// `directory` is the working directory (default: the package root). With `executable`, that program
/// runs instead, with `prefix` before `arguments` (a shell that sets limits, then execs fmeval).
func runFMEval(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:],
               directory: URL? = nil, executable: String? = nil, prefix: [String] = []) throws -> CLIResult {
    let process = Process()
    process.executableURL = executable.map { URL(fileURLWithPath: $0) } ?? fmevalBinary()
    process.arguments = prefix + arguments
    process.currentDirectoryURL = directory ?? packageRoot
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    let out = Pipe(), err = Pipe(), input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try input.fileHandleForWriting.close()
    // Read both pipes concurrently so a chatty process cannot block on a full pipe.
    let errBox = DataBox()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
        errBox.data = readToEnd(err.fileHandleForReading)
        group.leave()
    }
    let outData = readToEnd(out.fileHandleForReading)
    group.wait()
    let errData = errBox.data
    process.waitUntilExit()
    return CLIResult(status: process.terminationStatus,
                     stdout: String(decoding: outData, as: UTF8.self),
                     stderr: String(decoding: errData, as: UTF8.self))
}

/// The package root (the folder holding Package.swift), found from this source file's path.
let packageRoot: URL = {
    var url = URL(fileURLWithPath: #filePath)
    while url.path != "/" {
        url.deleteLastPathComponent()
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
    }
    return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
}()

/// `reference/` in the package root: the real files our formats conform to (see reference/README.md).
let referenceDirectory = packageRoot.appendingPathComponent("reference")

/// The built `fmeval` executable: `$FMEVAL_BIN`, else the products folder that holds the test bundle.
func fmevalBinary() -> URL {
    if let path = ProcessInfo.processInfo.environment["FMEVAL_BIN"] { return URL(fileURLWithPath: path) }
    var candidates: [URL] = [Bundle.main.bundleURL.deletingLastPathComponent()]
    candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
    for folder in candidates {
        var url = folder
        for _ in 0..<4 {
            let binary = url.appendingPathComponent("fmeval")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: binary.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                return binary
            }
            url.deleteLastPathComponent()
        }
    }
    return packageRoot.appendingPathComponent(".build/debug/fmeval")
}

/// Holds the bytes one reader thread collects; `DispatchGroup.wait()` orders its write before the read.
// @unchecked Sendable: one thread writes `data`, and the reader reads it only after `DispatchGroup.wait()`.
private final class DataBox: @unchecked Sendable {
    var data = Data()
}
