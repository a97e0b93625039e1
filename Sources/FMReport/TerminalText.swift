import Foundation
import FMCore
import FMResults

/// The lines fmeval prints while and after running: progress, one line per case, the final summary,
/// and the baseline and A/B tables. Pure functions, so they are tested without a terminal.
public enum TerminalText {
    /// `[ 12/40]  10 passed  1 failed  1 error  0:07` — the progress line shown on a TTY.
    public static func progress(done: Int, total: Int, passed: Int, failed: Int, errored: Int, knownIssues: Int = 0,
                                elapsed: TimeInterval) -> String {
        let width = String(total).count
        let padded = String(repeating: " ", count: max(0, width - String(done).count)) + String(done)
        var line = "[\(padded)/\(total)] \(bar(done: done, total: total)) \(passed) passed"
        if failed > 0 { line += "  \(failed) failed" }
        if errored > 0 { line += "  \(errored) error" }
        if knownIssues > 0 { line += "  \(knownIssues) known" }
        return line + "  " + clock(elapsed)
    }

    /// `PASS  city-info/paris  1/1  0.12 s`, with the reason for cases that do not hold their gate (unless
    /// `reason` is false); a `reproduce` case's line ends with `reproduced k/N (95% CI a%–b%)`.
    public static func caseLine(_ result: CaseResult, reason: Bool = true) -> String {
        let label: String
        switch result.status {
        case .passed: label = "PASS "
        case .flaky: label = result.gateHolds ? "FLAKY" : "FAIL "
        case .failed: label = "FAIL "
        case .error: label = "ERROR"
        case .knownIssue: label = "KNOWN"
        }
        var line = "\(label) \(oneLine(result.id))  \(result.passes)/\(result.attempts.count)  \(Fixed.format(result.durationMs / 1000, 2)) s"
        if reason && (!result.holdsRun || result.status == .flaky) {
            line += "  — " + oneLine(CaseSummaryText.headline(result))
        }
        return line + knownIssueNote(result) + (result.reproduction.map { "  — " + $0.description } ?? "")
    }

    /// The run's counts on one line: `12 cases, 10 passed, 2 failed, 12 attempts, 0.4 s`.
    public static func counts(_ run: RunResult) -> String {
        let s = run.summary
        var parts = ["\(s.total) cases", "\(s.passed) passed"]
        if s.flaky > 0 { parts.append("\(s.flaky) flaky") }
        parts.append("\(s.failed) failed")
        if s.errored > 0 { parts.append("\(s.errored) error") }
        if s.knownIssues > 0 { parts.append("\(s.knownIssues) known issue\(s.knownIssues == 1 ? "" : "s")") }
        if s.skipped > 0 { parts.append("\(s.skipped) skipped") }
        if s.nondeterministic > 0 { parts.append("\(s.nondeterministic) nondeterministic") }
        if s.historyDependent > 0 { parts.append("\(s.historyDependent) history-dependent") }
        parts.append("\(s.attempts) attempts")
        if s.reusedAttempts > 0 { parts.append("\(s.reusedAttempts) reused") }
        if let cache = run.run.cache {
            parts.append("\(cache.callsFromCache) of \(cache.callsFromCache + cache.callsRecorded) calls from cache")
        }
        if let rate = s.cacheHitRate { parts.append(Fixed.format(rate * 100, 1) + "% of input tokens cached") }
        if let duration = run.run.durationMs { parts.append(Fixed.format(duration / 1000, 1) + " s") }
        return parts.joined(separator: ", ")
    }

    /// `  — still failing: METRIC; known issue: REASON` after a known issue's case line, or nothing.
    static func knownIssueNote(_ result: CaseResult) -> String {
        guard result.status == .knownIssue else { return "" }
        let failing = CaseSummaryText.failingMetrics(result).first.map { "still failing: \(oneLine($0)); " } ?? ""
        return "  — \(failing)known issue: " + oneLine(result.knownIssue?.reason ?? result.reason)
    }

    /// The baseline table: counts per change, then each case that regressed, newly fails, was fixed
    /// or still fails (unchanged, added and skipped cases are only counted).
    public static func baselineTable(_ comparison: BaselineComparison) -> String {
        var lines = [baselineTally(comparison)]
        let shown: [BaselineChange] = [.regression, .newFailure, .fixed, .stillFailing, .removed]
        let rows = comparison.entries.filter { shown.contains($0.change) }
        let width = rows.map(\.change.rawValue.count).max() ?? 0
        for entry in rows {
            let name = entry.change.rawValue
            let before = entry.before?.rawValue ?? "–", after = entry.after?.rawValue ?? "–"
            let cause = entry.cause.map { "; \($0.phrase)" } ?? ""
            lines.append("  \(name)\(String(repeating: " ", count: width - name.count))  \(oneLine(entry.id))  "
                + "(\(before) → \(after)\(cause))")
        }
        return lines.joined(separator: "\n")
    }

    /// The A/B table: the 2×2 paired table, the verdict with McNemar's p-value, and the flipped cases.
    public static func abTable(_ comparison: ABComparison, flippedLimit: Int = 20) -> String {
        let t = comparison.table
        var lines = ["A/B \(comparison.a.name) (A) vs \(comparison.b.name) (B) over \(t.total) paired cases",
                     "              B passes  B fails",
                     "  A passes  \(pad(t.bothPass, 10))\(pad(t.onlyA, 9))",
                     "  A fails   \(pad(t.onlyB, 10))\(pad(t.bothFail, 9))",
                     "  " + ABText.verdict(comparison)]
        if let note = comparison.underpoweredNote { lines.append("  " + note) }
        let flipped = comparison.flipped
        for row in flipped.prefix(flippedLimit) {
            lines.append("  flipped \(oneLine(row.key)): \(row.statusA.rawValue) → \(row.statusB.rawValue)")
        }
        if flipped.count > flippedLimit { lines.append("  … \(flipped.count - flippedLimit) more flipped cases") }
        if !comparison.unpaired.isEmpty { lines.append("  \(comparison.unpaired.count) case(s) ran on one side only") }
        return lines.joined(separator: "\n")
    }

    /// A 20-cell bar of `done / total`.
    static func bar(done: Int, total: Int) -> String {
        let cells = 20
        let filled = total > 0 ? min(cells, done * cells / total) : cells
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: cells - filled) + "]"
    }

    /// `m:ss`, or `h:mm:ss` past an hour.
    static func clock(_ seconds: TimeInterval) -> String {
        let total = max(0, Int(seconds.isFinite ? seconds : 0))
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        return h > 0 ? String(format: "%d:%02d:%02d", h, m, s) : String(format: "%d:%02d", m, s)
    }

    /// The text on one line: line breaks shown as spaces, other controls as `TerminalSafe` shows them
    /// (control pictures, C1 and bidi controls as `[U+202E]`), never cut (a terminal cuts to its width when
    /// it draws; logs get every character).
    public static func oneLine(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n", "\r", "\t": output += " "
            default: output += TerminalSafe.text(String(scalar))
            }
        }
        return output
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
