import Foundation
import Testing

/// Device profiles on the embedded model: the same half-year log (about 5000 SmolLM2 tokens) fits
/// `core-advanced-27`'s 8192-token window and overflows `core-27`'s 4096. The fitting run prefills all
/// 5000 tokens (about 30 s here, as long as llama-server takes), so only the preflight counts that side.
@Suite struct DeviceProfileCLITests {
    let suite = fixture("device-profiles/device-profiles.yaml")

    /// validate counts both variants with the model's tokenizer: the phone's overflow is its known issue.
    @Test func validatePreflightsEachVariantsWindowWithTheModelsTokenizer() throws {
        let result = try runFMEval(["validate", suite])
        #expect(result.status == 0, "\(result.stderr)")
        let note = "service-log.jsonl:1:1: note: device-profiles/half-year-log@core-27 needs 5051 of 4096 tokens on "
            + "core-27: instructions 0, tools 0, schema 0, prompts 5035, images 0, responses 16 "
            + "(maximumResponseTokens × 1 turn) (the engine's tokenizer); the case expects contextSizeExceeded"
        #expect(result.stderr.contains(note), "\(result.stderr)")
        #expect(result.stderr.contains("preflight on core-27, core-advanced-27: 1 of 2 cases fit their device's "
            + "window, 0 cannot, 1 expected to overflow"), "\(result.stderr)")
    }

    /// A case that does not expect the overflow stops validate (exit 2) before anything runs, at its line.
    @Test func aCaseThatCannotFitItsDeviceFailsValidate() throws {
        let folder = try temporaryFolder()
        let line = try String(contentsOfFile: fixture("device-profiles/service-log.jsonl"), encoding: .utf8)
        var object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        object["knownIssue"] = nil
        try JSONSerialization.data(withJSONObject: object).write(to: folder.appendingPathComponent("log.jsonl"))
        let text = try String(contentsOfFile: suite, encoding: .utf8)
            .replacingOccurrences(of: "dataset: service-log.jsonl", with: "dataset: log.jsonl")
        try Data(text.utf8).write(to: folder.appendingPathComponent("s.yaml"))
        let result = try runFMEval(["validate", folder.appendingPathComponent("s.yaml").path])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("log.jsonl:1:1: error: device-profiles/half-year-log@core-27 needs 5051 of 4096"
            + " tokens on core-27"), "\(result.stderr)")
        #expect(result.stderr.contains("shorten its input or lower maximumResponseTokens, or run it on a device with "
            + "a larger window"))
        #expect(result.stderr.contains("1 of 2 cases fit their device's window, 1 cannot, 0 expected to overflow"))
        let onePhone = try runFMEval(["validate", "--device", "core-advanced-27",
                                      folder.appendingPathComponent("s.yaml").path])
        #expect(onePhone.status == 0, "--device puts both variants on the larger window: \(onePhone.stderr)")
    }

    /// The run on the phone's profile fails before generating, in the model's own window check.
    @Test func thePhonesVariantOverflowsBeforeGenerating() throws {
        let folder = try temporaryFolder()
        let (run, results) = try runSuite([suite, "--variant", "core-27"], in: folder)
        #expect(run.status == 0, "a known issue: \(run.stdout)\(run.stderr)")
        let document = try #require(results)
        #expect(document.statuses == ["half-year-log": "knownIssue"])
        let error = try document.error("half-year-log")
        #expect(error["caseName"] as? String == "contextSizeExceeded")
        #expect((error["message"] as? String ?? "").contains("the prompt needs 5065 tokens but contextSize is 4096"))
        #expect(try document.attempts("half-year-log")[0]["engineCalls"] as? Int == 0, "nothing was generated")
    }

    /// `--device` puts every case on one profile; an OS 26 device refuses a tool-calling mode before the run.
    @Test func runDeviceChecksEveryCaseBeforeRunning() throws {
        let folder = try temporaryFolder()
        let (run, results) = try runSuite([fixture("session.yaml"), "--device", "core-26"], in: folder)
        #expect(run.status == 2 && results == nil, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("which device core-26 does not have (GenerationOptions.toolCallingMode is "
            + "Foundation Models 27 API); drop it or use an OS 27 profile"), "\(run.stderr)")
        let unknown = try runFMEval(["run", suite, "--device", "iphone"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("run: --device iphone is not a device profile; give one of core-26, core-27, "
            + "core-advanced-27, private-cloud-compute"), "\(unknown.stderr)")
    }
}
