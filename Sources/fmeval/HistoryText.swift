import FMHistory
import FMReport

/// The text answers of `fmeval history`: aligned columns, one row per run, case or suite.
enum HistoryText {
    /// The runs, newest first.
    static func runs(_ runs: [HistoryRun], file: String) -> String {
        guard !runs.isEmpty else { return "history \(file): no runs recorded" }
        let rows = runs.map { run in
            ["#\(run.number)", String(run.startedAt.prefix(19)), run.shortCommit, run.branch ?? "-", "\(run.total)", "\(run.passed)",
             "\(run.failed)", "\(run.flaky)", "\(run.errored)", "\(run.knownIssues)", SVGChart.percent(run.passRate), String(run.runID.prefix(8)) + (run.shard.map { " shard \($0)" } ?? "")]
        }
        return "history \(file): \(runs.count) run\(runs.count == 1 ? "" : "s"), newest first\n"
            + table(["run", "started", "commit", "branch", "cases", "passed", "failed", "flaky", "error", "known", "pass rate", "id"], rows)
    }

    /// One case's trend, oldest first, with where it started failing.
    static func trend(_ trend: CaseTrend) -> String {
        let rows = trend.points.map { point in
            ["#\(point.run)", String(point.startedAt.prefix(19)), point.commit.map { String($0.prefix(8)) } ?? "-", point.status.rawValue,
             SVGChart.percent(point.passRate), String((point.definition ?? "-").prefix(8))]
        }
        var lines = ["\(trend.caseID): \(trend.points.count) run\(trend.points.count == 1 ? "" : "s"), held its gate in "
            + "\(SVGChart.percent(trend.passRate)) of them (oldest first)"]
        lines.append(table(["run", "started", "commit", "status", "attempts passed", "definition"], rows))
        if let since = trend.failingSince {
            let commit = since.commit.map { " (commit \($0.prefix(12)))" } ?? ""
            if let lastPass = trend.lastPass {
                lines.append("Failing since run #\(since.run) \(since.startedAt.prefix(19))\(commit); last passed in run #\(lastPass.run)")
            } else {
                lines.append("Failing in every recorded run, since run #\(since.run)\(commit)")
            }
        } else if !trend.points.isEmpty {
            lines.append("Holds its gate in the latest run")
        }
        return lines.joined(separator: "\n")
    }

    /// The cases whose status differs between `from` and `to`.
    static func flips(_ flips: [StatusFlip], from: HistoryRun, to: HistoryRun) -> String {
        let head = "Status changes from run #\(from.number) (\(from.shortCommit)) to run #\(to.number) (\(to.shortCommit)): \(flips.count)"
        guard !flips.isEmpty else { return head }
        return head + "\n" + table(["case", "before", "after", "change"], flips.map { [$0.caseID, $0.before.rawValue, $0.after.rawValue, $0.direction] })
    }

    /// The flakiest cases over the last `window` runs.
    static func flaky(_ cases: [FlakyCase], window: Int) -> String {
        let head = "Cases whose status changed with an unchanged definition over the last \(window) runs: \(cases.count)"
        guard !cases.isEmpty else { return head }
        let rows = cases.map { item in
            [item.caseID, "\(item.changes)", "\(item.runs)", SVGChart.percent(item.flipRate), item.statuses.map { symbol($0.rawValue) }.joined()]
        }
        return head + "\n" + table(["case", "changes", "runs", "flip rate", "statuses (oldest first)"], rows)
            + "\n(statuses: P passed, F failed, ~ flaky, E error, K known issue)"
    }

    /// Each suite's pass rate per run.
    static func suites(_ suites: [SuitePassRate]) -> String {
        guard !suites.isEmpty else { return "No suites recorded" }
        var lines: [String] = []
        for suite in suites {
            lines.append("\(suite.suite):")
            lines.append(table(["run", "started", "cases", "holding", "pass rate"], suite.points.map {
                ["#\($0.run)", String($0.startedAt.prefix(19)), "\($0.cases)", "\($0.holding)", SVGChart.percent($0.rate)]
            }))
        }
        return lines.joined(separator: "\n")
    }

    private static func symbol(_ status: String) -> String {
        ["passed": "P", "failed": "F", "flaky": "~", "error": "E", "knownIssue": "K"][status] ?? "?"
    }

    /// Rows under a header, columns padded to their widest cell.
    static func table(_ header: [String], _ rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
