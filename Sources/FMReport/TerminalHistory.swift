extension TerminalText {
    /// The regressions the run history knows of, each with the run it started in and the run it last
    /// passed in (at most `limit` named); nil when there are none.
    public static func historyRegressions(_ history: HistoryContext, limit: Int = 20) -> String? {
        guard !history.regressions.isEmpty else { return nil }
        let count = history.regressions.count
        var lines = ["Regressions (run history \(history.file)): \(count) case\(count == 1 ? "" : "s") failing after passing before"]
        for regression in history.regressions.prefix(limit) {
            lines.append("  \(regression.caseID): failing since run \(regression.since.label); last passed in run \(regression.lastPass.label)")
        }
        if count > limit { lines.append("  … and \(count - limit) more ('fmeval history trend CASE' shows one)") }
        return lines.joined(separator: "\n")
    }
}
