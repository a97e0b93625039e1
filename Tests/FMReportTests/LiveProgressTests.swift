import Foundation
import Testing
import FMEvaluate
@testable import FMReport
@testable import FMResults

/// Everything a `LiveProgress` wrote, and a clock the test moves by hand.
// @unchecked Sendable: `parts` and `time` are read and changed only under `lock`.
private final class Capture: @unchecked Sendable {
    private let lock = NSLock()
    private var parts: [String] = []
    private var time: TimeInterval = 1000

    var now: TimeInterval {
        get { lock.lock(); defer { lock.unlock() }; return time }
        set { lock.lock(); time = newValue; lock.unlock() }
    }

    func write(_ text: String) {
        lock.lock()
        parts.append(text)
        lock.unlock()
    }

    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return parts.joined()
    }

    var last: String {
        lock.lock()
        defer { lock.unlock() }
        return parts.last ?? ""
    }
}

private func reporter(_ mode: LiveProgress.Mode, _ capture: Capture,
                      style: TerminalStyle = TerminalStyle(colors: false, width: 100),
                      verbosity: Verbosity = .normal) -> LiveProgress {
    LiveProgress(mode: mode, style: style, verbosity: verbosity, clock: { capture.now }, write: capture.write)
}

@Test func theProgressClockTicksWhileALongCaseRuns() {
    let capture = Capture()
    let progress = reporter(.live, capture)
    progress.caseStarted("sentiment/slow", total: 45)
    #expect(capture.last == "\r\u{1B}[2K[ 0/45] [....................] 0 passed  0:00  running sentiment/slow (0:00)")
    capture.now += 7
    progress.tick()
    #expect(capture.last.hasSuffix("0:07  running sentiment/slow (0:07)"), "the clock moved with no case finishing")
    capture.now += 60
    progress.tick()
    #expect(capture.last.hasSuffix("1:07  running sentiment/slow (1:07)"))
    progress.finish()
    #expect(!progress.isTicking, "finish stops and joins the timer thread")
    #expect(capture.last == "\n", "the line is ended so the summary starts on a fresh one")
}

@Test func theLineNamesTheCaseRunningLongestAndCountsTheOthers() {
    let capture = Capture()
    let progress = reporter(.live, capture)
    progress.caseStarted("s/first", total: 3)
    capture.now += 2
    progress.caseStarted("s/second", total: 3)
    capture.now += 1
    progress.caseFinished(sampleCase("s", "first", [.passed]), finished: 1, total: 3)
    #expect(progress.line().hasSuffix("1 passed  0:03  running s/second (0:01)"))
    progress.caseStarted("s/third", total: 3)
    #expect(progress.line().hasSuffix("running s/second (0:01) +1 more"))
    progress.finish()
}

@Test func aFailingCaseClearsTheLineBeforeItsOwnLineAndTheLineIsRedrawnAfter() throws {
    let capture = Capture()
    let progress = reporter(.live, capture)
    progress.caseStarted("s/bad", total: 2)
    capture.now += 1
    progress.caseFinished(sampleCase("s", "bad", [.failed]), finished: 1, total: 2)
    let text = capture.text
    let failAt = try #require(text.range(of: "FAIL  s/bad  0/1  0.03 s\n"), "the reason waits for the closing block")
    #expect(text[..<failAt.lowerBound].hasSuffix("running s/bad (0:00)\r\u{1B}[2K"), "the progress line is cleared right before the FAIL line")
    #expect(capture.last.hasPrefix("\r\u{1B}[2K[1/2]"), "the progress line comes back below it")
    progress.caseFinished(sampleCase("s", "good", [.passed]), finished: 2, total: 2)
    #expect(!capture.text.contains("PASS"), "passing cases only move the counter on a terminal")
    progress.finish()
}

@Test func plainModeWithVerbosePrintsOneWholeLinePerCaseWithoutCarriageReturns() {
    let capture = Capture()
    let long = String(repeating: "x", count: 300)
    let progress = reporter(.plain, capture, style: .plain, verbosity: .verbose)
    progress.caseStarted("s/ok", total: 2)
    capture.now += 30
    progress.tick()
    progress.caseFinished(sampleCase("s", "ok", [.passed]), finished: 1, total: 2)
    progress.caseFinished(sampleCase("s", "bad", [.failed], text: long), finished: 2, total: 2)
    progress.finish()
    #expect(!progress.isTicking, "no timer in plain mode")
    #expect(!capture.text.contains("\r"))
    let lines = capture.text.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines[0] == "[1/2] PASS  s/ok  1/1  0.03 s")
    #expect(lines[1].hasPrefix("[2/2] FAIL  s/bad"))
    #expect(lines[1].count > 150, "logs keep long lines whole")
}

@Test func liveLinesAreCutToTheTerminalWidth() {
    let capture = Capture()
    let progress = reporter(.live, capture, style: TerminalStyle(colors: false, width: 60), verbosity: .verbose)
    progress.caseStarted("suite/" + String(repeating: "long-name-", count: 10), total: 9)
    #expect(TerminalStyle.displayWidth(progress.line()) == 59, "one column spare so the terminal never wraps")
    #expect(progress.line().hasSuffix("…"))
    progress.caseFinished(sampleCase("s", "bad", [.failed], text: String(repeating: "y", count: 200)), finished: 1, total: 9)
    let failLine = capture.text.components(separatedBy: "\n").first { $0.contains("FAIL") } ?? ""
    let visible = failLine.components(separatedBy: "\r\u{1B}[2K").last ?? ""
    #expect(visible.hasPrefix("FAIL  s/bad"))
    #expect(TerminalStyle.displayWidth(visible) == 60)
    progress.finish()
}

@Test func theTimerStartsWithTheFirstCaseAndStopsOnFinish() {
    let capture = Capture()
    let progress = reporter(.live, capture)
    progress.caseStarted("s/slow", total: 1)
    #expect(progress.isTicking, "the first case start starts the timer")
    progress.finish()
    #expect(!progress.isTicking)
    let written = capture.text
    progress.finish()
    #expect(capture.text == written, "a second finish writes nothing")
}

@Test func modeFollowsTheTerminalAndCI() {
    #expect(LiveProgress.Mode.detect(environment: [:], isTerminal: true) == .live)
    #expect(LiveProgress.Mode.detect(environment: [:], isTerminal: false) == .plain)
    #expect(LiveProgress.Mode.detect(environment: ["CI": "true"], isTerminal: true) == .plain)
    #expect(LiveProgress.Mode.detect(environment: ["CI": "1"], isTerminal: true) == .plain)
    #expect(LiveProgress.Mode.detect(environment: ["CI": "false"], isTerminal: true) == .live)
}

@Test func plainModeByDefaultPrintsWhatIsNotAPassAndTheProgressAtEachTenth() {
    let capture = Capture()
    let progress = reporter(.plain, capture, style: .plain)
    for index in 1...20 {
        let result = index == 7
            ? sampleCase("s", "bad", [.failed], text: "Rome") : sampleCase("s", "ok\(index)", [.passed])
        progress.caseFinished(result, finished: index, total: 20)
    }
    progress.finish()
    let lines = capture.text.split(separator: "\n").map(String.init)
    #expect(!lines.contains { $0.contains("PASS") }, "a plain pass is only counted")
    #expect(lines.filter { $0.hasPrefix("[") && $0.contains("passed") }.count == 10, "a progress line per tenth")
    #expect(lines.contains("[7/20] FAIL  s/bad  0/1  0.03 s"), "the failing case; its reason comes in the closing block")
    #expect(lines.last?.hasPrefix("[20/20]") == true)
}

@Test func quietPlainModePrintsOnlyTheCasesFailingTheirGate() {
    let capture = Capture()
    let progress = reporter(.plain, capture, style: .plain, verbosity: .quiet)
    progress.caseFinished(sampleCase("s", "ok", [.passed]), finished: 1, total: 3)
    progress.caseFinished(sampleCase("s", "wobbly", [.passed, .failed], gate: CaseGate(minPassRate: 0.5)),
                          finished: 2, total: 3)
    progress.caseFinished(sampleCase("s", "bad", [.failed]), finished: 3, total: 3)
    progress.finish()
    #expect(capture.text == "[3/3] FAIL  s/bad  0/1  0.03 s\n")
}
