import Foundation
import FMResults

/// What `fmeval run` shows while cases run.
///
/// `live` (a terminal): one progress line rewritten in place with `\r`, its clock redrawn by a timer
/// thread while a long case runs, and each case the verbosity shows (`Verbosity.showsLine`) printed above
/// it; the line is cleared before such a case is printed, and the timer is stopped and joined by `finish()`.
/// `plain` (logs, pipes, `CI=true`): a line per case the verbosity shows, and by default the progress
/// line at each tenth of the run (every case's line with `-v`), no carriage returns.
/// The clock and the output are injected, so tests drive it without a terminal or sleeping.
// @unchecked Sendable: the counters and the line state change only under `lock`, the timer state only
// under `ticker`; `clock` and `write` are `@Sendable`.
public final class LiveProgress: @unchecked Sendable {
    /// How output is shown.
    public enum Mode: Equatable, Sendable {
        /// A progress line redrawn in place; failing cases printed above it as they finish.
        case live
        /// One line per case, for logs and CI.
        case plain

        /// `plain` when `CI` is `true`/`1` or standard output is not a terminal, else `live`.
        public static func detect(environment: [String: String], isTerminal: Bool) -> Mode {
            let ci = environment["CI"]?.lowercased()
            return (ci == "true" || ci == "1" || !isTerminal) ? .plain : .live
        }
    }

    private let mode: Mode
    private let style: TerminalStyle
    private let verbosity: Verbosity
    private let judge: GateJudge
    private let clock: @Sendable () -> TimeInterval
    private let write: @Sendable (String) -> Void
    private let startTime: TimeInterval
    private let lock = NSLock()
    private var passed = 0, failed = 0, errored = 0, knownIssues = 0, finished = 0, total = 0
    private var running: [(id: String, since: TimeInterval)] = []
    private var drawn = false
    private var lastDraw = -Double.infinity
    private let ticker = NSCondition()
    private var ticking = false
    private var tickerExited: DispatchSemaphore?

    /// A reporter in `mode` with `style` showing what `verbosity` shows, `judge` saying which cases fail the
    /// gate; `clock` gives monotonic seconds, `write` takes output text as is.
    public init(mode: Mode, style: TerminalStyle, verbosity: Verbosity = .normal, judge: GateJudge = .everyGate,
                clock: @escaping @Sendable () -> TimeInterval = { ProcessInfo.processInfo.systemUptime },
                write: @escaping @Sendable (String) -> Void) {
        self.mode = mode
        self.style = style
        self.verbosity = verbosity
        self.judge = judge
        self.clock = clock
        self.write = write
        self.startTime = clock()
    }

    /// Notes that case `id` started (of `total` to run); in `live` mode the first start also starts the timer.
    public func caseStarted(_ id: String, total: Int) {
        lock.lock()
        self.total = max(self.total, total)
        running.append((id, clock()))
        if mode == .live && clock() - lastDraw >= 0.1 { draw() }
        lock.unlock()
        if mode == .live { startTicking() }
    }

    /// Records one finished case (`finished` of `total` so far).
    public func caseFinished(_ result: CaseResult, finished: Int, total: Int) {
        lock.lock()
        defer { lock.unlock() }
        self.finished = finished
        self.total = total
        running.removeAll { $0.id == result.id }
        switch result.status {
        case .error: errored += 1
        case .knownIssue: knownIssues += 1
        case .passed, .flaky, .failed: if result.failsRun { failed += 1 } else { passed += 1 }
        }
        let shown = verbosity.showsLine(for: result, judge: judge), reason = verbosity.showsReason(for: result)
        switch mode {
        case .plain:
            let counter = "[\(finished)/\(total)] "
            if shown { write(TerminalText.styledCaseLine(result, style: style, counter: counter, reason: reason) + "\n") }
            if verbosity == .normal && total > 0 && (finished * 10 / total) > ((finished - 1) * 10 / total) {
                write(currentLine(now: clock()) + "\n")
            }
        case .live:
            if shown {
                clearLine()
                write(TerminalText.styledCaseLine(result, style: style, reason: reason) + "\n")
            }
            if finished == total || clock() - lastDraw >= 0.1 { draw() }
        }
    }

    /// Redraws the progress line with the clock's current time (the timer calls this; so can tests).
    public func tick() {
        lock.lock()
        defer { lock.unlock() }
        if mode == .live { draw() }
    }

    /// The progress line for the current state, cut to the style's width (one column spare, so the
    /// terminal never wraps it).
    public func line() -> String {
        lock.lock()
        defer { lock.unlock() }
        return currentLine(now: clock())
    }

    /// Whether the timer thread is running.
    public var isTicking: Bool {
        ticker.lock()
        defer { ticker.unlock() }
        return ticking
    }

    /// Stops the timer (waiting for its thread to exit) and ends the progress line so the summary starts
    /// on a fresh line. Call it once the run is over, also when it failed.
    public func finish() {
        ticker.lock()
        let exited = tickerExited
        ticking = false
        tickerExited = nil
        ticker.signal()
        ticker.unlock()
        exited?.wait()
        lock.lock()
        defer { lock.unlock() }
        if drawn { write("\n") }
        drawn = false
    }

    /// Starts the timer thread that redraws the line every `interval` seconds (once; no-op when running).
    func startTicking(every interval: TimeInterval = 0.5) {
        ticker.lock()
        defer { ticker.unlock() }
        guard !ticking, tickerExited == nil else { return }
        ticking = true
        let exited = DispatchSemaphore(value: 0)
        tickerExited = exited
        let thread = Thread { [self] in
            ticker.lock()
            while ticking {
                _ = ticker.wait(until: Date(timeIntervalSinceNow: interval))
                guard ticking else { break }
                ticker.unlock()
                tick()
                ticker.lock()
            }
            ticker.unlock()
            exited.signal()
        }
        thread.name = "fmeval-progress"
        thread.start()
    }

    private func currentLine(now: TimeInterval) -> String {
        var line = TerminalText.progress(done: finished, total: total, passed: passed, failed: failed,
                                         errored: errored, knownIssues: knownIssues, elapsed: now - startTime)
        if let oldest = running.min(by: { $0.since < $1.since }) {
            line += "  running \(TerminalText.oneLine(oldest.id)) (\(TerminalText.clock(now - oldest.since)))"
            if running.count > 1 { line += " +\(running.count - 1) more" }
        }
        return style.width.map { TerminalStyle.fit(line, width: max(1, $0 - 1)) } ?? line
    }

    private func draw() {
        let now = clock()
        lastDraw = now
        write("\r\u{1B}[2K" + currentLine(now: now))
        drawn = true
    }

    private func clearLine() {
        guard drawn else { return }
        write("\r\u{1B}[2K")
        drawn = false
    }
}
