import FaultServer
import Foundation
import Testing

/// The constraint-honesty probe end to end: before grammar-channel cases run on the openai engine, one probe
/// request checks that the server enforces `response_format`; a loopback server that ignores it stops the run
/// (exit 3, naming the server and what to do), unless `--no-probe`.
@Suite struct ConstraintProbeCLITests {
    static let suite = """
    suite: colours
    generating: { enum: [red, blue] }
    cases:
      - id: sky
        prompt: What colour is the sky?
        expect: { equals: blue }
      - id: blood
        prompt: What colour is blood?
        expect: { equals: red }
    """

    /// Whether `request` is the probe (its schema's only value is seven q's).
    static func isProbe(_ request: FaultServer.Request) -> Bool { request.body.contains("qqqqqqq") }

    /// A server that ignores `response_format`: the probe gets free text, the cases JSON strings (blood's wrong).
    static func lying(_ request: FaultServer.Request) -> FaultServer.Reply {
        let answer = isProbe(request) ? "Red." : request.body.contains("sky") ? #""blue""# : #""green""#
        return .respond(status: 200, body: OpenAICLITests.completion(answer))
    }

    /// A server that enforces it: the probe gets the only conforming answer, the cases their enum values.
    static func honest(_ request: FaultServer.Request) -> FaultServer.Reply {
        let answer = isProbe(request) ? #"{"probe":"qqqqqqq"}"# : request.body.contains("sky") ? #""blue""# : #""red""#
        return .respond(status: 200, body: OpenAICLITests.completion(answer))
    }

    func run(_ server: FaultServer, _ extra: [String] = []) throws -> (CLIResult, Results?) {
        let folder = try temporaryFolder()
        let path = folder.appendingPathComponent("colours.yaml").path
        try Self.suite.write(toFile: path, atomically: true, encoding: .utf8)
        return try runSuite([path, "--engine", "openai", "--base-url", server.baseURL, "--model", "smollm2",
                             "--jobs", "1", "--engine-option", OpenAICLITests.instantRetries] + extra, in: folder)
    }

    @Test func aServerIgnoringTheSchemaStopsTheRunWithExit3() throws {
        let server = try FaultServer(Self.lying)
        defer { server.stop() }
        let (run, results) = try run(server)
        #expect(run.status == 3, "\(run.stdout)\(run.stderr)")
        #expect(results == nil, "nothing is written")
        #expect(server.requests.count == 1, "only the probe is sent")
        let expected = "constraint probe: the openai server 127.0.0.1:\(server.port) (model smollm2-served) ignored "
            + #"response_format: its answer "Red." does not match the probe schema {"probe": "qqqqqqq"}"#
        #expect(run.stderr.contains(expected), "\(run.stderr)")
        #expect(run.stderr.contains("2 grammar-channel cases (colours/sky, colours/blood)"), "\(run.stderr)")
        #expect(run.stderr.contains("--no-probe"), "\(run.stderr)")
        #expect(run.stderr.contains("llama-server"), "\(run.stderr)")
    }

    @Test func noProbeScoresTheCasesAnyway() throws {
        let server = try FaultServer(Self.lying)
        defer { server.stop() }
        let (run, results) = try run(server, ["--no-probe"])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(try #require(results).statuses == ["sky": "passed", "blood": "failed"])
        #expect(server.requests.count == 2)
        #expect(!server.requests.contains(where: Self.isProbe))
    }

    @Test func anHonestServerIsProbedOnceAndTheRunProceeds() throws {
        let server = try FaultServer(Self.honest)
        defer { server.stop() }
        let (run, results) = try run(server)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let document = try #require(results)
        #expect(document.statuses == ["sky": "passed", "blood": "passed"])
        #expect(server.requests.count == 3, "one probe for the two cases on one engine")
        #expect(server.requests.filter(Self.isProbe).count == 1)
        #expect(Self.isProbe(server.requests[0]), "the probe goes before any case")
        let fingerprint = try #require((document.document["run"] as? [String: Any])?["fingerprint"] as? [String: Any])
        let details = try #require(fingerprint["engineDetails"] as? [String: String])
        #expect(details["constraintProbe"] == "enforced")
    }

    @Test func aFailedProbeRequestIsAnInfrastructureError() throws {
        let server = try FaultServer { _ in .respond(status: 503, body: "loading model") }
        defer { server.stop() }
        let (run, results) = try run(server)
        #expect(run.status == 3, "\(run.stdout)\(run.stderr)")
        #expect(results == nil)
        #expect(run.stderr.contains("constraint probe: the request to the openai server 127.0.0.1:\(server.port)"),
                "\(run.stderr)")
        #expect(run.stderr.contains("gave up after 2 tries"), "\(run.stderr)")
    }

    @Test func promptChannelCasesAreNotProbed() throws {
        let server = try FaultServer(Self.lying)
        defer { server.stop() }
        let folder = try temporaryFolder()
        let path = folder.appendingPathComponent("colours.yaml").path
        try Self.suite.replacingOccurrences(of: "generating:", with: "options: { constrained: false }\ngenerating:")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let (prompt, _) = try runSuite([path, "--engine", "openai", "--base-url", server.baseURL, "--model", "m"],
                                       in: folder)
        #expect(prompt.status == 1, "\(prompt.stdout)\(prompt.stderr)")
        #expect(server.requests.count == 2, "no probe on the prompt channel")
    }
}
