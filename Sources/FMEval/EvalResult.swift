import Foundation
import FMCore
import FMEvaluate
import FMResults
import FMReport

/// The results of one run, with the aggregates a test asserts on and the reports it may write.
public struct EvalResult: Sendable, CustomStringConvertible {
    /// The full results document (docs/results-format.md), as written to `resultsPath`.
    public let results: RunResult
    /// Where the results document was written.
    public let resultsPath: String
    /// Every case against the baseline run (`EvalOptions.baselinePath`); nil without one.
    public let baseline: BaselineComparison?

    /// Wraps a results document (for example one loaded with `ResultsFile.load`), compared with
    /// `baseline` when given.
    public init(results: RunResult, resultsPath: String, baseline: RunResult? = nil) {
        self.results = results
        self.resultsPath = resultsPath
        self.baseline = baseline.map { BaselineComparison(baseline: $0, current: results) }
    }

    /// The cases that regressed or newly fail against the baseline (none without one), by full id.
    public var regressions: [String] { baseline?.entries.filter(\.change.failsGate).map(\.id) ?? [] }

    /// True when no case regressed, newly fails or errors against the baseline, as `fmeval run --baseline
    /// FILE --fail-on-regression` exits 0 (old failures do not count); without a baseline, `allGatesHold`.
    public var holdsAgainstBaseline: Bool {
        GateVerdict(results: results, baseline: baseline, failOnRegression: true).holds
    }

    /// One paragraph for a test's failure message: the counts as the terminal writes them, then each case
    /// that does not hold the run (or, with a baseline, each regression) with its headline, at most ten.
    public var description: String {
        var text = TerminalText.counts(results) + "; " + (allGatesHold ? "every gate holds" : "gates fail")
        if baseline != nil { text += "; \(regressions.count) regressions against the baseline" }
        let ids = baseline == nil ? cases.filter { !$0.holdsRun }.map(\.id) : regressions
        let listed = ids.prefix(10).map { id in
            "\(id) (\(TerminalText.oneLine(result(of: id).map(CaseSummaryText.headline) ?? "removed")))"
        }
        if !listed.isEmpty {
            text += ". " + (baseline == nil ? "Failing" : "Regressed") + ": " + listed.joined(separator: "; ")
            if ids.count > listed.count { text += "; and \(ids.count - listed.count) more" }
        }
        return text + ". Results: \(resultsPath)"
    }

    /// Every case that ran, in the order it finished.
    public var cases: [CaseResult] { results.cases }

    /// The share of cases (0…1) whose gate holds, as every report counts it (`PassRate`: a known issue
    /// that still reproduces does not pass); 0 when no case ran.
    public var passRate: Double { PassRate(cases).rate }

    /// The share of attempts (0…1) that passed, over every attempt of every case; 0 when none ran.
    public var attemptPassRate: Double {
        let attempts = cases.flatMap(\.attempts)
        guard !attempts.isEmpty else { return 0 }
        return Double(attempts.filter { $0.status == .passed }.count) / Double(attempts.count)
    }

    /// True when the run holds, as `fmeval run` exits 0: no gate failed, nothing errored, no rerun diverged.
    public var allGatesHold: Bool { results.exitCode == 0 }

    /// The result of the case `id`: its full id (`suite/case` or `suite/case@variant`), else the one case
    /// whose case id is `id`; nil when there is none, or when a bare case id names several.
    public func result(of id: String) -> CaseResult? {
        if let exact = cases.first(where: { $0.id == id }) { return exact }
        let matches = cases.filter { $0.caseID == id }
        return matches.count == 1 ? matches[0] : nil
    }

    /// The status of case `id` (see `result(of:)`).
    public func status(of id: String) -> CaseStatus? { result(of: id)?.status }

    /// Every schema violation of every attempt, in case and attempt order.
    public var violations: [Violation] { cases.flatMap { $0.attempts.flatMap(\.violations) } }

    /// Violations counted by JSON Schema keyword (`enum`, `anyOf`, `required`, …).
    public var violationsByKeyword: [String: Int] {
        violations.reduce(into: [:]) { $0[$1.keyword.rawValue, default: 0] += 1 }
    }

    /// The number of violations of `keyword`.
    public func violations(keyword: String) -> Int { violationsByKeyword[keyword] ?? 0 }

    /// Each suite's variants against its reference variant (paired cases, Wilson intervals, McNemar).
    public var abComparisons: [ABComparison] { ABComparison.variants(of: results) }

    /// The A/B comparison of variant `b` against variant `a` (`"base"` for a suite without variants),
    /// in `suite` when given; nil when the run has no such pair.
    public func abOutcome(_ a: String, _ b: String, suite: String? = nil) -> ABComparison? {
        abComparisons.first { $0.a.name == a && $0.b.name == b && (suite == nil || $0.suite == suite) }
    }

    /// The JUnit XML report, byte for byte what `fmeval run --junit` writes.
    public var junitXML: String { JUnitReport.render(results) }

    /// The self-contained HTML report, byte for byte what `fmeval run --html` writes (A/B sections included).
    public var html: String { HTMLReport.render(results, comparisons: abComparisons) }

    /// Writes the JUnit XML report to `path`.
    public func writeJUnit(to path: String) throws { try write(.junit, to: path) }

    /// Writes the HTML report to `path`.
    public func writeHTML(to path: String) throws { try write(.html, to: path) }

    private func write(_ format: ReportFormat, to path: String) throws {
        let data = try format.render(ReportInput(results: results, comparisons: abComparisons))
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw EvalError(.infrastructure, "cannot write the \(format.name) report to \(path): \(error.localizedDescription)")
        }
    }
}
