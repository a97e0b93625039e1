import Foundation
import TestSupport
import Testing
@testable import FMEngines

/// The real CLI binary runs the repository's suites through llama-server (`--engine openai`) and on the
/// embedded engine; skipped unless `FMEVAL_LLAMA_SERVER` or `CI` is set (see LlamaServer).
@Suite(.serialized, .enabled(if: LlamaServer.isWanted)) struct LlamaServerSuiteTests {
    /// Cases whose status differs between the two engines, and why (docs/engines.md lists them too).
    static let knownDifferences: [String: String] = {
        let tools = "SmolLM2's chat template on llama-server renders no tools: the model answers in text, never calling one"
        let enumPick = "greedy picks another enum value on llama-server (same prompt; not yet traced, likely the grammars "
            + "admitting different tokenizations of the quoted value)"
        let toolCases = ["city-tools/london-prefix", "city-tools/paris", "anyof-tool-arguments/city-outside-list@grammar",
                         "anyof-tool-arguments/paris@grammar", "anyof-tool-arguments/paris@device",
                         "device-required-loop/paris", "device-required-loop/london", "device-required-loop/new-york"]
            + ["extra-tool-arguments/vienna", "renamed-tool-arguments/ai-news", "invented-tool-names/search-cats",
               "invented-tool-names/two-plus-two", "inputs-confused-with-outputs/what-time",
               "required-wrong-argument-names/vienna", "tool-call-streamed-as-text/tokyo",
               "tool-without-description/search-cats"].map { $0 + "@grammar" }
            + ["nested-schema-renamed-arguments/lunch-with-bob-grammar"]
            + ["vienna-berlin", "paris-london", "rome-madrid", "new-york-boston", "sydney-melbourne", "cairo-dubai", "chicago-denver"]
                .map { "parallel-tool-calls/" + $0 }
            + ["parallel-tool-calls-never-made/vienna-berlin@required"]
        let unanchored = "llama-server does not support a pattern that is not anchored (^…$): it warns and accepts any string, "
            + "so the guide goes unenforced (Foundation Models' patterns match the whole string)"
        let patternCases = ["nullable-format-length-guides/booking-code-length@grammar", "nullable-format-length-guides/format-date-as-pattern@grammar"]
        let enumCases = ["sentiment/broke@plain", "sentiment/broke@terse", "sentiment/great-screen@terse"]
        let profile = [
            "device-guide-enforcement/beijing@strict": tools,
            "device-guide-enforcement/ticket-id@strict": "llama-server's json_schema grammar lets the model run the id's string "
                + "on until maximumResponseTokens, so the structure is cut",
            "device-guide-enforcement/ticket-id-device@device": "the openai engine has no device profile: the pattern goes to the "
                + "server, which does not refuse it (the string is cut as under strict)",
            "device-guide-enforcement/fruit-loop@strict": "llama-server has no loop guards: the repeating list runs to "
                + "maximumResponseTokens instead of ending after 3 elements",
        ]
        // Known issues match the failure the embedded model shows (docs/suite-format.md, knownIssue matching);
        // where llama-server's model fails another way, the issue does not cover it and the case fails.
        let uncoveredTool = tools + ", so the known issue, which matches the embedded model's wrong call, does not cover it"
        let uncoveredToolCases = ["anyof-tool-arguments/city-outside-list@device", "anyof-tool-arguments/city-outside-list@prompt",
                                  "context-overflow-tool-outputs/three-pages", "device-guide-enforcement/beijing@device",
                                  "parallel-tool-calls/lisbon-porto", "parallel-tool-calls/oslo-stockholm",
                                  "parallel-tool-calls/tokyo-osaka"]
            + ["extra-tool-arguments/vienna", "renamed-tool-arguments/ai-news", "inputs-confused-with-outputs/what-time",
               "required-wrong-argument-names/vienna", "tool-without-description/search-cats"].map { $0 + "@prompt" }
            + ["nested-schema-renamed-arguments/lunch-with-bob"]
        let uncoveredPrompt = "the prompt channel's answer on llama-server fails in a way its known issue (matching constraints "
            + "and equals, the embedded model's failures) does not cover; not yet traced"
        let uncoveredPromptCases = ["ecstatic", "furious", "invented-label", "meh", "mixed", "question", "sarcastic"]
            .map { "two-channel/\($0)@prompt-only" }
        let estimate = "the openai engine estimates prompt tokens (4 bytes each), so the window leaves its second turn "
            + "room that SmolLM2's tokenizer does not"
        return Dictionary(uniqueKeysWithValues: toolCases.map { ($0, tools) } + enumCases.map { ($0, enumPick) } + profile.map { ($0, $1) }
                          + patternCases.map { ($0, unanchored) } + [("device-context-window/uncompacted-history-overflows", estimate)]
                          + uncoveredToolCases.map { ($0, uncoveredTool) } + uncoveredPromptCases.map { ($0, uncoveredPrompt) })
    }()

    /// The built `fmeval` beside the test bundle (or `$FMEVAL_BIN`).
    static func binary() throws -> URL {
        if let path = ProcessInfo.processInfo.environment["FMEVAL_BIN"] { return URL(fileURLWithPath: path) }
        var folder = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("fmeval")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        throw LlamaServer.StartError(description: "no fmeval binary beside \(Bundle.main.bundleURL.path); build the package first")
    }

    /// Runs `fmeval run suites` with `arguments` and returns its exit status and case id → status.
    static func run(_ arguments: [String], json: URL) throws -> (Int32, [String: String]) {
        let process = Process()
        process.executableURL = try binary()
        process.currentDirectoryURL = OpenAIFixtures.repositoryRoot
        process.arguments = ["run", "suites", "--jobs", "1", "--json", json.path] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["CI": "true"]) { _, new in new }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any]
        let cases = document?["cases"] as? [[String: Any]] ?? []
        return (process.terminationStatus, Dictionary(uniqueKeysWithValues: cases.map { ($0["id"] as? String ?? "", $0["status"] as? String ?? "") }))
    }

    @Test func theSuitesRunThroughTheServerWithoutErrorsAndAsOnTheEmbeddedEngine() throws {
        let server = try LlamaServer()
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-llama-suites-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, remote) = try Self.run(["--engine", "openai", "--base-url", server.baseURL, "--model", "smollm2"],
                                            json: folder.appendingPathComponent("openai.json"))
        #expect(status == 0 || status == 1, "exit \(status): \(server.logTail)")
        #expect(!remote.isEmpty)
        #expect(remote.filter { $0.value == "error" }.isEmpty, "error cases: \(remote.filter { $0.value == "error" })")
        // Statuses are compared where llama.cpp sums as the embedded engine does (see LlamaServer).
        guard try LlamaServer.sumsInSixteenLanes() else {
            print("statuses not compared with the embedded engine's: llama-server sums in fewer than sixteen lanes")
            return
        }
        let (_, local) = try Self.run([], json: folder.appendingPathComponent("embedded.json"))
        #expect(Set(remote.keys) == Set(local.keys))
        let differences = remote.keys.sorted().filter { remote[$0] != local[$0] }
        for id in differences {
            print("\(id): embedded \(local[id] ?? "-"), openai \(remote[id] ?? "-") — \(Self.knownDifferences[id] ?? "not explained")")
        }
        #expect(Set(differences) == Set(Self.knownDifferences.keys), "differences: \(differences)")
    }

    /// llama-server enforces `response_format` (its json_schema grammar): the probe's answer conforms, and a run
    /// of grammar-channel cases proceeds past it and records `constraintProbe: enforced`.
    @Test func theConstraintProbePassesOnLlamaServerAndTheRunProceeds() throws {
        let server = try LlamaServer()
        defer { server.stop() }
        var settings = OpenAIFixtures.settings(server.baseURL, timeout: 600)
        settings.model = "smollm2"
        let engine = try OpenAIEngine(settings: settings, environment: [:])
        let verdict = try engine.probeConstraints()
        print("constraint probe on llama-server: \(verdict)")
        #expect(verdict == .enforced, "\(verdict); \(server.logTail)")

        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("fmeval-llama-probe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let suite = folder.appendingPathComponent("colours.yaml")
        try """
            suite: colours
            options: { sampling: greedy, maximumResponseTokens: 8 }
            generating: { enum: [red, blue, green] }
            cases:
              - id: sky
                prompt: What colour is the sky? Answer with one word.
                expect: { constraints: { maxViolations: 0 } }
            """.write(to: suite, atomically: true, encoding: .utf8)
        let json = folder.appendingPathComponent("results.json")
        let process = Process()
        process.executableURL = try Self.binary()
        process.arguments = ["run", suite.path, "--json", json.path, "--engine", "openai", "--base-url", server.baseURL,
                             "--model", "smollm2", "--no-history"]
        process.environment = ProcessInfo.processInfo.environment.merging(["CI": "true"]) { _, new in new }
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let stderr = String(decoding: readToEnd(errors.fileHandleForReading), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "exit \(process.terminationStatus): \(stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any]
        let fingerprint = (document?["run"] as? [String: Any])?["fingerprint"] as? [String: Any]
        #expect((fingerprint?["engineDetails"] as? [String: String])?["constraintProbe"] == "enforced")
    }
}
