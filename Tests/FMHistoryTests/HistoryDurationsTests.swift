import Foundation
import Testing
import FMCore
@testable import FMHistory
import FMResults

/// `--shard-balance history` reads each case's median duration over its newest full runs; shard runs
/// (which other shards may be recording meanwhile) are not read, so every shard sees the same durations.
@Test func shardBalanceIsTheMedianOfTheNewestFullRuns() throws {
    let (folder, path) = try temporaryHistory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = HistoryStore(path: path)
    for (day, ms) in [(1, 900.0), (2, 100.0), (3, 300.0), (4, 200.0), (5, 400.0), (6, 500.0)] {
        var run = syntheticRun(day: day, [SyntheticCase(suite: "s", caseID: "a", passes: true)])
        run.cases[0].durationMs = ms
        try store.save(run)
    }
    var shard = syntheticRun(day: 7, [SyntheticCase(suite: "s", caseID: "a", passes: true),
                                      SyntheticCase(suite: "s", caseID: "new", passes: true)])
    shard.run.shard = "1/2"
    shard.cases[0].durationMs = 99_999
    try store.save(shard)
    guard case .durations(let durations, let basis) = try store.shardBalance() else {
        Issue.record("a history balances by durations")
        return
    }
    #expect(durations == ["s/a": 300], "the median of 100, 300, 200, 400, 500; the oldest and the shard left out")
    #expect(basis == "median of each case's last 5 full runs up to #6")
    let absent = HistoryStore(path: folder.appendingPathComponent("none.sqlite").path, create: false)
    guard case .durations(let none, let missing) = try absent.shardBalance() else { return }
    #expect(none.isEmpty && missing.hasPrefix("no history at "))
}
