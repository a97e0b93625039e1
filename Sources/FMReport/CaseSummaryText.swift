import Foundation
import FMEvaluate
import FMResults

/// Plain-text descriptions of a case shared by the JUnit, terminal and HTML reports.
public enum CaseSummaryText {
    /// `19/20 attempts passed (95.0%, 95% CI 76.4–99.1%); gate minPassRate 0.95 holds`.
    public static func passLine(_ result: CaseResult) -> String {
        let attempts = result.attempts.count
        var line = "\(result.passes)/\(attempts) attempt\(attempts == 1 ? "" : "s") passed"
        if attempts > 1 {
            line += " (\(SVGChart.percent(result.passRate)), 95% CI \(SVGChart.percent(result.interval.lower))–\(SVGChart.percent(result.interval.upper)))"
        }
        if let gate = gateText(result.gate) { line += "; gate \(gate) \(result.gateHolds ? "holds" : "fails")" }
        return line
    }

    /// `minPassRate 0.95, minPasses 3`, or nil when the case has the default gate.
    public static func gateText(_ gate: CaseGate) -> String? {
        var parts: [String] = []
        if let rate = gate.minPassRate { parts.append("minPassRate \(number(rate))") }
        if let passes = gate.minPasses { parts.append("minPasses \(passes)") }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// The distinct failing metrics over all attempts, each `name: rationale`, most frequent first,
    /// with `(N attempts)` when more than one attempt failed the same way.
    public static func failingMetrics(_ result: CaseResult) -> [String] {
        var counts: [String: Int] = [:]
        var order: [String] = []
        for attempt in result.attempts {
            for metric in attempt.metrics.failingMetrics {
                let text = metricLine(metric)
                if counts[text] == nil { order.append(text) }
                counts[text, default: 0] += 1
            }
        }
        let sorted = order.enumerated().sorted { lhs, rhs in
            let (left, right) = (counts[lhs.element] ?? 0, counts[rhs.element] ?? 0)
            return left != right ? left > right : lhs.offset < rhs.offset
        }
        return sorted.map { item in
            let count = counts[item.element] ?? 0
            return count > 1 ? "\(item.element) (\(count) attempts)" : item.element
        }
    }

    /// `name: rationale` (or `name: failing` when there is none).
    public static func metricLine(_ metric: Metric) -> String {
        guard let rationale = metric.rationale, !rationale.isEmpty else { return metric.description }
        return "\(metric.name): \(rationale)"
    }

    /// The distinct unexpected errors over all attempts, `Domain.case: message`.
    public static func errors(_ result: CaseResult) -> [String] {
        var seen = Set<String>()
        var lines: [String] = []
        for attempt in result.attempts {
            guard let error = attempt.error, !error.expected else { continue }
            let line = "\(error.domain).\(error.caseName): \(error.message)"
            if seen.insert(line).inserted { lines.append(line) }
        }
        if lines.isEmpty, !result.reason.isEmpty { lines.append(result.reason) }
        return lines
    }

    /// A one-line reason for a case that does not hold its gate (first failing metric or error), for a
    /// known issue that no longer reproduces, or for a passing case that a rerun disagreed with
    /// (`CaseResult.instabilities`).
    public static func headline(_ result: CaseResult) -> String {
        if result.gateHolds, !result.failsRun, let instability = result.instabilities.first { return instability }
        switch result.status {
        case .error: return errors(result).first ?? "error"
        case .failed where result.gateHolds || result.knownIssue != nil: return result.reason
        default:
            let first = failingMetrics(result).first
            let attempts = result.attempts.count
            let prefix = attempts > 1 ? "\(attempts - result.passes)/\(attempts) attempts failed" : nil
            return [prefix, first].compactMap { $0 }.joined(separator: "; ").nonEmpty ?? result.status.rawValue
        }
    }

    /// The full plain-text account of a case that did not hold: the runner's reason, the interval for
    /// repeated cases, then the first `attemptLimit` failing attempts with metrics, errors, violations
    /// and a bounded excerpt of the output.
    public static func details(_ result: CaseResult, outputLimit: Int = 2000, attemptLimit: Int = 5) -> String {
        var lines: [String] = []
        if !result.reason.isEmpty { lines.append(result.reason) }
        if result.attempts.count > 1 {
            lines.append("pass rate \(SVGChart.percent(result.passRate)), 95% CI \(SVGChart.percent(result.interval.lower))–\(SVGChart.percent(result.interval.upper))")
        }
        if let source = result.source { lines.append("source: \(source)") }
        let failing = result.attempts.filter { $0.status != .passed }
        for attempt in failing.prefix(attemptLimit) {
            lines.append("attempt \(attempt.index + 1): \(attempt.status.rawValue)\(attempt.truncated ? " (truncated)" : "")")
            for metric in attempt.metrics.failingMetrics { lines.append("  " + metricLine(metric)) }
            if let error = attempt.error { lines.append("  error \(error.domain).\(error.caseName): \(error.message)") }
            for violation in attempt.violations.prefix(10) {
                lines.append("  violation \(violation.path.isEmpty ? "/" : violation.path) \(violation.keyword.rawValue): \(violation.message)")
            }
            if let text = attempt.text { lines.append("  output: " + excerpt(text, limit: outputLimit)) }
        }
        if failing.count > attemptLimit { lines.append("… and \(failing.count - attemptLimit) more attempts that did not pass") }
        lines += result.instabilities
        return lines.joined(separator: "\n")
    }

    /// The text cut to `limit` characters with a marker saying how much was left out.
    public static func excerpt(_ text: String, limit: Int) -> String {
        guard text.count > limit else { return text }
        return String(text.prefix(limit)) + "… (\(text.count - limit) more characters)"
    }

    /// A number without a trailing `.0`.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

extension String {
    /// Nil for the empty string.
    var nonEmpty: String? { isEmpty ? nil : self }
}
