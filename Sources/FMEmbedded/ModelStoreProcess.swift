import Foundation

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

    /// Runs the program with `arguments`, calling `onLine` for each output line as it arrives.
    func run(_ arguments: [String], onLine: (String) -> Void = { _ in }) -> Result {
        let process = Process()
        if executable.contains("/") {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [executable] + arguments
        }
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return Result(status: 127, lines: ["cannot start \(executable): \(error.localizedDescription)"])
        }
        var lines: [String] = []
        var buffer: [UInt8] = []
        let reader = pipe.fileHandleForReading
        func flush(upTo end: Int) {
            let line = String(decoding: buffer[0 ..< end], as: UTF8.self)
            buffer.removeFirst(min(end + 1, buffer.count))
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { return }
            lines.append(line)
            onLine(line)
        }
        while true {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            buffer.append(contentsOf: chunk)
            while let end = buffer.firstIndex(where: { $0 == 10 || $0 == 13 }) { flush(upTo: end) }
        }
        if !buffer.isEmpty { flush(upTo: buffer.count) }
        process.waitUntilExit()
        let status = process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
        return Result(status: status, lines: lines)
    }
}
