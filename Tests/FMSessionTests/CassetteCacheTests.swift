import Foundation
import Testing
import FMCore
import FMSession
@testable import FMEngines

/// A fresh cache file path in the temporary folder (nothing is created).
private func cachePath() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString).json").path
}

/// Asks `cache` with a scripted answer `steps` for `prompt`.
private func ask(_ cache: CassetteCache, _ prompt: String, steps: [ScriptStep] = [.text("Sunny.")]) throws -> String {
    let engine = try cache.engine(for: AttemptContext(caseID: "c", caseData: .script(.steps(steps)), attempt: 0))
    return try LanguageModelSession(engine: engine, configuration: SessionConfiguration()).respond(to: prompt).text
}

private func scripted() throws -> EngineProvider {
    try EngineRegistry.provider(for: EngineConfiguration(name: "scripted"))
}

@Test func aCacheRecordsMissesAndAnswersHitsWithoutTheEngine() throws {
    let path = cachePath()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let first = try CassetteCache(caching: try scripted(), at: path)
    #expect(try ask(first, "Weather?") == "Sunny.")
    #expect(first.usage == (0, 1) && FileManager.default.fileExists(atPath: path), "written at the miss")

    // A new run: the recorded answer comes back although the engine would now answer differently.
    let second = try CassetteCache(caching: try scripted(), at: path)
    #expect(try ask(second, "Weather?", steps: [.text("Raining.")]) == "Sunny.")
    #expect(try ask(second, "Time?", steps: [.text("Noon.")]) == "Noon.")
    #expect(second.usage == (1, 1))
    #expect(try Cassette.load(path: path).entries.count == 2, "the file is a cassette --cassette can replay")
}

@Test func identicalRequestsGetTheRecordedAnswersInOrderThenMiss() throws {
    let path = cachePath()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let record = try CassetteCache(caching: try scripted(), at: path)
    #expect(try ask(record, "Pick one.", steps: [.text("A")]) == "A")
    #expect(try ask(record, "Pick one.", steps: [.text("B")]) == "B")
    let replay = try CassetteCache(caching: try scripted(), at: path)
    #expect(try ask(replay, "Pick one.", steps: [.text("x")]) == "A")
    #expect(try ask(replay, "Pick one.", steps: [.text("x")]) == "B")
    #expect(try ask(replay, "Pick one.", steps: [.text("C")]) == "C", "the third repeat is a miss")
    #expect(replay.usage == (2, 1))
}

@Test func errorsAreNotCached() throws {
    let path = cachePath()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let cache = try CassetteCache(caching: try scripted(), at: path)
    #expect(throws: (any Error).self) { try ask(cache, "Weather?", steps: [.error("timeout")]) }
    #expect(cache.usage == (0, 0) && !FileManager.default.fileExists(atPath: path))
    #expect(try ask(cache, "Weather?") == "Sunny.", "the next call asks the engine again")
}

@Test func aCacheOfAnotherEngineOrABrokenFileIsAnInputError() throws {
    let path = cachePath()
    defer { try? FileManager.default.removeItem(atPath: path) }
    try Cassette(engine: EngineIdentity(name: "embedded", model: "m", modelHash: "abc")).write(to: path)
    do {
        _ = try CassetteCache(caching: try scripted(), at: path)
        Issue.record("expected an engine mismatch")
    } catch let error as Fault {
        #expect(!error.isInfrastructure)
        #expect(error.message.contains("holds answers of engine embedded (m)") && error.message.contains("delete"))
    }
    let wrongKey = "{\"cassette\": 1,\n  \"engine\": {\"name\": \"scripted\", \"model\": \"script\"},\n"
        + "  \"entries\": [\n  {\"key\": 3}]}"
    try Data(wrongKey.utf8).write(to: URL(fileURLWithPath: path))
    do {
        _ = try CassetteCache(caching: try scripted(), at: path)
        Issue.record("expected a format error")
    } catch let error as Fault {
        #expect(error.message.hasPrefix("\(path):4:11: not a valid cassette at /entries/0/key"), "\(error.message)")
    }
    try Data("{\"cassette\": 1,\n }".utf8).write(to: URL(fileURLWithPath: path))
    #expect { try CassetteCache(caching: try scripted(), at: path) } throws: { error in
        (error as? Fault)?.message.hasPrefix("\(path):2:2: unexpected") == true
    }
}

@Test func concurrentMissesAreAllWritten() throws {
    let path = cachePath()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let cache = try CassetteCache(caching: try scripted(), at: path)
    DispatchQueue.concurrentPerform(iterations: 16) { index in
        _ = try? ask(cache, "Question \(index)?", steps: [.text("Answer \(index).")])
    }
    #expect(cache.usage == (0, 16))
    let reread = try CassetteCache(caching: try scripted(), at: path)
    for index in 0..<16 { #expect(try ask(reread, "Question \(index)?", steps: [.text("?")]) == "Answer \(index).") }
    #expect(reread.usage == (16, 0))
}
