import FMSuite

/// What the run says about cases scored from recorded transcripts before it starts.
public enum RecordedCases {
    /// The problem of each invalid transcript among `cases`, once per file: a run stops on them
    /// (exit 2) unless `--keep-going`, when they become `error` cases.
    public static func problems(of cases: [ExpandedCase]) -> [Diagnostic] {
        var seen: Set<String> = []
        return cases.compactMap { item in
            guard let recorded = item.recorded, let problem = recorded.problem, seen.insert(recorded.path).inserted else { return nil }
            return problem
        }
    }

    /// The note that `--engine`, `--model`, `--cassette` and `--engine-option` leave recorded cases
    /// alone (they are scored from their transcripts); nil when no such flag meets a recorded case.
    static func flagNote(_ cases: [ExpandedCase], request: RunRequest) -> RunNote? {
        let flags = request.engineFlagNames
        let recorded = cases.filter { $0.recorded != nil }
        guard !flags.isEmpty, !recorded.isEmpty else { return nil }
        let suites = Array(Set(recorded.map(\.suite))).sorted()
        let text = "note: \(flags.joined(separator: ", ")) \(flags.count == 1 ? "does" : "do") not apply to the \(recorded.count) "
            + "case\(recorded.count == 1 ? "" : "s") scored from recorded transcripts (\(suites.joined(separator: ", "))): "
            + "no engine runs for them"
        return RunNote(.flagsSkipRecordedCases, suites: suites, text: text)
    }
}
