import FMCore
import Foundation
import Testing
import FMEvaluate
@testable import FMHistory
import FMResults

/// Ten synthetic runs (`tenRuns`) written through a real SQLite file, then each query's answer.
@Suite struct HistoryQueryTests {
    let folder: URL
    let path: String

    init() throws {
        (folder, path) = try temporaryHistory()
        try record(tenRuns(), at: path)
    }

    @Test func runsAreListedNewestFirstWithCommitBranchAndCounts() throws {
        let runs = try HistoryStore(path: path, create: false).runs()
        #expect(runs.map(\.number) == Array((1...10).reversed()))
        #expect(runs[0].commit == "c10" + String(repeating: "0", count: 38) && runs[0].branch == "main")
        #expect(runs[1].branch == "feature")
        #expect(runs[0].total == 6 && runs[0].passed == 2 && runs[0].failed == 4 && runs[0].gatesFailed == 4)
        #expect(runs[9].total == 5 && runs[9].passRate == 4.0 / 5.0)
        #expect(try HistoryStore(path: path, create: false).runs(limit: 3).map(\.number) == [10, 9, 8])
    }

    @Test func trendGivesStatusPerRunPassRateAndTheRunWhereFailingStarted() throws {
        let store = HistoryStore(path: path, create: false)
        let breaks = try store.trend(caseID: "a/breaks")
        #expect(breaks.points.map(\.run) == Array(1...10))
        #expect(breaks.points.map(\.status) == Array(repeating: .passed, count: 6) + Array(repeating: .failed, count: 4))
        #expect(breaks.passRate == 0.6)
        #expect(breaks.lastPass?.run == 6)
        #expect(breaks.failingSince?.run == 7 && breaks.failingSince?.commit == "c7" + String(repeating: "0", count: 38))
        #expect(breaks.isRegression)

        let flip = try store.trend(caseID: "a/flip")
        #expect(flip.failingSince?.run == 10 && flip.lastPass?.run == 9)
        let never = try store.trend(caseID: "b/never")
        #expect(never.lastPass == nil && never.failingSince?.run == 1 && !never.isRegression)
        #expect(try store.trend(caseID: "a/steady").failingSince == nil)
        #expect(try store.trend(caseID: "b/late@v2").points.map(\.run) == Array(5...10))
        #expect(try store.trend(caseID: "a/breaks", last: 3).points.map(\.run) == [8, 9, 10])

        let unknown = #expect(throws: Fault.self) { try store.trend(caseID: "a/break") }
        #expect(unknown?.message.contains("did you mean a/breaks?") == true)
    }

    @Test func flipsListCasesWhoseStatusDiffersBetweenTwoRuns() throws {
        let store = HistoryStore(path: path, create: false)
        let flips = try store.flips(from: try store.run(named: "6"), to: try store.run(named: "7"))
        #expect(flips.map(\.caseID) == ["a/breaks", "a/edited", "a/flip"])
        #expect(flips.map(\.direction) == ["regression", "fixed", "fixed"])
        #expect(flips[0].before == .passed && flips[0].after == .failed)
        #expect(try store.flips(from: try store.run(named: "1"), to: try store.run(named: "1")).isEmpty)
    }

    @Test func flakiestCountsStatusChangesOnlyUnderAnUnchangedDefinition() throws {
        let store = HistoryStore(path: path, create: false)
        let flaky = try store.flakiest(last: 10)
        #expect(flaky.map(\.caseID) == ["a/flip", "a/breaks"], "a/edited changes definition every run, so it is not flaky")
        #expect(flaky[0].changes == 9 && flaky[0].runs == 10 && flaky[0].flipRate == 1)
        #expect(flaky[1].changes == 1)
        let recent = try store.flakiest(last: 3)
        #expect(recent.map(\.caseID) == ["a/flip"] && recent[0].changes == 2 && recent[0].statuses == [.failed, .passed, .failed])
    }

    @Test func suiteRatesGivePassRatePerSuiteAndVariantPerRun() throws {
        let suites = try HistoryStore(path: path, create: false).suiteRates(last: 10)
        #expect(suites.map(\.suite) == ["a", "b", "b@v2"])
        let a = suites[0].points
        #expect(a.map(\.run) == Array(1...10))
        #expect(a[0].cases == 4 && a[0].holding == 4 && a[0].rate == 1)
        #expect(a[9].holding == 1 && a[9].rate == 0.25)
        #expect(suites[1].points.allSatisfy { $0.rate == 0 })
        #expect(suites[2].points.map(\.run) == Array(5...10))
        #expect(try HistoryStore(path: path, create: false).suiteRates(last: 2)[0].points.map(\.run) == [9, 10])
    }

    @Test func runNamesResolveToNumbersIdsBranchesAndLastPassing() throws {
        let store = HistoryStore(path: path, create: false)
        let all = try store.runs()
        #expect(try store.run(named: "last").number == 10)
        #expect(try store.run(named: "3").number == 3)
        #expect(try store.run(named: all[4].runID).number == all[4].number)
        #expect(try store.run(named: String(all[4].runID.prefix(8))).number == all[4].number)
        #expect(try store.run(named: "feature").number == 9)
        #expect(try store.run(named: "main").number == 10)
        let none = #expect(throws: Fault.self) { try store.run(named: "last-passing") }
        #expect(none?.message.contains("no run in") == true)
        let missing = #expect(throws: Fault.self) { try store.run(named: "nope") }
        #expect(missing?.message.contains("recent runs: #10") == true)
    }

    @Test func pruneKeepsTheNewestRunsOrDropsTheOldOnesAndTheirOrphanCases() throws {
        let store = HistoryStore(path: path, create: false)
        #expect(try store.prune(before: "2026-11-03") == 2)
        #expect(try store.runs().map(\.number).min() == 3)
        #expect(try store.prune(keep: 4) == 4)
        #expect(try store.runs().map(\.number) == [10, 9, 8, 7])
        #expect(try store.trend(caseID: "a/breaks").points.map(\.run) == [7, 8, 9, 10])
        #expect(try store.prune(keep: 0) == 4)
        #expect(try store.caseIDs().isEmpty, "cases no run holds are deleted too")
    }

    @Test func historyPassRatesAreThePassRateOfTheResults() throws {
        let (folder, path) = try temporaryHistory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var run = syntheticRun(day: 1, [SyntheticCase(suite: "k", caseID: "fine", passes: true),
                                        SyntheticCase(suite: "k", caseID: "bug", passes: false)])
        let bug = run.cases[1]
        run.cases[1] = CaseResult(id: bug.id, suite: "k", caseID: "bug", engine: bug.engine,
                                  knownIssue: KnownIssue(reason: "reported upstream"), attempts: bug.attempts,
                                  durationMs: 2, definition: bug.definition)
        run = RunResult(run: run.run, cases: run.cases)
        try record([(run, GitInfo(commit: "c1", branch: "main"))], at: path)
        let store = HistoryStore(path: path, create: false)
        let expected = PassRate(run.cases).rate
        #expect(expected == 0.5 && run.exitCode == 0, "the known issue does not pass and does not fail the run")
        #expect(try store.runs()[0].passRate == expected)
        #expect(try store.suiteRates(last: 1)[0].points[0].rate == expected)
    }
}
