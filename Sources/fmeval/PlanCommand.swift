import Foundation
import FMCore
import FMEvaluate
import FMHistory
import FMReport
import FMRun
import FMSuite

/// `fmeval plan [PATH...]`: the cases × repeats each suite's gate and A/B pairs need to detect a difference.
struct PlanCommand: Command {
    static let path = ["plan"]
    static let summary = "Power planning: the cases × repeats a suite needs to detect a pass-rate difference"
    static let detect = Flag("--detect", .value("PCT"), help: "the difference to detect, as 5% or 0.05 (default 5%)")
    static let power = Flag("--power", .value("P"),
                            help: "the chance of detecting it, above 0 and below 1 (default 0.8)")
    static let history = Flag("--history", .value("FILE"), help: """
        the run history the measured pass rates come from (default: reports/history.sqlite,
        when it exists)
        """)
    static let json = Flag("--json", help: "print the rows as JSON instead of a table")
    static let usage = CommandUsage("plan", "[PATH...]", flags: FlagTable(detect, power, history, json))
    static let help = """
    \(usage.line)

    Loads suites as 'fmeval validate' does (default: suites/ here or in the nearest folder above) and
    prints, per suite configuration and per A/B pair of a suite's variants, how many trials or paired
    cases detecting a difference of --detect needs with two-sided significance 5% and the chance
    --power, and how many cases that is at the suite's repeats:

      gate  a one-sample test of the pass rate against a drop of --detect, from the pass rate the
            newest history run of that configuration measured (50% assumed without one)
      A/B   McNemar's test of each variant against the first declared one, from the share of cases
            the two disagreed on in the newest history run of both (twice --detect assumed without one)

    Each row ends 'enough' or 'underpowered: needs about N cases; you have M'. Repeats count as
    trials of a gate, which is optimistic when a case's attempts agree with each other; they add no
    pairs to an A/B comparison. The formulas are in docs/reports.md ("Power planning").

    OPTIONS:
    \(usage.flags.list(column: 19))

    Exit codes: 0 planned · 2 invalid input (a suite with errors, a path that does not exist, suites
    without cases, a bad --detect or --power, a missing or corrupt --history file).
    """

    /// The history read when `--history` is not given (and only when it exists).
    static let defaultHistory = HistoryFlags.defaultFile
    /// The history runs searched for the newest measurement.
    static let window = 30

    static func run(_ arguments: [String]) throws -> Int32 {
        let args = try Arguments(arguments, command: "plan", flags: usage.flags)
        let difference = try parseDetect(args.value(detect))
        let chance = try parsePower(args.value(power))
        var paths = args.positionals
        if paths.isEmpty { paths = try SuiteDiscovery.defaultPaths(command: "plan") }
        let loaded = SuiteLoader.load(paths: paths)
        let diagnostics = loaded.diagnostics + RunPipeline.foldersWithoutSuites(paths)
        for diagnostic in diagnostics { printError(diagnostic.description) }
        guard diagnostics.isEmpty else {
            throw Fault.invalidInput("plan: the suites have \(diagnostics.count) error(s); fix them ('fmeval validate' "
                + "lists them) and plan again")
        }
        guard !loaded.expandedCases.isEmpty else {
            throw Fault.invalidInput("plan: the suites in \(paths.joined(separator: " ")) define no cases; "
                + "add 'cases:' or a 'dataset:'")
        }
        let file = args.value(history)
        let measured = try Measurements(file: file ?? defaultHistory, required: file != nil, window: window)
        let rows = loaded.suites.flatMap { plan($0, measured: measured, detect: difference, power: chance) }
        if args.flag(json) {
            printJSON(try HistoryCommand.encode(Answer(detect: difference, power: chance, alpha: PowerPlan.alpha,
                                                       history: measured.file, rows: rows)))
        } else {
            print("Detecting a difference of \(PlanText.percent(difference)) with power \(chance) "
                + "(two-sided, 5% significance):")
            print(PlanText.table(rows))
            print(measured.file.map { "measured rates: the newest of the last \(window) runs in \($0)" }
                ?? "no run history (\(defaultHistory)): rates assumed; record runs or give --history FILE")
        }
        return ExitStatus.ok
    }

    /// The rows of one suite: a gate per configuration, then an A/B pair per variant after the first.
    static func plan(_ suite: Suite, measured: Measurements, detect: Double, power: Double) -> [PlanRow] {
        let cases = suite.expanded()
        let configurations: [String?] = suite.variants.isEmpty ? [nil] : suite.variants.map(\.name)
        var byConfiguration: [String?: [ExpandedCase]] = [:]
        for item in cases { byConfiguration[item.variant, default: []].append(item) }
        func name(_ variant: String?) -> String { suite.name + (variant.map { "@" + $0 } ?? "") }
        func repeats(_ items: [ExpandedCase]) -> Int {
            items.isEmpty ? 1 : max(1, items.map(\.repeatCount).reduce(0, +) / items.count)
        }
        var rows = configurations.map { variant -> PlanRow in
            let items = byConfiguration[variant] ?? []
            let rate = measured.rate(of: name(variant))
            return PlanRow.gate(suite: name(variant), cases: items.count, repeats: repeats(items),
                                passRate: rate?.rate, run: rate?.run, detect: detect, power: power)
        }
        guard let reference = configurations.first ?? nil else { return rows }
        let referenceIDs = Set((byConfiguration[reference] ?? []).map(\.caseID))
        for case let variant? in configurations.dropFirst() {
            let shared = (byConfiguration[variant] ?? []).filter { referenceIDs.contains($0.caseID) }
            let found = measured.discordance(suite: suite.name, reference: reference, variant: variant,
                                             caseIDs: shared.map(\.caseID))
            rows.append(PlanRow.ab(suite: suite.name, reference: reference, variant: variant, cases: shared.count,
                                   repeats: repeats(shared), discordance: found?.rate, run: found?.run,
                                   detect: detect, power: power))
        }
        return rows
    }

    /// `--detect`: `5%` or `0.05`, above 0 and below 100 %.
    static func parseDetect(_ text: String?) throws -> Double {
        guard let text else { return 0.05 }
        let percent = text.hasSuffix("%")
        let number = Double(percent ? String(text.dropLast()) : text).map { percent ? $0 / 100 : $0 }
        guard let number, number.isFinite, number > 0, number < 1 else {
            throw Fault.invalidInput("plan: --detect expects a difference above 0 and below 100%, as 5% or 0.05, "
                + "got '\(text)'")
        }
        return number
    }

    /// `--power`: a probability above 0 and below 1.
    static func parsePower(_ text: String?) throws -> Double {
        guard let text else { return PowerPlan.defaultPower }
        guard let number = Double(text), number > 0, number < 1 else {
            throw Fault.invalidInput("plan: --power expects a probability above 0 and below 1, as 0.8, got '\(text)'")
        }
        return number
    }

    /// `plan --json`.
    struct Answer: Encodable {
        var detect: Double
        var power: Double
        var alpha: Double
        var history: String?
        var rows: [PlanRow]
    }
}

/// What the run history measured: each configuration's newest pass rate and the cases' verdicts per run.
struct Measurements {
    /// The history read; nil when there is none.
    var file: String?
    /// `suite` or `suite@variant` → its pass rate per run, oldest first.
    var rates: [String: [SuiteRatePoint]] = [:]
    /// `suite/case` or `suite/case@variant` → its results per run.
    var trends: [String: CaseTrend] = [:]

    /// The newest `window` runs of the history at `file`; none when the file does not exist and is not
    /// `required` (a missing required file, or a corrupt one, throws).
    init(file: String, required: Bool, window: Int) throws {
        guard required || FileManager.default.fileExists(atPath: file) else { return }
        let store = HistoryStore(path: file, create: false)
        for series in try store.suiteRates(last: window) { rates[series.suite] = series.points }
        trends = try store.trends(last: window)
        self.file = file
    }

    /// The newest pass rate of `configuration` and its run.
    func rate(of configuration: String) -> (rate: Double, run: Int)? {
        rates[configuration]?.last.map { ($0.rate, $0.run) }
    }

    /// The share of `caseIDs` whose verdicts differ between `reference` and `variant` of `suite` in the
    /// newest run that ran both, and that run; nil when no run paired any of them.
    func discordance(suite: String, reference: String, variant: String,
                     caseIDs: [String]) -> (rate: Double, run: Int)? {
        let runsA = Set((rates["\(suite)@\(reference)"] ?? []).map(\.run))
        guard let run = (rates["\(suite)@\(variant)"] ?? []).map(\.run).filter(runsA.contains).max() else { return nil }
        func held(_ caseID: String, _ configuration: String) -> Bool? {
            guard let point = trends["\(suite)/\(caseID)@\(configuration)"]?.points.last(where: { $0.run == run })
            else { return nil }
            return point.status == .passed || point.status == .flaky
        }
        var pairs = 0, discordant = 0
        for caseID in caseIDs {
            guard let a = held(caseID, reference), let b = held(caseID, variant) else { continue }
            pairs += 1
            if a != b { discordant += 1 }
        }
        return pairs == 0 ? nil : (Double(discordant) / Double(pairs), run)
    }
}
