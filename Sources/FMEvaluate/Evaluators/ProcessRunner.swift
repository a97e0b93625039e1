import Foundation

/// What a finished child process left behind.
struct ProcessOutput {
    /// Exit status.
    var status: Int32
    /// Everything written to stdout (UTF-8, invalid bytes replaced).
    var stdout: String
    /// Everything written to stderr.
    var stderr: String
}

/// Runs a program with input on stdin and a deadline, never blocking past it and never trapping.
enum ProcessRunner {
    /// A command that exits without reading stdin must not kill fmeval with SIGPIPE: ignore the signal once.
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Runs `argv` (looked up on PATH), feeding `stdin`; fails when it cannot start, times out or dies by a signal.
    static func run(argv: [String], stdin: Data, timeoutSeconds: Double, workingDirectory: String?) -> Result<ProcessOutput, EvaluatorFailure> {
        _ = ignoreBrokenPipes
        guard let program = argv.first, !program.isEmpty else {
            return .failure(EvaluatorFailure("the command has no program to run; give argv"))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = argv
        if let workingDirectory { process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory) }
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        do {
            try process.run()
        } catch {
            return .failure(EvaluatorFailure("cannot start '\(program)': \(error.localizedDescription)"))
        }
        let collected = Collected()
        let readers = DispatchGroup()
        for (handle, keyPath) in [(output.fileHandleForReading, \Collected.stdout), (errors.fileHandleForReading, \Collected.stderr)] {
            readers.enter()
            DispatchQueue.global().async {
                let data = handle.readDataToEndOfFile()
                collected.store(data, at: keyPath)
                readers.leave()
            }
        }
        DispatchQueue.global().async {
            // A command that exits without reading its input makes this write fail; that is not an error here.
            try? input.fileHandleForWriting.write(contentsOf: stdin)
            try? input.fileHandleForWriting.close()
        }
        let pid = process.processIdentifier
        // Foundation starts the command as the leader of its own process group (on Linux), so signalling
        // the group also ends children it left running; the command itself is signalled directly as well.
        let signalAll = { (signal: Int32) in
            _ = kill(-pid, signal)
            _ = kill(pid, signal)
        }
        if exited.wait(timeout: .now() + timeoutSeconds) == .timedOut {
            signalAll(SIGTERM)
            if exited.wait(timeout: .now() + 1) == .timedOut { signalAll(SIGKILL) }
            _ = kill(-pid, SIGKILL)
            _ = readers.wait(timeout: .now() + 1)
            return .failure(EvaluatorFailure("'\(program)' did not finish within \(formatScore(timeoutSeconds)) s and was killed"))
        }
        // Children the command left running may keep the pipes open: give them a moment, then end them.
        if readers.wait(timeout: .now() + 2) == .timedOut {
            _ = kill(-pid, SIGKILL)
            _ = readers.wait(timeout: .now() + 1)
        }
        if process.terminationReason == .uncaughtSignal {
            let stderr = collected.text(\.stderr)
            return .failure(EvaluatorFailure("'\(program)' crashed (signal \(process.terminationStatus))" + (stderr.isEmpty ? "" : "; stderr: \(abbreviate(stderr))")))
        }
        return .success(ProcessOutput(status: process.terminationStatus, stdout: collected.text(\.stdout), stderr: collected.text(\.stderr)))
    }
}

/// Output gathered by reader threads, behind a lock.
private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    var stdout = Data()
    var stderr = Data()

    /// Stores one stream's bytes.
    func store(_ data: Data, at keyPath: ReferenceWritableKeyPath<Collected, Data>) {
        lock.lock()
        self[keyPath: keyPath] = data
        lock.unlock()
    }

    /// One stream as text.
    func text(_ keyPath: KeyPath<Collected, Data>) -> String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: self[keyPath: keyPath], as: UTF8.self)
    }
}
