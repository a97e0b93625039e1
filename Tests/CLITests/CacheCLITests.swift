import Foundation
import Testing

/// Writes `text` as `name` in `folder` and returns its path.
private func suiteFile(_ text: String, _ name: String, in folder: URL) throws -> String {
    let url = folder.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url.path
}

/// Three sentiment cases on the embedded engine (the real model), with `prompt` for the last.
private func sentimentSuite(lastPrompt: String) -> String {
    """
    suite: cached
    generating: { enum: [positive, negative, neutral] }
    options: { maximumResponseTokens: 8 }
    cases:
      - { id: love, prompt: "I love this phone.", expect: { equals: positive } }
      - { id: hate, prompt: "This is the worst service ever.", expect: { equals: negative } }
      - { id: last, prompt: "\(lastPrompt)", expect: { equals: neutral } }
    """
}

/// Each case's id, status and output text in a results file.
private func answers(_ path: String) throws -> [String] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    let cases = object?["cases"] as? [[String: Any]] ?? []
    return cases.map { item in
        let attempts = item["attempts"] as? [[String: Any]] ?? []
        return "\(item["id"] ?? "") \(item["status"] ?? "") \(attempts.map { "\($0["text"] ?? "")" })"
    }
}

@Test func aCacheRunsTheModelOnceAndAnswersTheNextRunFromTheFile() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let suite = try suiteFile(sentimentSuite(lastPrompt: "The package arrived."), "cached.yaml", in: folder)
    let cache = folder.appendingPathComponent("cache.json").path
    let first = folder.appendingPathComponent("first.json").path
    let cold = try runFMEval(["run", suite, "--cache", cache, "--json", first], environment: ["CI": "true"])
    #expect([0, 1].contains(cold.status), "\(cold.stdout)\(cold.stderr)")
    #expect(cold.stdout.contains("cache: \(cache) (0 calls from it, 3 recorded)"), "\(cold.stdout)")
    #expect(cold.stdout.contains("0 of 3 calls from cache"))

    let second = folder.appendingPathComponent("second.json").path
    let warm = try runFMEval(["run", suite, "--cache", cache, "--json", second], environment: ["CI": "true"])
    #expect(warm.status == cold.status)
    #expect(warm.stdout.contains("cache: \(cache) (3 calls from it, 0 recorded)"), "\(warm.stdout)")
    #expect(try answers(second) == answers(first), "answers from the cache are the model's")

    // The file is a cassette: --cassette replays it fail-closed.
    let replayed = try runFMEval(["run", suite, "--cassette", cache, "--json",
                                  folder.appendingPathComponent("r.json").path], environment: ["CI": "true"])
    #expect(replayed.status == cold.status, "\(replayed.stdout)\(replayed.stderr)")

    // One changed prompt: one miss runs the model, the other two come from the file.
    let edited = try suiteFile(sentimentSuite(lastPrompt: "The package arrived on Tuesday."), "cached.yaml", in: folder)
    let partial = try runFMEval(["run", edited, "--cache", cache, "--json",
                                 folder.appendingPathComponent("p.json").path], environment: ["CI": "true"])
    #expect(partial.stdout.contains("(2 calls from it, 1 recorded)"), "\(partial.stdout)")
}

@Test func aCacheOfAnotherEngineABrokenFileOrASecondCassetteFlagStopsWithExit2() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let suite = try suiteFile("""
    suite: s
    engine: scripted
    cases:
      - { id: a, prompt: Hi, script: [ { text: hello } ], expect: { equals: hello } }
      - { id: b, prompt: Hi again, script: [ { error: timeout } ], expect: { equals: hello } }
    """, "s.yaml", in: folder)
    let cache = folder.appendingPathComponent("cache.json").path
    let run = try runFMEval(["run", suite, "--cache", cache, "--json", folder.appendingPathComponent("r.json").path],
                            environment: ["CI": "true"])
    #expect(run.status == 3, "b errors: \(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("(0 calls from it, 1 recorded)"), "the error is not cached: \(run.stdout)")

    let other = try suiteFile("""
    {"cassette": 1, "engine": {"name": "embedded", "model": "SmolLM2"},
     "entries": []}
    """, "other.json", in: folder)
    let mismatch = try runFMEval(["run", suite, "--cache", other], environment: ["CI": "true"])
    #expect(mismatch.status == 2 && mismatch.stderr.contains("holds answers of engine embedded (SmolLM2)"),
            "\(mismatch.stderr)")
    let broken = try suiteFile("{\"cassette\": 1,\n  \"entries\": [}", "broken.json", in: folder)
    let unreadable = try runFMEval(["run", suite, "--cache", broken], environment: ["CI": "true"])
    #expect(unreadable.status == 2 && unreadable.stderr.contains("error: \(broken):2:15: unexpected"),
            "\(unreadable.stderr)")
    let both = try runFMEval(["run", suite, "--cache", cache, "--record", other], environment: ["CI": "true"])
    #expect(both.status == 2 && both.stderr.contains("--record and --cache exclude each other"), "\(both.stderr)")
}
