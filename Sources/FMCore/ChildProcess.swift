import Foundation
import FMSpawn
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One program to run: what, with which input, environment, limits and redaction.
public struct ChildRequest: Sendable {
    /// The program and its arguments; a program without `/` is looked up on the child's `PATH`.
    public var argv: [String]
    /// Bytes fed to stdin, which is then closed; nil connects stdin to /dev/null.
    public var stdin: Data?
    /// The complete environment of the child (nothing else is inherited).
    public var environment: [String: String]
    /// The working directory; nil or empty keeps fmeval's.
    public var directory: String?
    /// Seconds before the process group gets SIGTERM, then SIGKILL; nil waits for ever.
    public var timeoutSeconds: Double?
    /// The most bytes kept of each stream; the total written is still counted.
    public var outputLimit: Int
    /// Whether stderr goes into the stdout stream (in order).
    public var mergeStderr: Bool
    /// Secrets replaced in the captured streams before anything else sees them.
    public var redactor: SecretRedactor?

    /// Creates a request.
    public init(argv: [String], stdin: Data? = nil, environment: [String: String], directory: String? = nil,
                timeoutSeconds: Double? = nil, outputLimit: Int = ChildProcess.defaultOutputLimit,
                mergeStderr: Bool = false, redactor: SecretRedactor? = nil) {
        self.argv = argv
        self.stdin = stdin
        self.environment = environment
        self.directory = directory
        self.timeoutSeconds = timeoutSeconds
        self.outputLimit = outputLimit
        self.mergeStderr = mergeStderr
        self.redactor = redactor
    }
}

/// What a finished (or stopped) child left behind.
public struct ChildOutcome: Sendable {
    /// The exit status, or 128 + the signal number for a child ended by a signal.
    public var status: Int32
    /// The signal that ended the child; nil when it exited.
    public var signal: Int32?
    /// Whether the time limit stopped it.
    public var timedOut: Bool
    /// The kept stdout bytes (redacted, at most `outputLimit`, cut on a UTF-8 character boundary).
    public var stdout: Data
    /// The kept stderr bytes (empty when merged into stdout).
    public var stderr: Data
    /// How many bytes the child wrote to stdout in all.
    public var stdoutBytes: Int
    /// How many bytes the child wrote to stderr in all.
    public var stderrBytes: Int
    /// Whether stdout was cut at the limit.
    public var stdoutTruncated: Bool
    /// Whether stderr was cut at the limit.
    public var stderrTruncated: Bool
}

/// A program that could not be run at all.
public struct ChildProcessError: Error, CustomStringConvertible, Sendable {
    /// What went wrong and what to do.
    public var description: String

    /// Creates an error.
    public init(_ description: String) { self.description = description }
}

/// The one way fmeval runs other programs (command tools, command evaluators, the model fetch).
///
/// Each child runs in its own process group with exactly the environment asked for, default signal
/// dispositions and an empty signal mask; on Linux below a keeper (`fms_spawn`) that ends whatever it
/// left running, a `setsid()` daemon included, when it exits or when fmeval ends, however it ends.
/// Every pipe is close-on-exec, so parallel children never inherit each other's pipes. Output is captured up to a limit (the total is still counted). A timeout
/// sends SIGTERM to the whole group, then SIGKILL after a grace second; when the child exits, whatever
/// it left running in its group is killed. fmeval's own signal dispositions are never changed.
public enum ChildProcess {
    /// The default number of bytes kept per stream (64 KiB).
    public static let defaultOutputLimit = 65_536
    /// Seconds between SIGTERM and SIGKILL.
    public static let graceSeconds = 1.0

    /// Runs `request` to the end; `onOutput` sees each stdout chunk as it arrives (before redaction).
    /// Throws `ChildProcessError` only when the program cannot be started. Once `terminateAll` ran, the
    /// calling thread never returns (fmeval is exiting).
    public static func run(_ request: ChildRequest, onOutput: ((Data) -> Void)? = nil) throws -> ChildOutcome {
        guard let program = request.argv.first, !program.isEmpty else {
            throw ChildProcessError("the command is empty; give the program and its arguments")
        }
        let executable = try locate(program, in: request)
        var previousMask = sigset_t()
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        // A write to a child that stopped reading must fail with EPIPE in this thread, not end fmeval.
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previousMask)
        defer {
            var pending = sigset_t()
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 {
                var zero = timespec(tv_sec: 0, tv_nsec: 0)
                _ = sigtimedwait(&pipeSignal, nil, &zero)
            }
            pthread_sigmask(SIG_SETMASK, &previousMask, nil)
        }
        let pipes = try ChildPipes(stdin: request.stdin != nil, mergeStderr: request.mergeStderr)
        let pid: pid_t
        do {
            pid = try ChildRegistry.shared.spawn { try spawn(executable, request, pipes) }
        } catch {
            pipes.closeAll()
            throw error
        }
        pipes.closeChildEnds()
        let outcome = Collector(pid: pid, pipes: pipes, request: request, onOutput: onOutput).run()
        ChildRegistry.shared.remove(pid)
        // A child cut short by fmeval's own SIGINT/SIGTERM did not really finish: report nothing.
        if ChildRegistry.shared.interrupted { ChildRegistry.parkUntilExit() }
        return outcome
    }

    /// Stops starting children and ends every running child's process group: SIGTERM, then SIGKILL for
    /// groups still alive after `grace` seconds. Returns when every child was reaped or killed; the
    /// caller then exits.
    public static func terminateAll(grace: Double = graceSeconds) {
        ChildRegistry.shared.terminateAll(grace: grace)
    }

    private static func locate(_ program: String, in request: ChildRequest) throws -> String {
        if program.contains("/") {
            guard access(program, X_OK) == 0 else {
                throw ChildProcessError("cannot start \(program): \(String(cString: strerror(errno)))")
            }
            return program
        }
        let path = request.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (folder.isEmpty ? "." : String(folder)) + "/" + program
            var info = stat()
            if access(candidate, X_OK) == 0, stat(candidate, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR {
                return candidate
            }
        }
        throw ChildProcessError("cannot start \(program): not found on PATH (\(path)); give its path or pass PATH in the suite's environment")
    }

    private static func spawn(_ executable: String, _ request: ChildRequest, _ pipes: ChildPipes) throws -> pid_t {
        let arguments = [executable] + request.argv.dropFirst()
        let variables = request.environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        var cArguments = arguments.map { strdup($0) } + [nil]
        var cEnvironment = variables.map { strdup($0) } + [nil]
        let directory = request.directory.flatMap { $0.isEmpty ? nil : strdup($0) }
        defer { (cArguments + cEnvironment + [directory]).forEach { free($0) } }
        var pid: pid_t = 0
        let result = fms_spawn(&pid, executable, &cArguments, &cEnvironment, pipes.input?.read ?? -1, pipes.output.write,
                               pipes.errors?.write ?? pipes.output.write, directory)
        guard result == 0 else {
            let directory = request.directory.flatMap { $0.isEmpty ? nil : " in \($0)" } ?? ""
            throw ChildProcessError("cannot start \(request.argv[0])\(directory): \(String(cString: strerror(result)))")
        }
        return pid
    }
}

/// The live children's process groups, so a signal to fmeval can end them all.
// @unchecked Sendable: `live` and `stopping` are read and changed only under `lock`.
final class ChildRegistry: @unchecked Sendable {
    static let shared = ChildRegistry()
    private let lock = NSLock()
    private var live: Set<pid_t> = []
    private var stopping = false

    var interrupted: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopping
    }

    /// Spawns under the lock, so no child starts unregistered or after `terminateAll`.
    func spawn(_ start: () throws -> pid_t) throws -> pid_t {
        lock.lock()
        if stopping {
            lock.unlock()
            Self.parkUntilExit()
        }
        defer { lock.unlock() }
        let pid = try start()
        live.insert(pid)
        return pid
    }

    /// Holds the calling thread until fmeval exits: once fmeval stops on a signal, no command starts and
    /// no cut-short command reports back, so nothing half-done reaches the journal or the results.
    static func parkUntilExit() -> Never {
        while true { sleep(3600) }
    }

    func remove(_ pid: pid_t) {
        lock.lock()
        live.remove(pid)
        lock.unlock()
    }

    func terminateAll(grace: Double) {
        lock.lock()
        stopping = true
        let groups = live
        lock.unlock()
        // A descendant that called setsid() is outside its command's group: it is signalled by pid.
        let below = groups.flatMap { ChildProcessTree.descendants(of: $0) }
        ChildProcessTree.signal(below, SIGTERM)
        for pid in groups { kill(-pid, SIGTERM) }
        let deadline = Date().addingTimeInterval(grace)
        while Date() < deadline {
            lock.lock()
            let remaining = live
            lock.unlock()
            if remaining.isEmpty { break }
            usleep(10_000)
        }
        lock.lock()
        let remaining = live
        lock.unlock()
        ChildProcessTree.signal(below + remaining.flatMap { ChildProcessTree.descendants(of: $0) }, SIGKILL)
        for pid in remaining { kill(-pid, SIGKILL) }
    }
}

extension ChildProcessError: ClassifiedError {
    /// A program that cannot start is infrastructure.
    public var failureClass: FailureClass { .infrastructure }

    /// `ChildProcessError`.
    public var domain: String { "ChildProcessError" }

    /// `cannotStart`.
    public var caseName: String { "cannotStart" }

    /// The description.
    public var failureMessage: String { description }
}
