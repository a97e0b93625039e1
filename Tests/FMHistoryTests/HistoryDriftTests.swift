import FMCore
import Foundation
import FMReport
import FMResults
import Testing
@testable import FMHistory

/// Each case's engine is recorded (schema version 3), so a baseline from the history can tell which model
/// a case ran on even when it is not the run's default engine; drift then attributes its flips.
@Test func theHistoryKeepsEachCasesEngineAndDriftReadsIt() throws {
    let (folder, path) = try temporaryHistory()
    defer { try? FileManager.default.removeItem(at: folder) }
    var before = syntheticRun(day: 1, [SyntheticCase(suite: "a", caseID: "x", passes: true),
                                       SyntheticCase(suite: "a", caseID: "y", passes: true)])
    var after = syntheticRun(day: 2, [SyntheticCase(suite: "a", caseID: "x", passes: false),
                                      SyntheticCase(suite: "a", caseID: "y", passes: false, definition: "def-2")])
    before.cases[0].engine = EngineIdentity(name: "embedded", model: "m", modelHash: "old")
    after.cases[0].engine = EngineIdentity(name: "embedded", model: "m", modelHash: "new")
    let git = GitInfo(commit: String(repeating: "0", count: 40), branch: "main")
    try record([(before, git), (after, git)], at: path)
    let store = HistoryStore(path: path, create: false)
    #expect(try store.version(store.open()) == HistorySchema.currentVersion)
    let first = try store.baseline(store.run(named: "1")), second = try store.baseline(store.run(named: "2"))
    #expect(first.cases.map(\.engine?.modelHash) == ["old", nil])
    #expect(first.cases[1].engine == before.run.fingerprint.engine)
    let report = DriftReport(from: first, label: "#1", to: second, label: "#2")
    #expect(report.flips.map(\.cause) == [.model, .case])
}
