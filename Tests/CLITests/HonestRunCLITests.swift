import Foundation
import Testing

/// Honest resume, evaluator errors, a corrupted model and output paths, through the real binary.
private let demoSuite = """
suite: demo
engine: scripted
cases:
  - { id: one, prompt: Hi, script: [ { text: Hello } ], expect: { contains: Hello } }
  - { id: two, prompt: Hi, script: [ { text: Hello } ], expect: { contains: Hello } }
"""

private func write(_ text: String, to url: URL) throws {
    try Data(text.utf8).write(to: url)
}

@Test func resumeRerunsACaseWhoseDefinitionChangedAndSaysWhy() throws {
    let folder = try temporaryFolder()
    let suite = folder.appendingPathComponent("demo.yaml")
    try write(demoSuite, to: suite)
    let (first, _) = try runSuite([suite.path], in: folder)
    #expect(first.status == 0, "\(first.stderr)")
    try write(demoSuite.replacingOccurrences(of: "{ id: one, prompt: Hi, script: [ { text: Hello } ], expect: { contains: Hello } }",
                                             with: "{ id: one, prompt: Hi, script: [ { text: Hello } ], expect: { contains: Goodbye } }"), to: suite)
    let json = folder.appendingPathComponent("results.json").path
    let (resumed, results) = try runSuite([suite.path, "--resume", json, "-v"], in: folder)
    #expect(resumed.status == 1, "the changed expectation fails now: \(resumed.stdout)\(resumed.stderr)")
    #expect(resumed.stderr.contains("fmeval: --resume: 1 of the 2 finished cases in \(json) is run again, not kept: demo/one (its definition changed)"))
    #expect(results?.statuses == ["one": "failed", "two": "passed"])
}

@Test func resumeOfResultsNeverWrittenReadsTheirJournal() throws {
    let folder = try temporaryFolder()
    let suite = folder.appendingPathComponent("demo.yaml")
    try write(demoSuite, to: suite)
    let (_, written) = try runSuite([suite.path], in: folder)
    let document = try #require(written).document
    // What an interrupted run leaves: the journal with one finished case, no results file.
    let json = folder.appendingPathComponent("results.json").path
    let header = try JSONSerialization.data(withJSONObject: ["journal": 1, "run": document["run"]!])
    let finished = try JSONSerialization.data(withJSONObject: ["case": (document["cases"] as! [Any])[0]])
    try write(String(decoding: header, as: UTF8.self) + "\n" + String(decoding: finished, as: UTF8.self) + "\n", to: URL(fileURLWithPath: json + "l"))
    try FileManager.default.removeItem(atPath: json)
    let (resumed, results) = try runSuite([suite.path, "--resume", json, "-v"], in: folder)
    #expect(resumed.status == 0, "\(resumed.stdout)\(resumed.stderr)")
    #expect(resumed.stderr.contains("--resume: \(json) does not exist (the run was interrupted before writing it); resuming from the journal \(json)l (1 finished case)"))
    #expect(resumed.stdout.contains("1 case") || resumed.stdout.contains("demo/two"))
    #expect(results?.cases.count == 2)
}

@Test func evaluatorsThatCannotRunAreErrorsNotModelFailures() throws {
    let folder = try temporaryFolder()
    let suite = folder.appendingPathComponent("evals.yaml")
    try write("""
    suite: evals
    engine: scripted
    cases:
      - { id: missing, prompt: Hi, script: [ { text: Hello } ], expect: { command: [fmeval-no-such-evaluator-xyz] } }
      - { id: hangs, prompt: Hi, script: [ { text: Hello } ], expect: { command: { argv: [sleep, "5"], timeoutSeconds: 0.3 } } }
      - { id: judged, prompt: Hi, script: [ { text: Hello } ], expect: { judge: { engine: replay, criteria: polite } } }
      - id: crashes-every-other-time
        prompt: Hi
        repeat: 4
        gate: { minPassRate: 0.5 }
        script: [ { text: Hello } ]
        expect: { command: [sh, -c, "cat >/dev/null; if [ -e flip ]; then rm flip; kill -SEGV $$; else touch flip; echo '{\\"value\\":\\"passing\\"}'; fi"] }
    """, to: suite)
    let (run, results) = try runSuite([suite.path], in: folder)
    #expect(run.status == 3, "\(run.stdout)\(run.stderr)")
    #expect(results?.statuses == ["missing": "error", "hangs": "error", "judged": "error", "crashes-every-other-time": "error"])
    #expect(try results?.error("missing")["domain"] as? String == "EvaluatorError")
    #expect((try results?.error("missing")["message"] as? String)?.contains("not found") == true)
    #expect(run.stdout.contains("EvaluatorError.evaluatorFailed"), "the terminal says why: \(run.stdout)")
}

@Test func unwritableOutputPathsStopTheRunBeforeItStarts() throws {
    let folder = try temporaryFolder()
    let suite = folder.appendingPathComponent("demo.yaml")
    try write(demoSuite, to: suite)
    let file = folder.appendingPathComponent("plain-file").path
    try write("x", to: URL(fileURLWithPath: file))
    let outputs: [([String], String?)] = [
        (["--out", file], "fmeval: error: --out \(file): \(file) is a file, but a folder is needed there to write \(file)/results.json; remove or rename it, or choose another path\n"),
        (["--out", folder.path, "--junit", file + "/junit.xml"], "fmeval: error: --junit \(file)/junit.xml: \(file) is a file, but a folder is needed there to write \(file)/junit.xml; remove or rename it, or choose another path\n"),
        (["--out", folder.path, "--html", folder.path], "fmeval: error: --html \(folder.path): \(folder.path) is a folder; give a file path\n"),
        (["--json", "/proc/fmeval-results.json"], nil),
    ]
    for (flags, expected) in outputs {
        let run = try runFMEval(["run", suite.path] + flags, environment: ["CI": "true"])
        #expect(run.status == 2, "\(flags): \(run.stderr)")
        if let expected {
            #expect(run.stderr == expected, "\(flags)")
        } else {
            // /proc accepts no new files, even for root.
            #expect(run.stderr.hasPrefix("fmeval: error: --json /proc/fmeval-results.json: cannot write in the folder /proc ("), "\(run.stderr)")
        }
        #expect(run.stderr.split(separator: "\n").count == 1, "one line")
        #expect(!run.stdout.contains("demo/one"), "nothing ran: \(run.stdout)")
    }
}

/// The verified model from the real cache (fetched first if needed), copied into a fresh cache folder.
private func modelCopy() throws -> (cache: URL, model: URL) {
    let fetched = try runFMEval(["model", "fetch"])
    try #require(fetched.status == 0, "\(fetched.stderr)")
    let original = URL(fileURLWithPath: fetched.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    let cache = try temporaryFolder()
    let model = cache.appendingPathComponent(original.lastPathComponent)
    try FileManager.default.copyItem(at: original, to: model)
    return (cache, model)
}

@Test func aCorruptedCachedModelStopsTheRunWithExit3() throws {
    let folder = try temporaryFolder()
    let suite = folder.appendingPathComponent("embedded.yaml")
    try write("""
    suite: embedded
    cases:
      - { id: hello, prompt: Say hello., options: { maximumResponseTokens: 4 }, expect: { usage: { maxOutputTokens: 100 } } }
    """, to: suite)
    let (cache, model) = try modelCopy()
    defer { try? FileManager.default.removeItem(at: cache) }
    let intact = try runFMEval(["run", suite.path, "--json", folder.appendingPathComponent("intact.json").path],
                               environment: ["CI": "true", "FMEVAL_MODEL_DIR": cache.path])
    #expect(intact.status == 0, "an intact copy runs: \(intact.stdout)\(intact.stderr)")
    #expect(FileManager.default.fileExists(atPath: model.path + ".verified"), "verified once, then stamped")
    // Same size, bytes overwritten in the middle of the weights.
    let handle = try FileHandle(forUpdating: model)
    try handle.seek(toOffset: 50_000_000)
    try handle.write(contentsOf: Data(repeating: 0x7F, count: 4096))
    try handle.close()
    let started = Date()
    let run = try runFMEval(["run", suite.path, "--json", folder.appendingPathComponent("corrupt.json").path],
                            environment: ["CI": "true", "FMEVAL_MODEL_DIR": cache.path])
    print("corrupted model refused in \(String(format: "%.2f", Date().timeIntervalSince(started))) s")
    #expect(run.status == 3, "\(run.stdout)\(run.stderr)")
    #expect(run.stderr.contains("is corrupted: its SHA-256 is"))
    #expect(run.stderr.contains("run `fmeval model fetch --force`"))
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("corrupt.json").path), "nothing was scored")
}
