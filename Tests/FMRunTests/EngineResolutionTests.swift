import Foundation
import Testing
import FMCore
import FMEngines
import FMRun
import FMSuite

private let file = FileManager.default.temporaryDirectory.appendingPathComponent("inline.yaml").path

/// A request with no paths (the tests resolve cases directly).
private func request(_ configure: (inout RunRequest) -> Void = { _ in }) -> RunRequest {
    var request = RunRequest(paths: [], resultsPath: "r.json")
    configure(&request)
    return request
}

@Test func aSuiteOptionThatIsNotAnOptionIsLocatedWithADidYouMean() throws {
    let items = try cases("suite: x\nengine:\n  name: replay\n  cassete: c.json\ncases:\n  - { id: a, prompt: hi }\n")
    let problems = EngineResolution.problems(for: items, request: nil)
    #expect(problems == [
        "\(file):4:3: error: engine option 'cassete' is not an option of engine 'replay' (did you mean 'cassette'?)",
        "\(file):3:3: error: engine 'replay' needs option 'cassette': the cassette to play (--cassette FILE; record one with --record FILE)",
    ])
}

@Test func unknownNamesAndWrongTypesAreLocatedOncePerSuite() throws {
    let items = try cases("suite: x\nengine: embeded\ncases:\n  - { id: a, prompt: hi }\n  - { id: b, prompt: ho }\n")
    #expect(EngineResolution.problems(for: items, request: nil) == ["\(file):2:9: error: unknown engine 'embeded'; did you mean 'embedded'? use one of embedded, scripted, replay, openai, system, apple"])
    let typed = try cases("suite: x\nvariants:\n  - { name: v, engine: { name: embedded, model: 3 } }\ncases:\n  - { id: a, prompt: hi }\n")
    #expect(EngineResolution.problems(for: typed, request: nil) == ["\(file):3:42: error: engine option 'model' of engine 'embedded' must be a string, not number 3"])
}

@Test func commandLineOptionsOverrideTheSuitesAndNameTheirFlag() throws {
    let items = try cases("suite: x\nengine: { name: replay, cassette: suite.json }\ncases:\n  - { id: a, prompt: hi }\n")
    let overridden = EngineResolution.resolve(items[0], request: request { $0.engineOptions = ["cassette": GeneratedContent("cli.json")] })
    #expect(overridden.configuration == EngineConfiguration(name: "replay", cassette: "cli.json"))
    #expect(overridden.optionOrigins["cassette"] == "--engine-option cassette")
    let bad = request { $0.engineOptions = ["casette": GeneratedContent("x")] }
    #expect(EngineResolution.problems(for: items, request: bad) == ["--engine-option casette: engine option 'casette' is not an option of engine 'replay' (did you mean 'cassette'?)"])
    let unknown = request { $0.engine = "gpt9" }
    #expect(EngineResolution.problems(for: items, request: unknown).first?.hasPrefix("--engine: unknown engine 'gpt9'") == true)
}

@Test func anotherEngineOnTheCommandLineDropsTheSuitesOptionsButKeepsTheModelShorthands() throws {
    let items = try cases("suite: x\nengine: { name: replay, cassette: c.json }\nmodel: m.gguf\ncases:\n  - { id: a, prompt: hi }\n")
    #expect(EngineResolution.resolve(items[0], request: nil).configuration == EngineConfiguration(name: "replay", cassette: "c.json"))
    let embedded = EngineResolution.resolve(items[0], request: request { $0.engine = "embedded" })
    #expect(embedded.configuration == EngineConfiguration(name: "embedded", model: "m.gguf"))
    let flagged = EngineResolution.resolve(items[0], request: request { $0.engine = "embedded"; $0.model = "other.gguf"; $0.cassette = "ignored.json" })
    #expect(flagged.configuration == EngineConfiguration(name: "embedded", model: "other.gguf"))
    #expect(flagged.optionOrigins["model"] == "--model")
    let scripted = EngineResolution.resolve(items[0], request: request { $0.engine = "scripted"; $0.model = "m.gguf" })
    #expect(scripted.configuration == EngineConfiguration(name: "scripted"))
}

@Test func planStopsOnEngineProblemsBeforeAnythingRuns() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-engines-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let suite = folder.appendingPathComponent("s.yaml").path
    try Data("suite: s\nengine: { name: scripted, temperature: 1 }\ncases:\n  - { id: a, prompt: hi, script: [ { text: ok } ] }\n".utf8).write(to: URL(fileURLWithPath: suite))
    #expect {
        try RunPipeline.plan(RunRequest(paths: [suite], resultsPath: folder.appendingPathComponent("r.json").path))
    } throws: { error in
        guard case .invalidInput(let message) = error as? Fault else { return false }
        return message.contains("\(suite):2:27: error: engine option 'temperature' is not an option of engine 'scripted'")
    }
}
