import FaultServer
import Foundation
import Testing

/// The API key goes out only in the Authorization header: a server that echoes it in error bodies, in
/// a response's text and in its model name leaves no trace of it in any file or stream fmeval writes.
@Suite struct OpenAISecretsCLITests {
    static let canary = "sk-canary-7f3a9c2e5b1d4e60"

    static let suite = OpenAICLITests.suite + """

      - id: spain
        prompt: What is the capital of Spain?
        expect: { contains: Madrid }
    """

    /// Echoes the Authorization header back: in a 429 body (france's first try), a 401 body (spain), and in
    /// the text and model name of the answers.
    static func echo(_ request: FaultServer.Request) -> FaultServer.Reply {
        let authorization = request.header("Authorization") ?? "none"
        if request.body.contains("Spain") {
            return .respond(status: 401, body: #"{"error":{"message":"invalid key \#(authorization)"}}"#)
        }
        if request.body.contains("France") && request.index == 0 {
            return .respond(status: 429, headers: [("Retry-After", "0")], body: "slow down, \(authorization)")
        }
        let capital = request.body.contains("France") ? "Paris" : "Rome"
        return .respond(status: 200, body: OpenAICLITests.completion("\(capital). You sent \(authorization)")
            .replacingOccurrences(of: "smollm2-served", with: "served-for-\(authorization)"))
    }

    /// Every file under `folder`, as text.
    func everyFile(in folder: URL) throws -> [(String, String)] {
        let paths = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
        return paths.compactMap { path in
            let url = folder.appendingPathComponent(path)
            return (try? Data(contentsOf: url)).map { (path, String(decoding: $0, as: UTF8.self)) }
        }
    }

    @Test func theKeyIsInNoOutput() throws {
        let server = try FaultServer(Self.echo)
        defer { server.stop() }
        let folder = try temporaryFolder()
        let suitePath = folder.appendingPathComponent("capitals.yaml").path
        try Self.suite.write(toFile: suitePath, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("out")
        let cassette = out.appendingPathComponent("capitals.cassette.json").path
        let environment = ["CI": "true", "FMEVAL_CANARY_KEY": Self.canary]
        let run = try runFMEval(["run", suitePath, "--engine", "openai", "--base-url", server.baseURL, "--model", "smollm2",
                                 "--engine-option", "apiKeyEnv=FMEVAL_CANARY_KEY", "--engine-option", OpenAICLITests.instantRetries,
                                 "--jobs", "1", "-o", out.path, "--junit", out.appendingPathComponent("junit.xml").path,
                                 "--html", out.appendingPathComponent("report.html").path, "--record", cassette],
                                environment: environment)
        #expect(run.status == 3, "spain's 401 is an error: \(run.stdout)\(run.stderr)")
        #expect(server.requests.allSatisfy { $0.header("Authorization") == "Bearer \(Self.canary)" })
        #expect(server.requests.allSatisfy { !$0.body.contains(Self.canary) })
        let results = try Results(path: out.appendingPathComponent("results.json").path)
        #expect(results.statuses == ["france": "passed", "italy": "passed", "spain": "error"])
        #expect((try results.error("spain")["message"] as? String)?.contains("Bearer [redacted]") == true)

        let files = try everyFile(in: out)
        for name in ["results.json", "junit.xml", "report.html", "capitals.cassette.json"] {
            #expect(files.contains { $0.0 == name }, "\(name) was not written: \(files.map(\.0))")
        }
        for (name, text) in files { #expect(!text.contains(Self.canary), "\(name) holds the key") }
        #expect(!run.stdout.contains(Self.canary) && !run.stderr.contains(Self.canary))

        let replayed = try runFMEval(["run", suitePath, "--cassette", cassette, "-k", "!id:*spain*",
                                      "--json", folder.appendingPathComponent("replayed.json").path], environment: ["CI": "true"])
        #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)")
        let again = try Results(path: folder.appendingPathComponent("replayed.json").path)
        #expect(again.statuses == ["france": "passed", "italy": "passed"])
        #expect(try again.attempts("france")[0]["text"] as? String == (try results.attempts("france")[0]["text"] as? String))
    }

    @Test func theJournalOfAnInterruptedRunHoldsNoKey() throws {
        let server = try FaultServer { request in
            request.body.contains("Spain") ? .respond(status: 200, body: OpenAICLITests.completion("Madrid."), delay: 30) : Self.echo(request)
        }
        defer { server.stop() }
        let folder = try temporaryFolder()
        let suitePath = folder.appendingPathComponent("capitals.yaml").path
        try Self.suite.write(toFile: suitePath, atomically: true, encoding: .utf8)
        let json = folder.appendingPathComponent("results.json").path
        let process = Process()
        process.executableURL = fmevalBinary()
        process.arguments = ["run", suitePath, "--engine", "openai", "--base-url", server.baseURL, "--model", "smollm2",
                             "--engine-option", "apiKeyEnv=FMEVAL_CANARY_KEY", "--engine-option", OpenAICLITests.instantRetries,
                             "--jobs", "1", "--json", json]
        process.environment = ProcessInfo.processInfo.environment.merging(["CI": "true", "FMEVAL_CANARY_KEY": Self.canary]) { _, new in new }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let deadline = Date().addingTimeInterval(20)
        var journal = ""
        while Date() < deadline {
            journal = (try? String(contentsOfFile: json + "l", encoding: .utf8)) ?? ""
            if journal.contains("france") && journal.contains("italy") { break }
            usleep(50_000)
        }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        journal = try String(contentsOfFile: json + "l", encoding: .utf8)
        #expect(journal.contains("You sent Bearer [redacted]"), "\(journal)")
        #expect(!journal.contains(Self.canary))
    }

    @Test func respondKeepsTheKeyOutOfItsOutput() throws {
        let server = try FaultServer(Self.echo)
        defer { server.stop() }
        let environment = ["FMEVAL_CANARY_KEY": Self.canary]
        let common = ["respond", "--engine", "openai", "--base-url", server.baseURL, "--model", "smollm2",
                      "--engine-option", "apiKeyEnv=FMEVAL_CANARY_KEY", "--engine-option", OpenAICLITests.instantRetries]
        let answered = try runFMEval(common + ["--json", "What is the capital of Italy?"], environment: environment)
        #expect(answered.status == 0, "\(answered.stderr)")
        #expect(answered.stdout.contains("Rome. You sent Bearer [redacted]"), "\(answered.stdout)")
        let refused = try runFMEval(common + ["What is the capital of Spain?"], environment: environment)
        #expect(refused.status == 3)
        #expect(refused.stderr.contains("HTTP 401") && refused.stderr.contains("[redacted]"), "\(refused.stderr)")
        for text in [answered.stdout, answered.stderr, refused.stdout, refused.stderr] { #expect(!text.contains(Self.canary)) }
    }
}
