import Foundation
import FMCore
import FMEvaluate
import FMResults

/// One case's details in the HTML report: outcome, then every attempt with its transcript, metrics,
/// violations per keyword, error and usage. Cases that do not hold their gate start open.
enum HTMLCaseDetails {
    /// Most attempts shown in full per case; the rest are summarised in one line.
    static let attemptLimit = 50

    /// Writes the `<details>` block for `result` with id `anchor`; `cache` is shared across one report.
    static func write(_ result: CaseResult, anchor: String, change: BaselineChange?, cache: HTMLTranscript.Cache,
                      into page: inout HTMLBuffer) {
        page.raw("<details class=\"case\" id=\"\(anchor)\" data-case=\"")
        page.text(result.id)
        page.raw("\" data-status=\"\(result.status.rawValue)\"\(result.holdsRun ? "" : " open")>")
        page.raw("<summary><span class=\"badge \(result.status.rawValue)\">\(result.status.rawValue)</span> <span class=\"mono\">")
        page.text(result.id)
        page.raw("</span>")
        if let change { page.raw(" <span class=\"badge \(change.rawValue)\">\(change.rawValue)</span>") }
        page.raw("</summary>\n<p>")
        page.text(CaseSummaryText.passLine(result))
        if let source = result.source { page.raw(" · <span class=\"mono\">"); page.text(source); page.raw("</span>") }
        if !result.tags.isEmpty { page.raw(" · tags "); page.text(result.tags.joined(separator: ", ")) }
        if let engine = result.engine { page.raw(" · engine "); page.text(engine.description) }
        if let label = result.expectedLabel { page.raw(" · expected label "); page.element("code", label) }
        page.raw("</p>\n")
        if !result.reason.isEmpty { page.element("p", cls: "muted", result.reason) }
        if result.knownIssue != nil {
            page.raw("<p>")
            HTMLKnownIssue.write(result, into: &page)
            page.raw("</p>\n")
        }
        for instability in result.instabilities {
            page.element("p", cls: "muted", instability.prefix(1).uppercased() + instability.dropFirst())
        }
        for attempt in result.attempts.prefix(attemptLimit) {
            writeAttempt(attempt, open: result.attempts.count == 1 || attempt.status != .passed, cache: cache, into: &page)
        }
        if result.attempts.count > attemptLimit {
            let rest = result.attempts.dropFirst(attemptLimit)
            let passed = rest.filter { $0.status == .passed }.count
            page.element("p", cls: "muted", "\(rest.count) more attempts not shown: \(passed) passed, \(rest.count - passed) did not")
        }
        page.raw("</details>\n")
    }

    private static func writeAttempt(_ attempt: AttemptResult, open: Bool, cache: HTMLTranscript.Cache,
                                     into page: inout HTMLBuffer) {
        page.raw("<details class=\"attempt\"\(open ? " open" : "")><summary>attempt \(attempt.index + 1) · ")
        page.raw("<span class=\"badge \(attempt.status == .passed ? "passed" : attempt.status == .error ? "error" : "failed")\">\(attempt.status.rawValue)</span>")
        page.raw(" · \(Fixed.format(attempt.durationMs, 0)) ms · \(attempt.usage.inputTokens) in / \(attempt.usage.outputTokens) out tokens")
        if attempt.usage.cachedInputTokens > 0 { page.raw(" (\(attempt.usage.cachedInputTokens) cached)") }
        if attempt.usage.reasoningTokens > 0 { page.raw(" · \(attempt.usage.reasoningTokens) reasoning") }
        page.raw(" · \(attempt.engineCalls) engine call\(attempt.engineCalls == 1 ? "" : "s") · \(attempt.snapshotCount) snapshot\(attempt.snapshotCount == 1 ? "" : "s")")
        if attempt.truncated { page.raw(" · <b>truncated</b>") }
        page.raw("</summary>\n")
        if let error = attempt.error {
            page.open("p", cls: error.expected ? "muted" : nil)
            page.text("\(error.expected ? "Expected error" : "Error") \(error.domain).\(error.caseName): \(error.message)")
            page.close("p")
        }
        if let counts = attempt.tokenCounts {
            page.element("p", cls: "muted", "Input tokens by part\(counts.estimated ? " (estimated)" : ""): instructions \(counts.instructions) · "
                         + "tools \(counts.tools) · schema \(counts.schema) · prompt \(counts.prompt)")
        }
        HTMLTranscript.write(attempt.transcript, cache: cache, into: &page)
        if let output = attempt.output {
            page.element("h3", "Structured output")
            page.element("pre", output.jsonString(indent: 2))
        } else if let text = attempt.text, !transcriptEndsWith(text, attempt.transcript) {
            page.element("h3", "Output")
            page.element("pre", text)
        }
        writeMetrics(attempt.metrics, into: &page)
        writeViolations(attempt.violations, into: &page)
        writeGrammarLimits(attempt.grammarLimits ?? [], into: &page)
        page.raw("</details>\n")
    }

    /// The places where the grammar's loop guards cut the model's choices.
    private static func writeGrammarLimits(_ cuts: [GrammarLimitCut], into page: inout HTMLBuffer) {
        guard !cuts.isEmpty else { return }
        page.element("h3", "Grammar loop guards cut the output (\(cuts.count))")
        page.raw("<table><thead><tr><th>path</th><th>guard</th><th>limit</th><th>tool</th></tr></thead><tbody>\n")
        for cut in cuts {
            page.raw("<tr><td class=\"mono\">")
            page.text(cut.path.isEmpty ? "/" : cut.path)
            page.raw("</td><td class=\"mono\">")
            page.text(cut.guard.rawValue)
            page.raw("</td><td>")
            page.text(String(cut.limit))
            page.raw("</td><td class=\"mono\">")
            page.text(cut.tool ?? "")
            page.raw("</td></tr>\n")
        }
        page.raw("</tbody></table>\n")
    }

    /// True when the transcript's last response already shows `text` (avoid printing it twice).
    private static func transcriptEndsWith(_ text: String, _ transcript: Transcript) -> Bool {
        guard case .response(let response)? = transcript.entries.last else { return false }
        return response.segments.map(\.text).joined() == text
    }

    private static func writeMetrics(_ metrics: [Metric], into page: inout HTMLBuffer) {
        guard !metrics.isEmpty else { return }
        page.raw("<table class=\"stack\"><thead><tr><th>metric</th><th>value</th><th>rationale</th></tr></thead><tbody>\n")
        for metric in metrics {
            let verdict = metric.verdict
            page.raw("<tr class=\"\(verdict == false ? "metric-fail" : verdict == true ? "metric-pass" : "")\"><td class=\"mono\">")
            page.text(metric.name)
            page.raw("</td><td>")
            switch metric.value {
            case .passing: page.raw("passing")
            case .failing: page.raw("failing")
            case .ignore: page.raw("ignored")
            case .scoring(let score):
                page.text(CaseSummaryText.number(score))
                if let threshold = metric.threshold { page.text(" (needs ≥ \(CaseSummaryText.number(threshold)))") }
            }
            page.raw("</td><td>")
            page.text(metric.rationale ?? "")
            page.raw("</td></tr>\n")
        }
        page.raw("</tbody></table>\n")
    }

    private static func writeViolations(_ violations: [Violation], into page: inout HTMLBuffer) {
        guard !violations.isEmpty else { return }
        var perKeyword: [String: Int] = [:]
        for violation in violations { perKeyword[violation.keyword.rawValue, default: 0] += 1 }
        page.element("h3", "Schema violations: " + perKeyword.sorted { $0.key < $1.key }.map { "\($0.key) × \($0.value)" }.joined(separator: ", "))
        page.raw("<table><thead><tr><th>path</th><th>keyword</th><th>expected</th><th>actual</th><th>message</th></tr></thead><tbody>\n")
        for violation in violations {
            page.raw("<tr><td class=\"mono\">")
            page.text(violation.path.isEmpty ? "/" : violation.path)
            page.raw("</td><td>")
            page.text(violation.keyword.rawValue)
            page.raw("</td><td class=\"mono\">")
            page.text(violation.expected.jsonString)
            page.raw("</td><td class=\"mono\">")
            page.text(violation.actual.jsonString)
            page.raw("</td><td>")
            page.text(violation.message)
            page.raw("</td></tr>\n")
        }
        page.raw("</tbody></table>\n")
    }
}
