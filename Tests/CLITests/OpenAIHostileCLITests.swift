import FaultServer
import Foundation
import Testing

/// `fmeval run --engine openai` against a hostile server: after each attack, no output (results, JUnit,
/// HTML, the history database, the cassette, stdout and stderr) holds the key in any case, no request
/// reaches another origin, and work that would never end is refused before it starts.
@Suite struct OpenAIHostileCLITests {
    static let canary = OpenAISecretsCLITests.canary

    static let suite = OpenAISecretsCLITests.suite

    /// One streamed event carrying `content` (JSON-escaped), finishing when `finish` is set.
    static func event(_ content: String, finish: Bool = false) -> String {
        let escaped = String(decoding: try! JSONSerialization.data(withJSONObject: [content]), as: UTF8.self).dropFirst().dropLast()
        return #"data: {"model":"m","choices":[{"delta":{"content":\#(escaped)},"finish_reason":\#(finish ? "\"stop\"" : "null")}]}"# + "\n\n"
    }

    /// The files under `folder` and the run's streams that hold the canary in any case (their names).
    func leaks(in folder: URL, _ run: CLIResult) -> [String] {
        let paths = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
        var texts = paths.compactMap { path in
            (try? Data(contentsOf: folder.appendingPathComponent(path))).map { (path, String(decoding: $0, as: UTF8.self)) }
        }
        texts += [("stdout", run.stdout), ("stderr", run.stderr)]
        return texts.filter { $0.1.lowercased().contains(Self.canary) }.map(\.0)
    }

    @Test func aHostileStreamLeavesTheKeyInNoOutput() throws {
        let elsewhere = try FaultServer { _ in .respond(status: 200, body: OpenAICLITests.completion("Rome.")) }
        defer { elsewhere.stop() }
        let upper = Self.canary.uppercased()
        let server = try FaultServer { request in
            if request.body.contains("Italy") {
                return .respond(status: 307, headers: [("Location", "\(elsewhere.baseURL)/chat/completions")], body: "")
            }
            if request.body.contains("Spain") {
                return .events([#"data: {"error":{"code":401,"message":"bad key \#(upper)"}}"# + "\n\n"])
            }
            let half = Self.canary.count / 2
            return .events([Self.event("Paris. You sent \(Self.canary.prefix(half))"), Self.event("\(Self.canary.dropFirst(half)) and "),
                            Self.event(upper, finish: true), "data: [DONE]\n\n"], pause: 0.02)
        }
        defer { server.stop() }
        let folder = try temporaryFolder()
        let suitePath = folder.appendingPathComponent("capitals.yaml").path
        try Self.suite.write(toFile: suitePath, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("out")
        let run = try runFMEval(["run", suitePath, "--engine", "openai", "--base-url", server.baseURL, "--model", "smollm2",
                                 "--engine-option", "apiKeyEnv=FMEVAL_CANARY_KEY", "--engine-option", "stream=true",
                                 "--engine-option", OpenAICLITests.instantRetries, "--jobs", "1", "-o", out.path,
                                 "--junit", out.appendingPathComponent("junit.xml").path,
                                 "--html", out.appendingPathComponent("report.html").path,
                                 "--record", out.appendingPathComponent("capitals.cassette.json").path,
                                 "--history", out.appendingPathComponent("history.sqlite").path],
                                environment: ["CI": "true", "FMEVAL_CANARY_KEY": Self.canary])
        #expect(run.status == 3, "italy's redirect and spain's error are errors: \(run.stdout)\(run.stderr)")
        #expect(elsewhere.requests.isEmpty, "the redirect was followed to another origin")
        let results = try Results(path: out.appendingPathComponent("results.json").path)
        #expect(results.statuses == ["france": "passed", "italy": "error", "spain": "error"])
        #expect(try results.attempts("france")[0]["text"] as? String == "Paris. You sent [redacted] and [redacted]")
        #expect((try results.error("italy")["message"] as? String)?.contains("another origin") == true)
        let written = FileManager.default.enumerator(atPath: out.path)?.compactMap { $0 as? String } ?? []
        for name in ["results.json", "junit.xml", "report.html", "capitals.cassette.json", "history.sqlite"] {
            #expect(written.contains(name), "\(name) was not written: \(written)")
        }
        #expect(leaks(in: folder, run).isEmpty, "the key is in \(leaks(in: folder, run))")
    }

    @Test func aPasswordInTheBaseURLIsRefusedBeforeAnythingIsStored() throws {
        let server = try FaultServer(OpenAICLITests.healthy)
        defer { server.stop() }
        let folder = try temporaryFolder()
        let suitePath = folder.appendingPathComponent("capitals.yaml").path
        try Self.suite.write(toFile: suitePath, atomically: true, encoding: .utf8)
        let base = "http://alice:\(Self.canary)@127.0.0.1:\(server.port)/v1"
        let run = try runFMEval(["run", suitePath, "--engine", "openai", "--base-url", base, "--model", "smollm2",
                                 "-o", folder.appendingPathComponent("out").path,
                                 "--history", folder.appendingPathComponent("history.sqlite").path], environment: ["CI": "true"])
        #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("--base-url") && run.stderr.contains("user name or password"), "\(run.stderr)")
        #expect(server.requests.isEmpty)
        #expect(leaks(in: folder, run).isEmpty, "the password is in \(leaks(in: folder, run))")
    }

    /// The peak resident memory (bytes) of `fmeval arguments`, measured by python3 as the child's `ru_maxrss`.
    func peakMemory(_ arguments: [String]) throws -> (CLIResult, Int) {
        let script = """
            import resource, subprocess, sys
            status = subprocess.call(sys.argv[1:])
            print("maxrss", resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024, file=sys.stderr)
            sys.exit(status)
            """
        let run = try runFMEval(arguments, environment: ["CI": "true"], executable: "/usr/bin/env",
                                prefix: ["python3", "-c", script, fmevalBinary().path])
        let line = run.stderr.split(separator: "\n").last { $0.hasPrefix("maxrss ") }
        return (run, line.flatMap { Int($0.dropFirst(7)) } ?? -1)
    }

    /// A 1 GiB body and a gzip bomb of 1 GiB of zeros, both sent as fast as the loopback allows, end as
    /// responseTooLarge with fmeval's memory near its idle size: URLSession is made to wait for the delegate.
    @Test func aHugeBodyOrAGzipBombKeepsMemoryBounded() throws {
        let huge = try FaultServer { _ in
            .bulk(headers: [("Content-Type", "application/json")], prefix: Array(#"{"x":""#.utf8),
                  filler: [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20), count: 1024)
        }
        defer { huge.stop() }
        let bomb = GzipBomb.zeros(1 << 30)
        let zipped = try FaultServer { _ in
            .bulk(headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")], prefix: bomb)
        }
        defer { zipped.stop() }
        for server in [huge, zipped] {
            let (run, peak) = try peakMemory(["respond", "--engine", "openai", "--base-url", server.baseURL,
                                              "--model", "m", "hi"])
            #expect(run.status == 3, "\(run.stdout)\(run.stderr)")
            #expect(run.stderr.contains("maxResponseBytes (8388608 bytes"), "\(run.stderr)")
            #expect(peak > 0 && peak < 160 << 20, "peak resident memory \(peak >> 20) MiB: \(run.stderr)")
        }
    }

    @Test func workWithoutEndIsRefusedBeforeItStarts() throws {
        let folder = try temporaryFolder()
        let suitePath = folder.appendingPathComponent("capitals.yaml").path
        try Self.suite.write(toFile: suitePath, atomically: true, encoding: .utf8)
        for value in ["1e9", "1000000000", "10001"] {
            let run = try runFMEval(["run", suitePath, "--engine", "openai", "--base-url", "http://127.0.0.1:9/v1", "--model", "m",
                                     "--repeat", value, "--json", folder.appendingPathComponent("r.json").path], environment: ["CI": "true"])
            #expect(run.status == 2)
            #expect(run.stderr.contains("--repeat expects an integer from 1 to 10000, got '\(value)'"), "\(run.stderr)")
        }
        try (Self.suite + "\n    repeat: 20000\n").write(toFile: suitePath, atomically: true, encoding: .utf8)
        let capped = try runFMEval(["validate", suitePath], environment: ["CI": "true"])
        #expect(capped.status == 2)
        #expect(capped.stderr.contains("capitals.yaml:") && capped.stderr.contains("repeat must be at most 10000"), "\(capped.stderr)")

        let many = "suite: many\ncases:\n" + (0..<101).map { "  - id: c\($0)\n    prompt: p\($0)\n    repeat: 10000\n" }.joined()
        try many.write(toFile: suitePath, atomically: true, encoding: .utf8)
        let total = try runFMEval(["run", suitePath, "--engine", "openai", "--base-url", "http://127.0.0.1:9/v1", "--model", "m",
                                   "--json", folder.appendingPathComponent("r.json").path], environment: ["CI": "true"])
        #expect(total.status == 2)
        #expect(total.stderr.contains("1010000 attempts, over fmeval's cap of 1000000"), "\(total.stderr)")
    }
}
