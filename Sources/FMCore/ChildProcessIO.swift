import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// glibc functions the Swift Glibc module does not show (they need _GNU_SOURCE), looked up once.
enum LibC {
    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32

    private static let pipe2Function: Pipe2? = dlsym(nil, "pipe2").map { unsafeBitCast($0, to: Pipe2.self) }

    /// `pipe2(2)`: a pipe whose ends get `flags` (O_CLOEXEC) atomically.
    static func pipe2(_ fds: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32 {
        guard let pipe2Function else {
            errno = ENOSYS
            return -1
        }
        return pipe2Function(fds, flags)
    }
}

/// One pipe's two ends.
struct PipeEnds {
    var read: Int32
    var write: Int32
}

/// The pipes between fmeval and one child, all close-on-exec (the child gets its ends by dup2).
struct ChildPipes {
    /// stdin (nil: /dev/null).
    let input: PipeEnds?
    /// stdout (and stderr when merged).
    let output: PipeEnds
    /// stderr (nil when merged into stdout).
    let errors: PipeEnds?

    init(stdin: Bool, mergeStderr: Bool) throws {
        var made: [PipeEnds] = []
        func make() throws -> PipeEnds {
            var fds: [Int32] = [-1, -1]
            guard LibC.pipe2(&fds, O_CLOEXEC) == 0 else {
                let reason = String(cString: strerror(errno))
                made.forEach { close($0.read); close($0.write) }
                throw ChildProcessError("cannot create a pipe: \(reason)")
            }
            let ends = PipeEnds(read: fds[0], write: fds[1])
            made.append(ends)
            return ends
        }
        input = stdin ? try make() : nil
        output = try make()
        errors = mergeStderr ? nil : try make()
        for fd in [input?.write, output.read, errors?.read].compactMap({ $0 }) {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
    }

    /// Closes the ends the child now holds.
    func closeChildEnds() {
        [input?.read, output.write, errors?.write].compactMap { $0 }.forEach { close($0) }
    }

    /// Closes every end (the child never started).
    func closeAll() {
        closeChildEnds()
        [input?.write, output.read, errors?.read].compactMap { $0 }.forEach { close($0) }
    }
}

/// Bytes kept from one stream, with the total written.
struct StreamBuffer {
    var kept = Data()
    var total = 0
    let capacity: Int

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        total += bytes.count
        let room = capacity - kept.count
        if room > 0 { kept.append(contentsOf: bytes.prefix(room)) }
    }

    /// The kept bytes redacted, then cut to `limit` on a UTF-8 character boundary when the stream was longer.
    func finished(limit: Int, redactor: SecretRedactor?) -> (data: Data, truncated: Bool) {
        var data = redactor?.redact(kept) ?? kept
        guard total > limit else { return (data, false) }
        if data.count > limit {
            var cut = data.startIndex + limit
            while cut > data.startIndex, data[cut] & 0xC0 == 0x80 { cut -= 1 }
            data = data[data.startIndex ..< cut]
        }
        return (Data(data), true)
    }
}

/// Feeds stdin, drains stdout/stderr, enforces the deadline and reaps one child.
struct Collector {
    let pid: pid_t
    let pipes: ChildPipes
    let request: ChildRequest
    let onOutput: ((Data) -> Void)?

    func run() -> ChildOutcome {
        // Secrets are redacted before the cut, so the buffer keeps enough past the limit to see a whole one.
        let capacity = request.outputLimit + (request.redactor?.longestSecret ?? 0) + 16
        var out = StreamBuffer(capacity: capacity), err = StreamBuffer(capacity: capacity)
        var outFD: Int32? = pipes.output.read, errFD: Int32? = pipes.errors?.read, inFD: Int32? = pipes.input?.write
        let input = request.stdin ?? Data()
        var written = 0
        if input.isEmpty, let fd = inFD { close(fd); inFD = nil }
        let started = Date()
        var exitedAt: Date?, termSentAt: Date?
        var timedOut = false, killSent = false
        var stragglers: [(pid: pid_t, start: UInt64)] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)

        while true {
            if exitedAt == nil, hasExited() {
                exitedAt = Date()
                // Whatever the child left running in its group goes with it, and so do the descendants
                // of a timed-out child that left the group (setsid) and outlived it.
                kill(-pid, SIGKILL)
                ChildProcessTree.signal(stragglers, SIGKILL)
            }
            if let exitedAt, outFD == nil && errFD == nil || Date().timeIntervalSince(exitedAt) > 1 { break }
            if exitedAt == nil, let limit = request.timeoutSeconds, termSentAt == nil, Date().timeIntervalSince(started) >= limit {
                timedOut = true
                termSentAt = Date()
                // A descendant that called setsid() left the group: it is signalled by pid.
                stragglers = ChildProcessTree.descendants(of: pid)
                ChildProcessTree.signal(stragglers, SIGTERM)
                kill(-pid, SIGTERM)
            }
            if exitedAt == nil, let sent = termSentAt, Date().timeIntervalSince(sent) >= ChildProcess.graceSeconds {
                if !killSent { ChildProcessTree.signal(ChildProcessTree.descendants(of: pid), SIGKILL) }
                killSent = true
                kill(-pid, SIGKILL)
            }
            var polled: [pollfd] = []
            for fd in [outFD, errFD].compactMap({ $0 }) { polled.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
            if let fd = inFD { polled.append(pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)) }
            _ = poll(&polled, nfds_t(polled.count), 10)
            for entry in polled where entry.revents != 0 {
                if entry.fd == inFD {
                    let count = input.withUnsafeBytes { raw in write(entry.fd, raw.baseAddress! + written, raw.count - written) }
                    if count > 0 { written += count }
                    if written >= input.count || (count < 0 && errno != EAGAIN && errno != EINTR) || count == 0 {
                        close(entry.fd)
                        inFD = nil
                    }
                    continue
                }
                let count = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    buffer.withUnsafeBytes { raw in
                        let chunk = UnsafeRawBufferPointer(rebasing: raw[0 ..< count])
                        if entry.fd == outFD {
                            out.append(chunk)
                            onOutput?(Data(chunk))
                        } else {
                            err.append(chunk)
                        }
                    }
                } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                    close(entry.fd)
                    if entry.fd == outFD { outFD = nil } else { errFD = nil }
                }
            }
        }
        [outFD, errFD, inFD].compactMap { $0 }.forEach { close($0) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal: Int32? = (status & 0x7f) == 0 ? nil : status & 0x7f
        let stdout = out.finished(limit: request.outputLimit, redactor: request.redactor)
        let stderr = err.finished(limit: request.outputLimit, redactor: request.redactor)
        return ChildOutcome(status: signal.map { 128 + $0 } ?? (status >> 8) & 0xff, signal: signal, timedOut: timedOut,
                            stdout: stdout.data, stderr: stderr.data, stdoutBytes: out.total, stderrBytes: err.total,
                            stdoutTruncated: stdout.truncated, stderrTruncated: stderr.truncated)
    }

    /// Whether the child has exited, without reaping it (its pid, and so its group id, stays reserved).
    private func hasExited() -> Bool {
        var info = siginfo_t()
        info.si_signo = 0
        return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_signo == SIGCHLD
    }
}
