import Foundation
import FMCore

/// Runs a helper program (python3) for the model store, streaming its output lines to a callback.
struct ModelStoreProcess {
    /// The outcome of one run.
    struct Result {
        /// The exit status (127 when the program could not be started).
        var status: Int32
        /// Every non-blank output line (stdout and stderr interleaved), without line ends.
        var lines: [String]

        /// The last `count` lines, indented and joined for an error message.
        func tail(_ count: Int = 6) -> String {
            lines.suffix(count).map { "    " + $0 }.joined(separator: "\n")
        }
    }

    /// The program's path or name (looked up on `PATH` when it has no slash).
    let executable: String
    /// The environment the program runs with.
    let environment: [String: String]

    /// Runs the program with `arguments` (stdin empty, its own process group, stdout and stderr merged),
    /// calling `onLine` for each output line as it arrives.
    func run(_ arguments: [String], onLine: (String) -> Void = { _ in }) -> Result {
        var lines: [String] = []
        var buffer: [UInt8] = []
        func flush(upTo end: Int, _ emit: (String) -> Void) {
            let line = String(decoding: buffer[0 ..< end], as: UTF8.self)
            buffer.removeFirst(min(end + 1, buffer.count))
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { return }
            lines.append(line)
            emit(line)
        }
        let outcome: ChildOutcome
        do {
            outcome = try withoutActuallyEscaping(onLine) { emit in
                try ChildProcess.run(ChildRequest(argv: [executable] + arguments, environment: environment, mergeStderr: true)) { chunk in
                    buffer.append(contentsOf: chunk)
                    while let end = buffer.firstIndex(where: { $0 == 10 || $0 == 13 }) { flush(upTo: end, emit) }
                }
            }
        } catch {
            return Result(status: 127, lines: ["\(error)"])
        }
        if !buffer.isEmpty { flush(upTo: buffer.count, onLine) }
        return Result(status: outcome.status, lines: lines)
    }
}
