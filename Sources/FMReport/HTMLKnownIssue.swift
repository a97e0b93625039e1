import Foundation
import FMEvaluate
import FMResults

/// Known issues in the HTML report: the reason and a link to where the issue is tracked.
enum HTMLKnownIssue {
    /// `known issue: REASON (link)` for a case that declares a known issue; nothing for other cases.
    ///
    /// Still reproducing, it explains the `knownIssue` status; no longer reproducing, it says why the
    /// case failed although its gate holds.
    static func write(_ result: CaseResult, into page: inout HTMLBuffer) {
        guard let issue = result.knownIssue else { return }
        page.open("span", cls: "known-reason")
        page.text(result.status == .knownIssue ? "known issue: " : "known issue no longer reproduces: ")
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
        page.close("span")
    }

    /// `url` when it is an http(s) link safe to put in `href` (results files may come from anywhere).
    static func linkTarget(_ url: String) -> String? {
        KnownIssue.urlProblem(url) == nil ? url : nil
    }
}
