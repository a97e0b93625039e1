import Foundation
import FMEvaluate
import FMResults

/// Known issues in the HTML report: the reason and a link to where the issue is tracked.
enum HTMLKnownIssue {
    /// `known issue: REASON (link) [matching …]` for a case that declares a known issue; nothing for others.
    ///
    /// Still reproducing, it explains the `knownIssue` status; no longer reproducing, it says why the
    /// case failed although its gate holds; failing in a way the issue does not cover, it says so.
    static func write(_ result: CaseResult, into page: inout HTMLBuffer) {
        guard let issue = result.knownIssue else { return }
        page.open("span", cls: "known-reason")
        page.text(prefix(result, issue))
        page.text(issue.reason)
        if let url = issue.url {
            page.raw(" (")
            if let target = linkTarget(url) {
                page.open("a", [("href", target), ("rel", "noopener noreferrer")])
                page.text(url)
                page.close("a")
            } else {
                page.text(url)
            }
            page.raw(")")
        }
        page.text(" [\(issue.coverage)]")
        page.close("span")
    }

    /// What the known issue did to the case's status, as the start of its line.
    private static func prefix(_ result: CaseResult, _ issue: KnownIssue) -> String {
        if result.status == .knownIssue { return "known issue: " }
        if !result.gateHolds { return "not covered by the known issue: " }
        return issue.intermittent ? "intermittent known issue, did not reproduce: " : "known issue no longer reproduces: "
    }

    /// `url` when it is an http(s) link safe to put in `href` (results files may come from anywhere).
    static func linkTarget(_ url: String) -> String? {
        KnownIssue.urlProblem(url) == nil ? url : nil
    }
}

extension HTMLKnownIssue {
    /// The "Known issues" section: every case that declares a known issue, those still reproducing first,
    /// then those that no longer reproduce (their fix is announced), each with its reason, tracking link,
    /// reproduction rate and the suite's bug report (`source`, `reproducedWith`). Nothing when no case
    /// declares one.
    static func writeSection(_ run: RunResult, anchors: [String: String], into page: inout HTMLBuffer) {
        let declared = HTMLCaseOrder.sorted(run.cases).map(\.result).filter { $0.knownIssue != nil && $0.status != .error }
        let reproduced = declared.filter { $0.status == .knownIssue }
        let fixed = declared.filter { $0.status != .knownIssue && $0.gateHolds }
        guard !reproduced.isEmpty || !fixed.isEmpty else { return }
        page.raw("<section id=\"known-issues\"><h2>Known issues</h2>\n")
        page.element("p", cls: "muted", "\(reproduced.count) reproduced, \(fixed.count) no longer reproduc\(fixed.count == 1 ? "es" : "e") (remove the knownIssue marker once a fix is confirmed).")
        page.raw("<table class=\"known-issues stack\"><thead><tr><th>case</th><th>state</th><th class=\"num\">reproduced (95% CI)</th><th>reason</th><th>report</th><th>reproduced with</th></tr></thead><tbody>\n")
        for (state, results) in [("reproduced", reproduced), ("no longer reproduces", fixed)] {
            for result in results { writeRow(result, state: state, anchor: anchors[result.id], into: &page) }
        }
        page.raw("</tbody></table></section>\n")
    }

    private static func writeRow(_ result: CaseResult, state: String, anchor: String?, into page: inout HTMLBuffer) {
        let reproduction = result.reproduction ?? Reproduction(outcomes: result.attempts.map(\.status))
        page.raw("<tr><td class=\"mono\"><a href=\"#\(anchor ?? "cases")\">")
        page.text(result.id)
        page.raw("</a></td><td><span class=\"badge \(state == "reproduced" ? "knownIssue" : "failed")\">")
        page.text(state)
        page.raw("</span></td><td class=\"num\">")
        page.text("\(reproduction.rate) (\(reproduction.interval))")
        page.raw("</td><td>")
        if let issue = result.knownIssue {
            page.text(issue.reason)
            if let url = issue.url {
                page.raw(" ")
                writeLink(url, label: url, into: &page)
            }
            page.text(" [\(issue.coverage)]")
        }
        page.raw("</td><td>")
        if let origin = result.origin {
            if let url = origin.url { writeLink(url, label: origin.title ?? url, into: &page) } else { page.text(origin.title ?? "") }
        }
        page.raw("</td><td>")
        page.text(result.origin?.reproducedWith?.rawValue ?? "")
        page.raw("</td></tr>\n")
    }

    /// An `<a>` to `url` when it is a safe http(s) link, else `label` as text.
    private static func writeLink(_ url: String, label: String, into page: inout HTMLBuffer) {
        guard let target = linkTarget(url) else {
            page.text(label)
            return
        }
        page.open("a", [("href", target), ("rel", "noopener noreferrer")])
        page.text(label)
        page.close("a")
    }
}
