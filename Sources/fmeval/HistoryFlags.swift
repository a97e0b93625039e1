import Foundation
import FMCore
import FMHistory
import FMReport
import FMResults

/// `--history FILE` / `--no-history` of `run` and `merge`: where the run history lives (docs/history.md),
/// whether this run is recorded in it, and what it says about the run afterwards.
struct HistoryFlags {
    /// How many runs the trend strips and the suite charts show.
    static let trendRuns = 20

    /// The `--history FILE` given, if any.
    var explicitPath: String?
    /// False with `--no-history`: nothing is recorded (a `--baseline history:…` still reads the file).
    var record = true

    /// `--history FILE`.
    static let history = Flag("--history", .value("FILE"), help: """
        the run history (SQLite) this run is appended to and `--baseline history:…`
        reads (default: history.sqlite beside the results file: reports/history.sqlite)
        """)
    /// `--no-history`.
    static let noHistory = Flag("--no-history", help: "do not record this run in the history")
    /// The two flags, which exclude each other in the synopsis.
    static let table = FlagTable.oneOf(history, noHistory)

    /// Reads `--history FILE` and `--no-history` from `arguments`.
    static func parse(_ arguments: Arguments, command: String) throws -> HistoryFlags {
        var flags = HistoryFlags()
        flags.explicitPath = arguments.value(history)
        flags.record = !arguments.flag(noHistory)
        if flags.explicitPath?.isEmpty == true {
            throw Fault.invalidInput("\(command): --history needs a file path (or use --no-history)")
        }
        return flags
    }

    /// The history's file name, beside the results.
    static let fileName = "history.sqlite"
    /// The history file when results go to the default folder: what `history` and `plan` read by default.
    static let defaultFile = FilePaths.join("reports", fileName)

    /// The history file for results written to `resultsPath` (the folder `reports` when results go
    /// to standard output).
    func file(resultsPath: String?) -> String {
        if let explicitPath { return explicitPath }
        return resultsPath.map { FilePaths.join(FilePaths.parent(of: $0), Self.fileName) } ?? Self.defaultFile
    }

    /// The history a finished run is saved to (nil with `--no-history`); git facts come from the
    /// working directory.
    func store(resultsPath: String?) -> HistoryStore? {
        record ? HistoryStore(path: file(resultsPath: resultsPath), git: GitInfo.detect()) : nil
    }

    /// What the history says about `run` once it is recorded: trends over the last runs and the
    /// regressions with the run they started in. nil when not recording, when the save failed (already
    /// warned about), or when the history cannot be read (a warning then).
    func context(for run: RunResult, store: HistoryStore?) -> HistoryContext? {
        guard let store, store.lastSaved == run.run.id else { return nil }
        do {
            return try HistoryFlags.context(for: run, store: store, last: HistoryFlags.trendRuns)
        } catch {
            printError("fmeval: warning: \(error); the reports are written without the history's trends")
            return nil
        }
    }

    /// The context of `run` from `store` over its newest `last` runs.
    static func context(for run: RunResult, store: HistoryStore, last: Int) throws -> HistoryContext {
        let trends = try store.trends(last: last)
        let ids = Set(run.cases.map(\.id))
        var cases: [String: [HistoryContext.Mark]] = [:]
        var regressions: [HistoryContext.Regression] = []
        for (id, trend) in trends where ids.contains(id) {
            cases[id] = trend.points.map { HistoryContext.Mark(run: runLabel($0), status: $0.status) }
        }
        for result in run.cases where result.failsRun {
            guard let trend = try? store.trend(caseID: result.id), trend.isRegression,
                  let since = trend.failingSince, let lastPass = trend.lastPass else { continue }
            regressions.append(HistoryContext.Regression(caseID: result.id, since: runLabel(since), lastPass: runLabel(lastPass)))
        }
        let suites = try store.suiteRates(last: last).map { series in
            HistoryContext.SuiteSeries(suite: series.suite, points: series.points.map {
                HistoryContext.RatePoint(run: HistoryContext.Run(number: $0.run, startedAt: $0.startedAt, commit: nil), rate: $0.rate)
            })
        }
        return HistoryContext(file: store.location, cases: cases, suites: suites,
                              regressions: regressions.sorted { $0.caseID < $1.caseID })
    }

    private static func runLabel(_ point: TrendPoint) -> HistoryContext.Run {
        HistoryContext.Run(number: point.run, startedAt: point.startedAt, commit: point.commit)
    }
}
