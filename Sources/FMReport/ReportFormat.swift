import FMCore
import Foundation
import FMResults

/// What a report is made from: the results, and the comparisons the command that writes it has.
public struct ReportInput: Sendable {
    /// The results the report describes (with `fmeval compare BASE CANDIDATE`, the candidate's).
    public var results: RunResult
    /// Every case's change against a baseline (`run --baseline`, `compare BASE CANDIDATE`), if any.
    public var baseline: BaselineComparison?
    /// The paired A/B comparisons: of the variants of each suite, or of two results files.
    public var comparisons: [ABComparison]
    /// What the run history says about these cases (`run` with a history), if anything.
    public var history: HistoryContext?
    /// True when only regressions and new failures against `baseline` fail the run (`--fail-on-regression`).
    public var failOnRegression: Bool
    /// Which of those fail it, by cause (`--regressions-from`).
    public var regressionsFrom: RegressionSource

    /// An input from `results` and the comparisons (and history) that go with it.
    public init(results: RunResult, baseline: BaselineComparison? = nil, comparisons: [ABComparison] = [],
                history: HistoryContext? = nil, failOnRegression: Bool = false,
                regressionsFrom: RegressionSource = .any) {
        self.results = results
        self.baseline = baseline
        self.comparisons = comparisons
        self.history = history
        self.failOnRegression = failOnRegression
        self.regressionsFrom = regressionsFrom
    }

    /// The run's verdict: which cases fail the gate and the exit code, as every report shows it.
    public var verdict: GateVerdict {
        GateVerdict(results: results, baseline: baseline, failOnRegression: failOnRegression,
                    regressionsFrom: regressionsFrom)
    }
}

/// One report format: its name (and so its `--NAME FILE` flag), its help line, what it needs, and how
/// it renders. Formats are registered in `ReportFormats.all`; every command that has what a format
/// needs offers its flag, lists it in its help and writes it.
public struct ReportFormat: Sendable {
    /// What a format needs from the command that writes it.
    public enum Needs: Sendable, Hashable {
        /// A results document (`run`, `report`, `merge`, `compare`); the baseline and A/B comparisons
        /// in the input are used when the command has them.
        case results
        /// A comparison of results (`compare` only): the baseline, the A/B comparisons, or both.
        case comparison
    }

    /// The format's name: its flag is `--NAME FILE`, and writing it prints `NAME: FILE`.
    public let name: String
    /// One line for the commands' help, after the flag (e.g. `write JUnit XML (…)`).
    public let help: String
    /// What a command must have to write this format.
    public let needs: Needs
    /// The bytes of the report for `input`; throws `Fault` when it cannot be made.
    public let render: @Sendable (ReportInput) throws -> Data

    /// A format named `name` (lowercase letters, digits and `-`), offered where `needs` is met.
    public init(name: String, help: String, needs: Needs, render: @escaping @Sendable (ReportInput) throws -> Data) {
        self.name = name
        self.help = help
        self.needs = needs
        self.render = render
    }

    /// The command-line flag that asks for this format: `--NAME`.
    public var flag: String { "--" + name }
}
