import FMCore
import Foundation
import Testing

#if !canImport(FoundationModels)
@Test func theSystemEngineWithoutFoundationModelsIsExitThreePointingToRecordThenReplay() throws {
    let folder = try temporaryFolder()
    let (run, results) = try runSuite([fixture("replay/cities.yaml"), "--engine", "system"], in: folder)
    #expect(run.status == 3, "\(run.stdout)\(run.stderr)")
    #expect(results == nil, "nothing ran, so no results are written")
    for part in ["engine 'system' runs Apple's on-device model and needs macOS 26 or later with Apple Intelligence",
                 "this build has no FoundationModels framework",
                 "--engine system --record device.cassette.json", "--cassette device.cassette.json"] {
        #expect(run.stderr.contains(part), "stderr lacks '\(part)': \(run.stderr)")
    }
    let respond = try runFMEval(["respond", "--engine", "system", "Hi"])
    #expect(respond.status == 3)
    #expect(respond.stderr.contains("needs macOS 26 or later with Apple Intelligence"), "\(respond.stderr)")
}
#endif

@Test func aSuiteNamingTheSystemEngineValidatesEverywhere() throws {
    let folder = try temporaryFolder()
    let suite = folder.appendingPathComponent("device.yaml")
    try "suite: device\nengine: system\ncases:\n  - id: hello\n    prompt: Say hello.\n"
        .write(to: suite, atomically: true, encoding: .utf8)
    let valid = try runFMEval(["validate", suite.path])
    #expect(valid.status == 0, "\(valid.stdout)\(valid.stderr)")
    let option = folder.appendingPathComponent("option.yaml")
    try "suite: device\nengine: { name: system, model: other }\ncases:\n  - id: hello\n    prompt: Say hello.\n"
        .write(to: option, atomically: true, encoding: .utf8)
    let invalid = try runFMEval(["validate", option.path])
    #expect(invalid.status == 2)
    #expect(invalid.stderr.contains("engine option 'model' is not an option of engine 'system' (it takes no options)"),
            "\(invalid.stderr)")
}

/// The Linux half of record-on-a-Mac, gate-on-Linux: a cassette whose recorded engine is `system`
/// replays here and scores. It is recorded through the scripted engine, then every entry is re-keyed
/// for the identity `system (SystemLanguageModel.default)` exactly as the recorder keys one (the SHA-256
/// of the canonical request, whose `engine` member is the recorded identity) — the file a Mac's
/// `--engine system --record` writes for the same requests and answers.
@Test func aCassetteRecordedFromTheSystemEngineReplaysOnLinuxAndScores() throws {
    let folder = try temporaryFolder()
    let scripted = folder.appendingPathComponent("scripted.cassette.json").path
    let (recorded, recordedResults) = try runSuite([fixture("replay/cities.yaml"), "--record", scripted], in: folder)
    #expect(recorded.status == 0, "\(recorded.stdout)\(recorded.stderr)")
    let device = folder.appendingPathComponent("device.cassette.json").path
    try rekeyedForSystem(cassette: scripted, to: device)

    let (replayed, replayedResults) = try runSuite([fixture("replay/cities.yaml"), "--cassette", device], in: folder)
    #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)")
    let original = try #require(recordedResults), again = try #require(replayedResults)
    #expect(again.statuses == original.statuses)
    #expect(again.statuses.values.allSatisfy { $0 == "passed" }, "\(again.statuses)")
    #expect(try again.attempts("paris")[0]["text"] as? String == (try original.attempts("paris")[0]["text"] as? String))
    let resultsText = try String(contentsOf: folder.appendingPathComponent("results.json"), encoding: .utf8)
    #expect(resultsText.contains("SystemLanguageModel.default"), "the results name the recorded engine")

    // The untouched scripted cassette does not answer for the system identity: keys carry the identity.
    let keys = try cassetteKeys(scripted)
    #expect(keys.isDisjoint(with: try cassetteKeys(device)))
}

/// Rewrites the cassette at `path` as if `system (SystemLanguageModel.default)` had been recorded.
private func rekeyedForSystem(cassette path: String, to output: String) throws {
    let system = GeneratedContent(properties: [("name", GeneratedContent("system")),
                                               ("model", GeneratedContent("SystemLanguageModel.default"))])
    let cassette = try GeneratedContent(json: String(contentsOfFile: path, encoding: .utf8))
    let members = try #require(cassette.orderedProperties)
    let rewritten = try members.map { member -> (String, GeneratedContent) in
        switch member.key {
        case "engine": return (member.key, system)
        case "entries":
            return (member.key, GeneratedContent(try #require(member.value.arrayValue).map { entry in
                let fields = try #require(entry.orderedProperties)
                let request = GeneratedContent(properties: try #require(fields.first { $0.key == "request" }?.value
                    .orderedProperties).map { ($0.key, $0.key == "engine" ? system : $0.value) })
                return GeneratedContent(properties: fields.map { field in
                    switch field.key {
                    case "key": return (field.key, GeneratedContent(SHA256.hex(of: Array(request.jsonString.utf8))))
                    case "request": return (field.key, request)
                    default: return (field.key, field.value)
                    }
                })
            }))
        default: return (member.key, member.value)
        }
    }
    try GeneratedContent(properties: rewritten).jsonString(indent: 2)
        .write(toFile: output, atomically: true, encoding: .utf8)
}

private func cassetteKeys(_ path: String) throws -> Set<String> {
    let cassette = try GeneratedContent(json: String(contentsOfFile: path, encoding: .utf8))
    return Set(try #require(cassette["entries"]?.arrayValue).compactMap { $0["key"]?.stringValue })
}
