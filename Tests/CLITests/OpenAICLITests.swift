import FaultServer
import Foundation
import Testing

/// `fmeval run --engine openai` end to end against the loopback fault server: faults are classified and
/// retried, a run that cannot finish keeps what it finished and `--retry-errors` completes it, and the
/// API key never leaves the Authorization header.
@Suite struct OpenAICLITests {
    static let suite = """
    suite: capitals
    cases:
      - id: france
        prompt: What is the capital of France?
        expect: { contains: Paris }
      - id: italy
        prompt: What is the capital of Italy?
        expect: { contains: Rome }
    """

    /// A chat completion answering with `content` (JSON-escaped here).
    static func completion(_ content: String) -> String {
        let escaped = String(decoding: try! JSONSerialization.data(withJSONObject: [content], options: [.fragmentsAllowed]), as: UTF8.self)
        return #"{"model":"smollm2-served","system_fingerprint":"b1234-cpu","choices":[{"message":{"role":"assistant","content":\#(escaped.dropFirst().dropLast())},"finish_reason":"stop"}],"usage":{"prompt_tokens":9,"completion_tokens":3}}"#
    }

    /// The answer of a healthy server: each capital for the prompt that asks for it.
    static func healthy(_ request: FaultServer.Request) -> FaultServer.Reply {
        .respond(status: 200, body: completion(request.body.contains("France") ? "Paris." : "Rome."))
    }

    static let instantRetries = #"retries={"maxAttempts":2,"initialDelaySeconds":0,"maxDelaySeconds":0.2}"#

    func writeSuite(_ text: String = suite) throws -> (URL, String) {
        let folder = try temporaryFolder()
        let path = folder.appendingPathComponent("capitals.yaml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return (folder, path)
    }

    func openAIRun(_ server: FaultServer, _ suitePath: String, in folder: URL, _ extra: [String] = []) throws -> (CLIResult, Results?) {
        try runSuite([suitePath, "--engine", "openai", "--base-url", server.baseURL, "--model", "smollm2",
                      "--engine-option", Self.instantRetries] + extra, in: folder)
    }

    @Test func aPassingFaultIsRetriedAndTheCasePasses() throws {
        let server = try FaultServer { request in
            request.index == 0 ? .respond(status: 503, headers: [("Retry-After", "0.1")], body: "loading model") : Self.healthy(request)
        }
        defer { server.stop() }
        let (folder, path) = try writeSuite()
        let (run, results) = try openAIRun(server, path, in: folder, ["--jobs", "1"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let document = try #require(results)
        #expect(document.statuses == ["france": "passed", "italy": "passed"])
        #expect(try document.attempts("france")[0]["retries"] as? Int == 1)
        #expect(try document.attempts("italy")[0]["retries"] == nil)
        #expect(server.requests.count == 3)
        let fingerprint = try #require((document.document["run"] as? [String: Any])?["fingerprint"] as? [String: Any])
        #expect(fingerprint["engine"] as? [String: String] == ["name": "openai", "model": "smollm2"], "the identity is unchanged")
        #expect(fingerprint["engineDetails"] as? [String: String] == ["baseURLHost": "127.0.0.1:\(server.port)",
                                                                     "serverModel": "smollm2-served", "systemFingerprint": "b1234-cpu"])
    }

    @Test func aPersistentFaultIsAnErrorAndRetryErrorsFinishesTheJob() throws {
        let down = try FaultServer { _ in .respond(status: 503, body: "overloaded") }
        defer { down.stop() }
        let (folder, path) = try writeSuite()
        let (failed, failedResults) = try openAIRun(down, path, in: folder)
        #expect(failed.status == 3, "\(failed.stdout)\(failed.stderr)")
        let broken = try #require(failedResults)
        #expect(broken.statuses == ["france": "error", "italy": "error"])
        let error = try broken.error("france")
        #expect(error["domain"] as? String == "OpenAIError")
        #expect((error["message"] as? String)?.contains("gave up after 2 tries") == true, "\(error)")
        #expect(down.requests.count == 4, "two tries per case, and the runner does not retry again")

        let up = try FaultServer(Self.healthy)
        defer { up.stop() }
        let json = folder.appendingPathComponent("results.json").path
        let retried = try runFMEval(["run", "--retry-errors", json, "--engine", "openai", "--base-url", up.baseURL, "--model", "smollm2"],
                                    environment: ["CI": "true"])
        #expect(retried.status == 0, "\(retried.stdout)\(retried.stderr)")
        #expect(try Results(path: json).statuses == ["france": "passed", "italy": "passed"])
    }

    @Test func badOptionsNameTheirFlag() throws {
        let (folder, path) = try writeSuite()
        let (run, _) = try runSuite([path, "--engine", "openai", "--base-url", "localhost:8080", "--model", "m"], in: folder)
        #expect(run.status == 2)
        #expect(run.stderr.contains("engine option 'baseURL' of engine 'openai' must be an http(s) URL"), "\(run.stderr)")
        let (missing, _) = try runSuite([path, "--engine", "openai", "--model", "m"], in: folder)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("engine 'openai' needs option 'baseURL'"), "\(missing.stderr)")
    }
}
