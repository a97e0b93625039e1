import FMEmbedded
import FaultServer
import Foundation
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A real llama.cpp `llama-server` on 127.0.0.1 serving the default SmolLM2 model, for integration
/// tests: the binary comes from `FMEVAL_LLAMA_SERVER` (see .ci/llama-server.sh). Tests run when that
/// variable or `CI` is set; under CI a missing binary is a failure, not a skip.
final class LlamaServer {
    /// Why a server could not be started.
    struct StartError: Error, CustomStringConvertible {
        /// What went wrong and what to do.
        let description: String
    }

    /// Whether the integration tests run at all.
    static var isWanted: Bool {
        let environment = ProcessInfo.processInfo.environment
        return environment["FMEVAL_LLAMA_SERVER"] != nil || environment["CI"] != nil
    }

    /// The flags that make the server's greedy output deterministic and equal to the embedded engine's.
    static let determinismFlags = ["-np", "1", "-fa", "off"]

    /// The features llama.cpp's CPU backend in the `FMEVAL_LLAMA_SERVER` binary was built with, as the binary
    /// reports them in its `system_info` line (`CPU : SSE3 = 1 | AVX = 1 | …`): it is started at trace
    /// verbosity on a model path that does not exist, prints the line, and exits.
    static let cpuFeatures: Result<Set<String>, StartError> = {
        guard let binary = ProcessInfo.processInfo.environment["FMEVAL_LLAMA_SERVER"], !binary.isEmpty else {
            return .failure(StartError(description: "FMEVAL_LLAMA_SERVER is not set"))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["-lv", "4", "-m", "/nonexistent/fmeval-probe.gguf", "--host", "127.0.0.1", "--no-webui"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        do { try process.run() } catch { return .failure(StartError(description: "cannot start \(binary): \(error)")) }
        let text = String(decoding: readToEnd(output.fileHandleForReading), as: UTF8.self)
        process.waitUntilExit()
        guard let line = text.split(separator: "\n").first(where: { $0.contains("system_info:") }),
              let cpu = line.range(of: "CPU : ") else {
            let tail = text.suffix(2000)
            return .failure(StartError(description: "\(binary) printed no system_info line at -lv 4:\n\(tail)"))
        }
        let pairs = line[cpu.upperBound...].split(separator: "|")
            .map { $0.split(separator: "=").map { $0.trimmingCharacters(in: .whitespaces) } }
        return .success(Set(pairs.filter { $0.count == 2 && $0[1] == "1" }.map { $0[0] }))
    }()

    /// Whether the server sums floats as the embedded engine does: ggml's f32 dot products and reductions
    /// run in as many lanes as the vectors it was built for hold, sixteen in an AVX-512 build, the order the
    /// engine reproduces on every CPU (docs/engine.md, "llama.cpp's own arithmetic"). An AVX2 build (eight
    /// lanes) or a NEON one (four) gives other greedy tokens, so the tests compare texts only with sixteen.
    static func sumsInSixteenLanes() throws -> Bool { try cpuFeatures.get().contains("AVX512") }

    /// The API root, e.g. `http://127.0.0.1:PORT/v1`.
    let baseURL: String
    private let process: Process
    private let log: URL

    /// Starts a server with a `contextSize`-token context on `threads` threads and waits until `/health`
    /// answers 200.
    init(contextSize: Int = 2048, threads: Int = 2) throws {
        guard let binary = ProcessInfo.processInfo.environment["FMEVAL_LLAMA_SERVER"], !binary.isEmpty else {
            throw StartError(description: "FMEVAL_LLAMA_SERVER is not set; build the server with .ci/llama-server.sh and export its path")
        }
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw StartError(description: "FMEVAL_LLAMA_SERVER=\(binary) is not an executable file; rerun .ci/llama-server.sh")
        }
        let model = try ModelStore.defaultModelURL { _ in }
        let port = try Self.freePort()
        baseURL = "http://127.0.0.1:\(port)/v1"
        log = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-llama-server-\(port).log")
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw StartError(description: "cannot create the server log \(log.path)")
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["-m", model.path, "--host", "127.0.0.1", "--port", String(port), "-c", String(contextSize),
                             "-t", String(threads), "--no-webui"] + Self.determinismFlags
        let output = try FileHandle(forWritingTo: log)
        process.standardOutput = output
        process.standardError = output
        try process.run()
        do {
            try waitForHealth(port: port)
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// Stops the server (SIGTERM, then SIGKILL after 5 s) and waits for it to exit.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// The last lines of the server's log, for failure messages.
    var logTail: String {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(15).joined(separator: "\n")
    }

    private func waitForHealth(port: UInt16) throws {
        let url = URL(string: "http://127.0.0.1:\(port)/health")!
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            guard process.isRunning else {
                throw StartError(description: "llama-server exited with status \(process.terminationStatus):\n\(logTail)")
            }
            if let status = Self.status(of: url), status == 200 { return }
            usleep(100_000)
        }
        throw StartError(description: "llama-server did not report healthy within 60 s:\n\(logTail)")
    }

    /// The HTTP status of a GET, or nil when nothing answers.
    private static func status(of url: URL) -> Int? {
        var request = URLRequest(url: url)
        request.timeoutInterval = 2
        let done = DispatchSemaphore(value: 0)
        let result = StatusBox()
        URLSession.shared.dataTask(with: request) { _, response, _ in
            result.set((response as? HTTPURLResponse)?.statusCode)
            done.signal()
        }.resume()
        done.wait()
        return result.get()
    }

    /// An ephemeral port on 127.0.0.1 that was free a moment ago.
    private static func freePort() throws -> UInt16 { try FaultServer.closedPort() }
}

/// A status code handed from a URL session callback to the waiting thread.
private final class StatusBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Int?

    func set(_ status: Int?) { lock.lock(); value = status; lock.unlock() }
    func get() -> Int? { lock.lock(); defer { lock.unlock() }; return value }
}
