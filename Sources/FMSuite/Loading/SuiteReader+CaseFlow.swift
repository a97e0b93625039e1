import FMCore

extension SuiteReader {
    /// The cases of the suite being read on their way out: checked and expanded a batch at a time and handed to
    /// `caseSink` in file order (held back while a contamination case waits for the suite's end).
    struct CaseFlow {
        /// Cases taken before a batch is checked and handed on.
        static let batchSize = 4096
        private var window = PriorPromptWindow()
        /// Expanded cases not handed on yet.
        var held: [ExpandedCase] = []
        private var pending: [PriorPromptWindow.Pending] = []

        /// Whether a held case waits for the suite's end for its prior prompts.
        var waits: Bool { !pending.isEmpty }

        /// Holds `expanded`, the next cases in file order, giving them the prior prompts known so far.
        mutating func hold(_ expanded: [ExpandedCase]) {
            let start = held.count
            held += expanded
            pending += window.take(&held, from: start)
        }

        /// Gives the waiting cases their prior prompts, now that the suite's end is known.
        mutating func complete() {
            window.complete(&held, pending)
            pending = []
        }
    }

    /// Takes `item`, the suite's next case in file order: kept in `suite`, and with a sink handed on once a
    /// batch is full.
    func take(_ item: SuiteCase, into suite: inout Suite, root: YAMLNode) {
        suite.cases.append(item)
        if caseSink != nil, suite.cases.count >= CaseFlow.batchSize { passOn(&suite, root: root) }
    }

    /// Checks every case once all are taken; with a sink, hands on the last batch, so the suite keeps none.
    func finishCases(_ suite: inout Suite, root: YAMLNode) {
        guard caseSink != nil else {
            let expanded = suite.expanded()
            checkCases(suite.cases, expanded: expanded, of: suite, root: root)
            checkContamination(expanded)
            return
        }
        passOn(&suite, root: root)
        flow.complete()
        handOn(suite)
    }

    /// Checks and expands the cases taken since the last batch, then hands them on unless a contamination case
    /// among the held ones waits for the suite's end.
    private func passOn(_ suite: inout Suite, root: YAMLNode) {
        guard !suite.cases.isEmpty else { return }
        let expanded = suite.expanded(suite.cases)
        checkCases(suite.cases, expanded: expanded, of: suite, root: root)
        suite.cases.removeAll(keepingCapacity: true)
        flow.hold(expanded)
        if !flow.waits { handOn(suite) }
    }

    private func handOn(_ suite: Suite) {
        guard let sink = caseSink, !flow.held.isEmpty else { return }
        checkContamination(flow.held)
        sink(suite, flow.held)
        flow.held.removeAll(keepingCapacity: true)
    }
}
