import FMCore
import Foundation
import Testing
import FMEvaluate
@testable import FMReport
@testable import FMResults

/// Encodes a value canonically so two values can be compared for losslessness.
private func canonical<T: Encodable>(_ value: T) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}

/// Splits the sample run into `count` shards the way `--shard` would.
private func shards(of run: RunResult, count: Int) throws -> [RunResult] {
    try (1...count).map { index in
        let shard = try Shard(index: index, count: count)
        var info = run.run
        info.shard = shard.description
        let mine = run.cases.filter { shard.contains(suite: $0.suite, variant: $0.variant, caseID: $0.caseID) }
        let classifications = index == 1 ? run.classifications : []
        return RunResult(run: info, cases: mine, skipped: run.skipped, classifications: classifications)
    }
}

@Test func mergingShardsIsLossless() throws {
    let run = sampleRun()
    let parts = try shards(of: run, count: 3)
    let outcome = try MergeResults.merge(parts.enumerated().map { ("shard\($0.offset + 1).json", $0.element) })
    #expect(outcome.warnings.isEmpty)
    #expect(outcome.result.run.shard == nil)
    let original = try Dictionary(uniqueKeysWithValues: run.cases.map { ($0.id, try canonical($0)) })
    let merged = try Dictionary(uniqueKeysWithValues: outcome.result.cases.map { ($0.id, try canonical($0)) })
    #expect(merged == original)
    #expect(outcome.result.skipped.map(\.id) == run.skipped.map(\.id))
    #expect(try canonical(outcome.result.summary) == canonical(run.summary))
    #expect(try canonical(outcome.result.classifications) == canonical(run.classifications))
}

@Test func mergeSumsClassificationsAndWarnsAboutMissingShards() throws {
    let run = sampleRun()
    var parts = try shards(of: run, count: 3)
    parts[1].classifications = run.classifications
    let outcome = try MergeResults.merge([("one", parts[0]), ("two", parts[1])])
    #expect(outcome.warnings == ["merge: shard 3/3 missing; the merged results are partial"])
    #expect(outcome.result.run.shard == "1/3,2/3")
    let summary = try #require(outcome.result.classifications.first?.summary)
    #expect(summary.total == 8)
    #expect(summary.count(expected: "positive", predicted: "positive") == 2)
    #expect(summary.count(expected: "<neutral>", predicted: ClassificationSummary.outOfEnum) == 2)
}

@Test func mergeRejectsOverlapAndMixedEngines() throws {
    let run = sampleRun()
    let overlap = try #require(throws: Fault.self) { try MergeResults.merge([("a.json", run), ("b.json", run)]) }
    #expect(overlap.message.contains("city-info/paris has results in both a.json and b.json"))
    var other = RunResult(run: sampleInfo(), cases: [sampleCase("other", "x", [.passed])])
    other.run.fingerprint = sampleFingerprint(model: "other-model")
    let mixed = try #require(throws: Fault.self) { try MergeResults.merge([("a.json", run), ("c.json", other)]) }
    #expect(mixed.message.contains("c.json ran scripted (other-model"))
}

@Test func anEmptyShardMergesWhateverEngineItRecorded() throws {
    let run = sampleRun()
    var empty = RunResult(run: sampleInfo(shard: "1/2"), cases: [])
    empty.run.fingerprint = sampleFingerprint(model: "default")
    var full = run
    full.run.shard = "2/2"
    let merged = try MergeResults.merge([("shard-1.json", empty), ("shard-2.json", full)])
    #expect(merged.result.cases.count == run.cases.count)
    #expect(merged.result.run.fingerprint == run.run.fingerprint, "the fingerprint comes from a shard that ran cases")
    #expect(merged.result.run.shard == nil, "both shards are present")
    #expect(merged.warnings.isEmpty)
}

@Test func resultsFilesRoundTripAndExplainBadInput() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-report-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("nested/results.json").path
    try ResultsFile.write(sampleRun(), to: path)
    let back = try ResultsFile.load(path)
    #expect(try canonical(back.cases) == canonical(sampleRun().cases))

    let broken = folder.appendingPathComponent("broken.json").path
    try Data(#"{"version": 1, "run": {}, "cases": []}"#.utf8).write(to: URL(fileURLWithPath: broken))
    let error = try #require(throws: Fault.self) { try ResultsFile.load(broken) }
    #expect(error.message.hasPrefix("\(broken): not a valid fmeval results document: at $.run"))
    #expect(error.message.contains("docs/results-format.md"))

    let newer = try #require(throws: Fault.self) {
        try ResultsFile.decode(Data(#"{"version": 7}"#.utf8), path: "future.json")
    }
    #expect(newer.message.contains("future.json: results format version 7 is newer"))
    let missing = try #require(throws: Fault.self) { try ResultsFile.load(folder.appendingPathComponent("nope.json").path) }
    #expect(missing.message.contains("nope.json: cannot read the results file"))
}

@Test func loneSurrogatesAreRepairedNotFatal() throws {
    let repaired = JSONRepair.repairingLoneSurrogates(Data(#"["a\ud800b", "\udc00", "\ud83d\ude00", "\\ud800", "\u0041"]"#.utf8))
    #expect(String(decoding: repaired, as: UTF8.self) == #"["a\uFFFDb", "\uFFFD", "\ud83d\ude00", "\\ud800", "\u0041"]"#)
    let decoded = try JSONDecoder().decode([String].self, from: repaired)
    #expect(decoded == ["a\u{FFFD}b", "\u{FFFD}", "😀", "\\ud800", "A"])

    var run = sampleRun()
    run.cases[0].attempts[0].text = "MARKER"
    let encoded = String(decoding: try JSONEncoder().encode(run), as: UTF8.self)
    let hostile = encoded.replacingOccurrences(of: "MARKER", with: #"bad \udbff surrogate"#)
    let loaded = try ResultsFile.decode(Data(hostile.utf8), path: "hostile.json")
    #expect(loaded.cases[0].attempts[0].text == "bad \u{FFFD} surrogate")
}

/// The run of three suite files × two variants that single-run order gives: file, line, then variant.
private func orderedRun() -> RunResult {
    var cases: [CaseResult] = []
    for (file, lines) in [("b", [3, 9]), ("a", [4]), ("c", [2, 5, 7])] {
        for line in lines {
            for variant in ["terse", "chatty"] {
                var result = sampleCase(file, "case\(line)", variant: variant, [.passed])
                result.source = "suites/\(file).yaml:\(line)"
                cases.append(result)
            }
        }
    }
    return RunResult(run: sampleInfo(variants: ["terse", "chatty"]), cases: cases)
}

@Test func aMergedRunHasItsOwnIdAndTheOrderOfOneRun() throws {
    let run = orderedRun()
    var parts = try shards(of: run, count: 3)
    for index in parts.indices { parts[index].run.id = "shard-\(index + 1)" }
    let named = parts.enumerated().map { ("shard\($0.offset + 1).json", $0.element) }
    let merged = try MergeResults.merge(named).result
    #expect(!["shard-1", "shard-2", "shard-3"].contains(merged.run.id))
    #expect(merged.run.id.count == 36 && merged.run.id.split(separator: "-").count == 5, "\(merged.run.id)")
    #expect(merged.run.mergedFrom == ["shard-1", "shard-2", "shard-3"])
    #expect(try MergeResults.merge(named.reversed()).result.run.id == merged.run.id, "the same shards, the same run")
    #expect(merged.cases.map(\.id) == run.cases.map(\.id), "\(merged.cases.map(\.id))")
    #expect(try MergeResults.merge(named.reversed()).result.cases.map(\.id) == run.cases.map(\.id))
}
