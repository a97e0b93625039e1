import Foundation
import TestSupport
import Testing

/// Writes `text` as `name` in `folder` and returns its path.
private func write(_ text: String, _ name: String, in folder: URL) throws -> String {
    let path = folder.appendingPathComponent(name).path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

@Test func engineOptionsFromTheCommandLineConfigureTheEngine() throws {
    let folder = try temporaryFolder()
    let cassette = folder.appendingPathComponent("cities.cassette.json").path
    let (recorded, recordedResults) = try runSuite([fixture("replay/cities.yaml"), "--record", cassette], in: folder)
    #expect(recorded.status == 0, "\(recorded.stdout)\(recorded.stderr)")
    let (replayed, replayedResults) = try runSuite([fixture("replay/cities.yaml"), "--engine", "replay", "--engine-option", "cassette=\(cassette)"], in: folder)
    #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)")
    #expect(try #require(recordedResults).statuses == (try #require(replayedResults).statuses))
    let engine = try #require(replayedResults?.cases.first?["engine"] as? [String: Any])
    #expect(engine["name"] as? String == "replay" && engine["model"] as? String == "scripted/script",
            "the replay engine's identity is the recorded engine's, whatever flag named the cassette")
}

@Test func badEngineOptionsOnTheCommandLineNameTheFlag() throws {
    let folder = try temporaryFolder()
    let (typo, results) = try runSuite([fixture("replay/cities.yaml"), "--engine", "replay", "--engine-option", "casette=c.json"], in: folder)
    #expect(typo.status == 2)
    #expect(typo.stderr.contains("--engine-option casette: engine option 'casette' is not an option of engine 'replay' (did you mean 'cassette'?)"), "\(typo.stderr)")
    #expect(typo.stderr.contains("--engine: engine 'replay' needs option 'cassette'"), "\(typo.stderr)")
    #expect(results == nil, "nothing runs")
    let (shape, _) = try runSuite([fixture("replay/cities.yaml"), "--engine-option", "novalue"], in: folder)
    #expect(shape.status == 2)
    #expect(shape.stderr.contains("--engine-option novalue: expected KEY=VALUE"), "\(shape.stderr)")
    let (typed, _) = try runSuite([fixture("replay/cities.yaml"), "--engine", "replay", "--engine-option", "cassette=3"], in: folder)
    #expect(typed.status == 2)
    #expect(typed.stderr.contains("--engine-option cassette: engine option 'cassette' of engine 'replay' must be a string, not number 3"), "\(typed.stderr)")
}

@Test func aSuiteWithAnUnknownEngineOptionStopsWithItsLocation() throws {
    let folder = try temporaryFolder()
    let text = try String(contentsOfFile: fixture("replay/cities.yaml"), encoding: .utf8)
        .replacingOccurrences(of: "engine: scripted\n", with: "engine:\n  name: scripted\n  seed: 4\n")
    let suite = try write(text, "cities.yaml", in: folder)
    let (run, results) = try runSuite([suite], in: folder)
    #expect(run.status == 2)
    #expect(run.stderr.contains("\(suite):4:3: error: engine option 'seed' is not an option of engine 'scripted' (it takes no options)"), "\(run.stderr)")
    #expect(results == nil, "nothing runs")
    let validate = try runFMEval(["validate", suite])
    #expect(validate.status == 2)
    #expect(validate.stderr.contains("\(suite):4:3: error: engine option 'seed'"), "\(validate.stderr)")
    #expect(validate.stdout.contains("1 error"))
    let unknown = try write(text.replacingOccurrences(of: "engine:\n  name: scripted\n  seed: 4\n", with: "engine: scriptd\n"), "unknown.yaml", in: folder)
    let named = try runFMEval(["validate", unknown])
    #expect(named.status == 2)
    #expect(named.stderr.contains("\(unknown):2:9: error: unknown engine 'scriptd'; did you mean 'scripted'?"), "\(named.stderr)")
}

@Test func theMappingFormRunsAtSuiteAndVariantLevel() throws {
    let folder = try temporaryFolder()
    let text = try String(contentsOfFile: fixture("replay/cities.yaml"), encoding: .utf8)
        .replacingOccurrences(of: "engine: scripted\n", with: "engine: { name: scripted }\nvariants:\n  - { name: a }\n  - { name: b, engine: { name: scripted } }\n")
    let suite = try write(text, "cities.yaml", in: folder)
    let (run, results) = try runSuite([suite], in: folder)
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(try #require(results).cases.count == 4)
}

@Test func helpAndSchemaListTheEnginesOfTheRegistry() throws {
    for command in [["run", "--help"], ["respond", "--help"]] {
        let help = try runFMEval(command)
        #expect(help.status == 0)
        for line in ["--engine-option KEY=VALUE", "embedded  ", "scripted  ", "replay  ", "cassette (string, required)",
                     "model (string)", "openai    an OpenAI-compatible", "baseURL (string, required)", "system    Apple's on-device model", "apple     reserved"] {
            #expect(help.stdout.contains(line), "\(command) help lacks '\(line)'")
        }
    }
    let schema = try runFMEval(["schema", "suite"])
    #expect(schema.status == 0)
    let document = try #require(try JSONSerialization.jsonObject(with: Data(schema.stdout.utf8)) as? [String: Any])
    let engine = try #require((document["$defs"] as? [String: Any])?["engine"] as? [String: Any])
    let names = ((engine["anyOf"] as? [[String: Any]])?.first?["enum"] as? [String]) ?? []
    #expect(names == ["embedded", "scripted", "replay", "openai", "system", "apple"])
}

@Test func respondChecksItsEngineFlagsBeforeLoadingAnything() throws {
    let option = try runFMEval(["respond", "--engine-option", "temprature=1", "Hi"])
    #expect(option.status == 2)
    #expect(option.stderr.contains("respond: --engine-option temprature: engine option 'temprature' is not an option of engine 'embedded'"), "\(option.stderr)")
    let replay = try runFMEval(["respond", "--engine", "replay", "Hi"])
    #expect(replay.status == 2)
    #expect(replay.stderr.contains("respond: --engine: engine 'replay' needs option 'cassette'"), "\(replay.stderr)")
    let model = try runFMEval(["respond", "--engine", "scripted", "--model", "m.gguf", "Hi"])
    #expect(model.status == 2)
    #expect(model.stderr.contains("--model: engine 'scripted' has no 'model' option"), "\(model.stderr)")
    let reserved = try runFMEval(["respond", "--engine", "apple", "Hi"])
    #expect(reserved.status == 3)
    #expect(reserved.stderr.contains("not available in this build"), "\(reserved.stderr)")
}

/// True when `python3` can import jsonschema (the reference validator), or in CI where it must.
private let jsonschemaAvailable: Bool = {
    if ProcessInfo.processInfo.environment["CI"]?.lowercased() == "true" { return true }
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    probe.arguments = ["python3", "-c", "import jsonschema"]
    probe.standardOutput = FileHandle.nullDevice
    probe.standardError = FileHandle.nullDevice
    guard (try? probe.run()) != nil else { return false }
    probe.waitUntilExit()
    return probe.terminationStatus == 0
}()

@Test(.enabled(if: jsonschemaAvailable)) func theSchemasEngineDefinitionChecksNamesAndOptions() throws {
    let folder = try temporaryFolder()
    let schema = try runFMEval(["schema", "suite"])
    try schema.stdout.write(to: folder.appendingPathComponent("suite.schema.json"), atomically: true, encoding: .utf8)
    let script = """
    import json, sys, jsonschema
    validator = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
    for engine in json.loads(sys.argv[2]):
        suite = {"suite": "x", "engine": engine, "cases": [{"id": "a", "prompt": "hi"}]}
        print("ok" if validator.is_valid(suite) else "bad")
    """
    let engines = #"["embedded", "nope", {"name": "replay", "cassette": "c"}, {"name": "replay"}, {"name": "replay", "cassete": "c"}, {"name": "apple", "baseURL": "x"}, {"name": "embedded", "model": 3}]"#
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, folder.appendingPathComponent("suite.schema.json").path, engines]
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let text = String(decoding: readToEnd(out.fileHandleForReading), as: UTF8.self)
    process.waitUntilExit()
    #expect(text.split(separator: "\n") == ["ok", "bad", "ok", "bad", "bad", "ok", "bad"], "\(text)")
}
