import Foundation
import Testing

/// `guideEnforcement` and `loopGuards` from suite, variant and `--guide-enforcement` reach every engine
/// request (seen in the cassette the scripted engine's run records), and bad values are located.
@Suite struct GuideEnforcementCLITests {
    /// The `guideEnforcement` and `loopGuards` of each recorded request, per variant (by the request's order).
    private func recordedProfiles(_ extra: [String]) throws -> [(String?, [String: Any]?)] {
        let folder = try temporaryFolder()
        let cassette = folder.appendingPathComponent("cassette.json").path
        let (result, results) = try runSuite([fixture("guide-enforcement.yaml"), "--record", cassette] + extra, in: folder)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try #require(results).cases.count == 3)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: cassette))) as? [String: Any])
        let entries = try #require(document["entries"] as? [[String: Any]])
        return entries.map { entry in
            let request = entry["request"] as? [String: Any] ?? [:]
            return (request["guideEnforcement"] as? String, request["loopGuards"] as? [String: Any])
        }
    }

    @Test func suiteAndVariantProfilesReachTheEngineRequest() throws {
        let profiles = try recordedProfiles([])
        #expect(profiles.count == 6)
        #expect(profiles.filter { $0.0 == nil }.count == 2, "strict by default leaves the request as before")
        #expect(profiles.filter { $0.0 == "device" }.count == 4)
        let guards = profiles.compactMap(\.1)
        #expect(guards.count == 2)
        #expect(guards.allSatisfy { $0["maximumUnboundedItems"] as? Int == 5 && $0["maximumStringBytes"] is NSNull })
    }

    @Test func theFlagOverridesEverySuite() throws {
        let strict = try recordedProfiles(["--guide-enforcement", "strict"])
        #expect(strict.count == 6)
        #expect(strict.allSatisfy { $0.0 == nil }, "strict requests are keyed as before, so older cassettes replay")
        let device = try recordedProfiles(["--guide-enforcement", "device"])
        #expect(device.allSatisfy { $0.0 == "device" })
    }

    @Test func badValuesAreLocatedOrNameTheFlag() throws {
        let folder = try temporaryFolder()
        let (flag, _) = try runSuite([fixture("guide-enforcement.yaml"), "--guide-enforcement", "lenient"], in: folder)
        #expect(flag.status == 2)
        #expect(flag.stderr.contains("--guide-enforcement must be device or strict, not 'lenient'"))
        let suite = folder.appendingPathComponent("bad.yaml")
        try """
            suite: bad
            engine: scripted
            options: { guideEnforcement: lenient, loopGuards: { maximumStringBytes: 0, items: 3 } }
            cases:
              - { id: a, prompt: hi, script: [ { text: hi } ] }
            """.write(to: suite, atomically: true, encoding: .utf8)
        let validate = try runFMEval(["validate", suite.path])
        #expect(validate.status == 2)
        #expect(validate.stderr.contains("bad.yaml:3:30") || validate.stdout.contains("bad.yaml:3:30"), "\(validate.stdout)\(validate.stderr)")
        let output = validate.stdout + validate.stderr
        #expect(output.contains("options.guideEnforcement must be device or strict, not 'lenient'"))
        #expect(output.contains("options.loopGuards.maximumStringBytes must be at least 1, not 0"))
        #expect(output.contains("unknown key"))
    }
}
