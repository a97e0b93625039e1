import Foundation
import Testing

/// A tiny scripted suite: two instruction blocks, a repeat, a structured answer.
private let tinySuite = """
suite: tiny
engine: scripted
instructions: Answer yes or no.
generating: { enum: ["yes", "no"] }
variants:
  - name: plain
  - name: other
    instructions: One word, yes or no.
cases:
  - { id: a, prompt: A?, repeat: 3, script: [ { structure: "yes", inputTokens: 20, outputTokens: 1 } ], expect: { equals: "yes" } }
  - { id: b, prompt: B?, script: [ { structure: "no", inputTokens: 22, outputTokens: 1 } ], expect: { equals: "yes" } }
"""

private func writeTinySuite() throws -> URL {
    let folder = try temporaryFolder()
    try tinySuite.write(to: folder.appendingPathComponent("tiny.yaml"), atomically: true, encoding: .utf8)
    return folder
}

@Test func benchSuiteJSONHasEveryFigure() throws {
    let folder = try writeTinySuite()
    let suite = folder.appendingPathComponent("tiny.yaml").path
    let result = try runFMEval(["bench", "suite", "--json", "--suite", suite])
    #expect(result.status == 0, "\(result.stderr)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
    for key in ["cases", "attempts", "reusedAttempts", "wallSeconds", "casesPerSecond", "inputTokens", "cachedInputTokens",
                "outputTokens", "prefillTokens", "decodeTokens", "toolSeconds", "passed", "failed", "errored",
                "answersSHA256", "engine", "jobs", "reuseRepeats", "caseOrder", "peakRSSBytes", "peakRSSScope", "suites"] {
        #expect(object[key] != nil, "missing \(key) in \(result.stdout)")
    }
    #expect(object["cases"] as? Int == 4)
    #expect(object["attempts"] as? Int == 8)
    #expect(object["reusedAttempts"] as? Int == 4)
    #expect(object["inputTokens"] as? Int == 20 * 2 + 22 * 2)
    #expect(object["passed"] as? Int == 2)
    #expect(object["failed"] as? Int == 2)
    #expect(object["caseOrder"] as? String == "prefix")
    #expect((object["peakRSSBytes"] as? Int ?? 0) > 0)
    // The scripted engine reports no timings: no prefill or decode speed, rather than a made-up one.
    #expect(object["prefillTokensPerSecond"] == nil)

    let recomputed = try runFMEval(["bench", "suite", "--json", "--suite", suite, "--no-reuse-repeats", "--case-order", "suite"])
    let again = try #require(try JSONSerialization.jsonObject(with: Data(recomputed.stdout.utf8)) as? [String: Any], "\(recomputed.stderr)")
    #expect(again["reusedAttempts"] as? Int == 0)
    #expect(again["inputTokens"] as? Int == 20 * 6 + 22 * 2)
    #expect(again["answersSHA256"] as? String == object["answersSHA256"] as? String)
}

@Test func benchSuiteTextNamesEachFigure() throws {
    let folder = try writeTinySuite()
    let result = try runFMEval(["bench", "suite", "--suite", folder.appendingPathComponent("tiny.yaml").path, "-j", "2"])
    #expect(result.status == 0, "\(result.stderr)")
    for label in ["suite ", "cases/s ", "prefill ", "decode ", "time ", "harness not derived (2 cases at a time",
                  "cache ", "reused   4 of 8 attempts", "peak RSS ", "results  2 passed, 2 failed", "answers  sha256 "] {
        #expect(result.stdout.contains(label), "\(label) in \(result.stdout)")
    }
}

@Test func benchSuiteRefusesBadInput() throws {
    let missing = try runFMEval(["bench", "suite", "--suite", "/nonexistent/bench.yaml"])
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("no suite at /nonexistent/bench.yaml"), "\(missing.stderr)")
    let folder = try writeTinySuite()
    let order = try runFMEval(["bench", "suite", "--suite", folder.path, "--case-order", "prefx"])
    #expect(order.status == 2)
    #expect(order.stderr.contains("--case-order must be prefix or suite, not 'prefx' (did you mean prefix?)"), "\(order.stderr)")
}

@Test func runMarksReusedRepeatsAndCountsThemInTheSummary() throws {
    let folder = try writeTinySuite()
    let (result, results) = try runSuite([folder.appendingPathComponent("tiny.yaml").path], in: folder)
    #expect(result.status == 1)
    let document = try #require(results)
    #expect(try document.attempts("a").map { $0["reusedFrom"] as? Int } == [nil, 0, 0])
    #expect(document.summary["reusedAttempts"] as? Int == 4)
    #expect(document.summary["inputTokens"] as? Int == 84)
    #expect(result.stdout.contains("8 attempts, 4 reused, 0.0% of input tokens cached, "), "\(result.stdout)")
    // Results stay in suite order although the prefix order ran both plain cases first.
    #expect(document.cases.compactMap { $0["id"] as? String } == ["tiny/a@plain", "tiny/a@other", "tiny/b@plain", "tiny/b@other"])
    let (_, plain) = try runSuite([folder.appendingPathComponent("tiny.yaml").path, "--no-reuse-repeats"], in: folder)
    #expect(try #require(plain).summary["reusedAttempts"] as? Int == 0)
}

@Test func embeddedRepeatsAreReusedWithTheSameAnswers() throws {
    let folder = try temporaryFolder()
    try """
    suite: reuse
    options: { sampling: greedy, maximumResponseTokens: 4 }
    instructions: Answer with one word.
    generating: { enum: [red, green, blue] }
    cases:
      - { id: sky, prompt: What colour is the sky?, repeat: 3 }
    """.write(to: folder.appendingPathComponent("reuse.yaml"), atomically: true, encoding: .utf8)
    let suite = folder.appendingPathComponent("reuse.yaml").path
    let (_, reused) = try runSuite([suite], in: folder)
    let (_, recomputed) = try runSuite([suite, "--no-reuse-repeats"], in: folder)
    let withReuse = try #require(reused).attempts("sky"), without = try #require(recomputed).attempts("sky")
    #expect(withReuse.map { $0["reusedFrom"] as? Int } == [nil, 0, 0])
    #expect(without.map { $0["reusedFrom"] as? Int } == [nil, nil, nil])
    #expect(withReuse.map { $0["text"] as? String } == without.map { $0["text"] as? String })
    #expect(withReuse.map { ($0["transcript"] as? [String: Any]).map { NSDictionary(dictionary: $0) } }
            == without.map { ($0["transcript"] as? [String: Any]).map { NSDictionary(dictionary: $0) } })
}
