import Foundation
import Testing
import FMEvaluate
@testable import FMReport
@testable import FMResults

/// Peak resident memory of this process so far, in MiB (`ru_maxrss` is in KiB on Linux).
private func peakMemoryMiB() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_maxrss) / 1024
}

/// Opt-in benchmark (prints figures, asserts only correctness):
/// `FMEVAL_BENCH=1 swift test -c release -Xswiftc -enable-testing --filter reportWritingBenchmark`.
@Test(.enabled(if: ProcessInfo.processInfo.environment["FMEVAL_BENCH"] == "1"))
func reportWritingBenchmark() throws {
    let count = 10_000
    var cases: [CaseResult] = []
    cases.reserveCapacity(count)
    for index in 0..<count {
        let outcomes: [AttemptOutcome] = index % 10 == 0 ? [.failed] : (index % 97 == 0 ? [.error] : [.passed])
        cases.append(sampleCase("suite-\(index % 20)", "case-\(index)", outcomes, text: "Paris \(index)", toolCall: index % 3 == 0))
    }
    let run = RunResult(run: sampleInfo(), cases: cases)
    let before = peakMemoryMiB()
    let start = Date()
    let junit = JUnitReport.render(run)
    let junitDone = Date()
    let html = HTMLReport.render(run)
    let htmlDone = Date()
    let folder = try artifactFolder()
    try Data(junit.utf8).write(to: folder.appendingPathComponent("bench.xml"))
    try Data(html.utf8).write(to: folder.appendingPathComponent("bench.html"))
    let written = Date()
    let after = peakMemoryMiB()
    print(String(format: "report benchmark: %d cases: JUnit %.3f s (%.1f MB), HTML %.3f s (%.1f MB), write %.3f s, total %.3f s; peak RSS %.0f MiB before, %.0f MiB after",
                 count, junitDone.timeIntervalSince(start), Double(junit.utf8.count) / 1e6,
                 htmlDone.timeIntervalSince(junitDone), Double(html.utf8.count) / 1e6,
                 written.timeIntervalSince(htmlDone), written.timeIntervalSince(start), before, after))
    #expect(junit.components(separatedBy: "<testcase ").count == count + 1)
    #expect(html.components(separatedBy: "<details class=\"case\"").count == count + 1)
}
