import Foundation
import FMCore
import FMHistory
import FMReport
import FMResults

/// `fmeval history [QUERY]`: questions over the run history database (docs/history.md).
struct HistoryCommand: Command {
    static let path = ["history"]
    static let summary = "Query the run history: runs, a case's trend, flips, flakiest cases, suite pass rates, prune"
    static let history = Flag("--history", .value("FILE"), help: "the history file (default: reports/history.sqlite)")
    static let last = Flag("--last", .value("N"),
                           help: "how many of the newest runs to read (runs, trend: all; flaky, suites: 30)")
    static let keep = Flag("--keep", .value("N"), help: "prune: the number of newest runs to keep")
    static let before = Flag("--before", .value("DATE"), help: "prune: delete the runs started before DATE")
    static let json = Flag("--json", help: "print the answer as JSON instead of text")
    static let usage = CommandUsage("history", "[QUERY [ARGUMENT...]]", flags: FlagTable(last) + .oneOf(keep, before)
                                 + FlagTable(history, json))
    static let help = """
    \(usage.line)

    QUERY is one of:
      fmeval history [runs] [--last N]
      fmeval history trend CASE_ID [--last N]
      fmeval history flips [RUN_A RUN_B]
      fmeval history drift [RUN_A RUN_B]
      fmeval history flaky [--last N]
      fmeval history suites [--last N]
      fmeval history prune (--keep N | --before DATE)

    Every 'fmeval run' and 'fmeval merge' appends its run to an SQLite history (default
    reports/history.sqlite; see 'fmeval run --history'). The queries:

      runs     the recorded runs, newest first: number, start, git commit and branch, counts, pass rate
      trend    one case's status per run (CASE_ID is suite/case or suite/case@variant), its pass rate over
               those runs and, when it fails now, the run (and commit) where it started failing after its
               last pass
      flips    the cases whose status differs between two runs (default: the last two)
      drift    the cases whose gate verdict flipped between two runs (default: the last two), each
               attributed to its cause: the model changed (the model file's SHA-256, the server's model
               and build, the OS), the case changed (its definition hash), both, or neither (flaky)
      flaky    the cases whose status changed between consecutive runs with an unchanged definition
               hash over the last N runs (default 30), most changes first
      suites   each suite's pass rate (cases holding their gate) per run over the last N runs (default 30)
      prune    delete all but the newest N runs, or the runs started before DATE (YYYY-MM-DD or an ISO
               8601 time), then compact the file

    A run is named by its number (#N in 'runs'), its run id (or its first 8+ characters), last,
    last-passing (the newest run where every gate held), or a git branch (that branch's newest run);
    'fmeval run --baseline history:NAME' takes the same names.

    OPTIONS:
    \(usage.flags.list(column: 19))

    Exit codes: 0 answered · 2 invalid input (an unknown query, case or run, a missing, corrupt or newer
    history file) · 3 the file could not be read or written.
    """

    /// The queries, for messages.
    static let queries = ["runs", "trend", "flips", "drift", "flaky", "suites", "prune"]

    static func run(_ arguments: [String]) throws -> Int32 {
        let args = try Arguments(arguments, command: "history", flags: usage.flags)
        let file = args.value(history) ?? HistoryFlags.defaultFile
        let last = try args.int(Self.last, minimum: 1)
        let keep = try args.int(Self.keep, minimum: 0)
        let before = args.value(Self.before)
        let json = args.flag(Self.json)
        var words = args.positionals
        let query = words.isEmpty ? "runs" : words.removeFirst()
        guard queries.contains(query) else {
            var message = "history: unknown query '\(query)'"
            if let guess = Suggestion.closest(to: query, in: queries) { message += " (did you mean '\(guess)'?)" }
            throw Fault.invalidInput(message + "; the queries are \(queries.joined(separator: ", "))")
        }
        if query != "prune" && (keep != nil || before != nil) {
            throw Fault.invalidInput("history \(query): --keep and --before are for 'fmeval history prune'")
        }
        let store = HistoryStore(path: file, create: false)
        let output = try answer(query, words: words, store: store, last: last, keep: keep, before: before, json: json)
        if json { printJSON(output) } else { print(output) }
        return ExitStatus.ok
    }

    /// The text (or JSON) answering `query`.
    static func answer(_ query: String, words: [String], store: HistoryStore, last: Int?, keep: Int?, before: String?,
                       json: Bool) throws -> String {
        func expect(_ count: ClosedRange<Int>, _ usage: String) throws {
            guard count.contains(words.count) else {
                throw Fault.invalidInput("history \(query): expected \(usage), got \(words.isEmpty ? "nothing" : words.joined(separator: " "))")
            }
        }
        switch query {
        case "runs":
            try expect(0...0, "no arguments")
            let runs = try store.runs(limit: last)
            return json ? try encode(runs) : HistoryText.runs(runs, file: store.location)
        case "trend":
            try expect(1...1, "one case id (suite/case or suite/case@variant)")
            let trend = try store.trend(caseID: words[0], last: last)
            return json ? try encode(trend) : HistoryText.trend(trend)
        case "flips":
            try expect(0...2, "two runs (or none: the last two)")
            guard words.count != 1 else { throw Fault.invalidInput("history flips: give two runs, or none for the last two") }
            let (from, to) = try flipRuns(words, store: store, query: query)
            let flips = try store.flips(from: from, to: to)
            return json ? try encode(FlipsAnswer(from: from, to: to, flips: flips)) : HistoryText.flips(flips, from: from, to: to)
        case "drift":
            try expect(0...2, "two runs (or none: the last two)")
            guard words.count != 1 else { throw Fault.invalidInput("history drift: give two runs, or none for the last two") }
            let (from, to) = try flipRuns(words, store: store, query: query)
            let report = DriftReport(from: try store.baseline(from), label: "#\(from.number)",
                                     to: try store.baseline(to), label: "#\(to.number)")
            return json ? try encode(report) : report.text
        case "flaky":
            try expect(0...0, "no arguments")
            let window = last ?? 30
            let flaky = try store.flakiest(last: window)
            return json ? try encode(flaky) : HistoryText.flaky(flaky, window: window)
        case "suites":
            try expect(0...0, "no arguments")
            let suites = try store.suiteRates(last: last ?? 30)
            return json ? try encode(suites) : HistoryText.suites(suites)
        default:
            try expect(0...0, "no arguments")
            let removed = try prune(store, keep: keep, before: before)
            return json ? try encode(["removedRuns": removed]) : "history \(store.location): removed \(removed) run\(removed == 1 ? "" : "s")"
        }
    }

    /// The two runs of `flips` or `drift` (`query`): the ones named, or the last two.
    static func flipRuns(_ words: [String], store: HistoryStore, query: String) throws -> (HistoryRun, HistoryRun) {
        if words.count == 2 { return (try store.run(named: words[0]), try store.run(named: words[1])) }
        let runs = try store.runs(limit: 2)
        guard runs.count == 2 else {
            throw Fault.invalidInput("history \(query): \(store.location) holds \(runs.count) run"
                + "\(runs.count == 1 ? "" : "s"); \(query) needs two")
        }
        return (runs[1], runs[0])
    }

    /// Runs `prune` with exactly one of `--keep` and `--before` (a checked date).
    static func prune(_ store: HistoryStore, keep: Int?, before: String?) throws -> Int {
        switch (keep, before) {
        case (let keep?, nil):
            return try store.prune(keep: keep)
        case (nil, let before?):
            guard before.range(of: #"^\d{4}-\d{2}-\d{2}([T ][0-9:.]+Z?)?$"#, options: .regularExpression) != nil else {
                throw Fault.invalidInput("history prune: --before expects a date YYYY-MM-DD or an ISO 8601 UTC time, got '\(before)'")
            }
            return try store.prune(before: before)
        default:
            throw Fault.invalidInput("history prune: give exactly one of --keep N and --before DATE")
        }
    }

    /// `flips --json`: the two runs and the flips.
    struct FlipsAnswer: Encodable {
        var from: HistoryRun
        var to: HistoryRun
        var flips: [StatusFlip]
    }

    /// Pretty JSON with sorted keys.
    static func encode<Value: Encodable>(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
