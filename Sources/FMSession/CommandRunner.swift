import Foundation

/// What a finished (or killed) command produced.
public struct CommandResult: Sendable {
    /// Exit status (or the signal number for a killed process).
    public var status: Int32
    /// Everything written to stdout.
    public var stdout: Data
    /// The last few hundred characters of stderr, trimmed.
    public var stderrTail: String
    /// Whether the time limit killed it.
    public var timedOut: Bool
}

/// Runs external programs with stdin, a time limit and captured output: command tools and command evaluators.
public enum CommandRunner {
    /// A command that could not be started.
    public struct Failure: Error, CustomStringConvertible {
        /// Why.
        public var description: String
    }

    /// Runs `argv` (a program found on PATH unless it contains `/`), feeding `stdin`, killing it after
    /// `timeoutSeconds`. Throws `Failure` only when it cannot start.
    public static func run(_ argv: [String], stdin: Data, timeoutSeconds: Double, directory: String? = nil,
                           environment: [String: String] = [:]) throws -> CommandResult {
        guard let program = argv.first else { throw Failure(description: "the command is empty") }
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        if program.contains("/") {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = Array(argv.dropFirst())
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = argv
        }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        do {
            try process.run()
        } catch {
            throw Failure(description: "cannot start \(program): \(error.localizedDescription)")
        }
        let group = DispatchGroup()
        let outData = DataBox(), errData = DataBox()
        for (pipe, box) in [(output, outData), (errors, errData)] {
            group.enter()
            DispatchQueue.global().async {
                box.set(pipe.fileHandleForReading.readDataToEndOfFile())
                group.leave()
            }
        }
        DispatchQueue.global().async {
            // A command that exits without reading stdin closes the pipe: ignore the write error (SIGPIPE is ignored).
            try? input.fileHandleForWriting.write(contentsOf: stdin)
            try? input.fileHandleForWriting.close()
        }
        var timedOut = false
        if finished.wait(timeout: .now() + timeoutSeconds) == .timedOut {
            timedOut = true
            process.terminate()
            if finished.wait(timeout: .now() + 1) == .timedOut {
                kill(process.processIdentifier, SIGKILL)
                finished.wait()
            }
        }
        if timedOut {
            // A killed command's children may still hold the pipes open; do not wait for them.
            return CommandResult(status: process.terminationStatus, stdout: Data(), stderrTail: "", timedOut: true)
        }
        group.wait()
        let tail = String(decoding: errData.get().suffix(400), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return CommandResult(status: process.terminationStatus, stdout: outData.get(), stderrTail: tail, timedOut: timedOut)
    }
}

/// A lock-protected buffer filled by a reader thread.
private final class DataBox: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    func set(_ value: Data) {
        lock.lock()
        data = value
        lock.unlock()
    }

    func get() -> Data {
        lock.lock()
        defer { lock.unlock() }
        return data
    }
}
