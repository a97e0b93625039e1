import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a finished (or killed) command produced.
public struct CommandResult: Sendable {
    /// Exit status, or 128 + the signal number for a command ended by a signal.
    public var status: Int32
    /// Everything written to stdout.
    public var stdout: Data
    /// The last few hundred characters of stderr, trimmed.
    public var stderrTail: String
    /// Whether the time limit killed it.
    public var timedOut: Bool
}

/// Runs external programs with stdin, a time limit and captured output (command tools).
///
/// The command runs in its own process group, so a timeout kills it together with every child it started.
public enum CommandRunner {
    /// A command that could not be started.
    public struct Failure: Error, CustomStringConvertible {
        /// Why.
        public var description: String
    }

    /// Runs `argv` (a program found on PATH unless it contains `/`), feeding `stdin`, killing its process
    /// group after `timeoutSeconds`. Throws `Failure` only when it cannot start.
    public static func run(_ argv: [String], stdin: Data, timeoutSeconds: Double, directory: String? = nil,
                           environment: [String: String] = [:]) throws -> CommandResult {
        guard !argv.isEmpty else { throw Failure(description: "the command is empty") }
        signal(SIGPIPE, SIG_IGN)
        var input: [Int32] = [0, 0], output: [Int32] = [0, 0], errors: [Int32] = [0, 0]
        guard pipe(&input) == 0, pipe(&output) == 0, pipe(&errors) == 0 else {
            throw Failure(description: "cannot create pipes: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        for fd in input + output + errors { posix_spawn_file_actions_addclose(&actions, fd) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF))

        var program = argv[0].contains("/") ? argv[0] : "/usr/bin/env"
        var arguments = argv[0].contains("/") ? argv : ["env"] + argv
        if let directory {
            // posix_spawn has no portable chdir action: a shell changes directory, then becomes the command.
            arguments = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", directory, program] + arguments.dropFirst()
            program = "/bin/sh"
        }
        let variables = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }.map { "\($0)=\($1)" }
        var cArguments = arguments.map { strdup($0) } + [nil]
        var cEnvironment = variables.map { strdup($0) } + [nil]
        defer { (cArguments + cEnvironment).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, program, &actions, &attributes, &cArguments, &cEnvironment)
        [input[0], output[1], errors[1]].forEach { close($0) }
        guard spawned == 0 else {
            [input[1], output[0], errors[0]].forEach { close($0) }
            throw Failure(description: "cannot start \(argv[0]): \(String(cString: strerror(spawned)))")
        }

        let group = DispatchGroup()
        let outData = DataBox(), errData = DataBox()
        for (fd, box) in [(output[0], outData), (errors[0], errData)] {
            group.enter()
            Thread.detachNewThread {
                box.set(readAll(fd))
                close(fd)
                group.leave()
            }
        }
        let stdinFD = input[1]
        Thread.detachNewThread {
            // A command that exits without reading stdin closes the pipe: the write error is expected.
            stdin.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let written = write(stdinFD, raw.baseAddress! + offset, raw.count - offset)
                    if written <= 0 { break }
                    offset += written
                }
            }
            close(stdinFD)
        }

        let deadline = Date().addingTimeInterval(timeoutSeconds)
        var status: Int32 = 0
        var timedOut = false
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid || reaped < 0 { break }
            if Date() >= deadline {
                timedOut = true
                kill(-pid, SIGKILL)
                waitpid(pid, &status, 0)
                break
            }
            usleep(2_000)
        }
        if !timedOut { kill(-pid, SIGKILL) }
        _ = group.wait(timeout: .now() + 2)
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let tail = String(decoding: errData.get().suffix(400), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return CommandResult(status: exitStatus, stdout: timedOut ? Data() : outData.get(), stderrTail: tail, timedOut: timedOut)
    }

    private static func readAll(_ fd: Int32) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                data.append(contentsOf: buffer[0..<count])
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return data
            }
        }
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
