// fmeval-bench-history: the run history's cost at scale, without a model. Records RUNS synthetic runs of
// CASES cases (one attempt each, two metrics, ~3 % failing, a few cases flipping) into a fresh history
// file, then times the queries over them. Usage: fmeval-bench-history [CASES] [RUNS] (default 10000 100).
// Prints: seconds to record one run (first, median, last), the trend query of one case over every run,
// the flakiest query and the per-suite pass rate over the last 30 runs, and the file's size (after the
// first run and per further run). KEEP=1 keeps the file for inspection.
// Measured 2026-12-06 on the 2-core build machine (load average 1.9–2.8), 10,000 × 30, schema 5: record one run
// 0.20–0.30 s median; flaky 0.10–0.18 s; suites 0.07–0.12 s; 0.82 MB per run after the first. docs/history.md
// has the table beside schema 4.
import Foundation
import FMCore
import FMEvaluate
import FMHistory
import FMEngines
import FMResults

let arguments = CommandLine.arguments
let caseCount = arguments.count > 1 ? Int(arguments[1]) ?? 10_000 : 10_000
let runCount = arguments.count > 2 ? Int(arguments[2]) ?? 100 : 100
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-bench-history-\(ProcessInfo.processInfo.processIdentifier)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { if ProcessInfo.processInfo.environment["KEEP"] == nil { try? FileManager.default.removeItem(at: folder) } }
let file = folder.appendingPathComponent("history.sqlite").path

/// Run `run` of the synthetic suite: case `i` fails when `(i + run) % 37 == 0` or, for every 500th case, on odd runs.
func syntheticRun(_ run: Int) -> RunResult {
    let engine = EngineIdentity(name: EngineRegistry.scriptEngine, model: "bench")
    let cases = (0..<caseCount).map { index -> CaseResult in
        let fails = (index + run) % 37 == 0 || (index % 500 == 0 && run % 2 == 1)
        let duration = Double((index * 37 + run * 11) % 900) + 0.001 * Double((index * 7919 + run) % 1000)
        let attempt = AttemptResult(index: 0, status: fails ? .failed : .passed, text: "positive", transcript: Transcript(),
                                    usage: Usage(inputTokens: 40, outputTokens: 2),
                                    metrics: [Metric(name: "equals", value: fails ? .failing : .passing), Metric(name: "latency", value: .scoring(12.5))],
                                    durationMs: duration)
        return CaseResult(id: "suite-\(index % 10)/case-\(index)", suite: "suite-\(index % 10)", caseID: "case-\(index)",
                          tags: ["bench"], engine: engine, attempts: [attempt], durationMs: duration,
                          definition: String(repeating: String(format: "%016x", index), count: 4))
    }
    let fingerprint = Fingerprint(fmevalVersion: FMEvalVersion.current, engine: engine, os: "Linux", cpu: "bench", cpuCount: 1,
                                  architecture: "x86_64")
    let started = String(format: "2026-11-%02dT%02d:00:00.000Z", 1 + run / 24 % 28, run % 24)
    return RunResult(run: RunInfo(id: UUID().uuidString, startedAt: started, paths: ["suites"], fingerprint: fingerprint), cases: cases)
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = Date()
    try body()
    return Date().timeIntervalSince(start)
}

func fileSize() -> Int { (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0 }

var firstSize = 0
let git = GitInfo(commit: String(repeating: "a", count: 40), branch: "main")
var recordTimes: [Double] = []
for run in 0..<runCount {
    if run == 1 { firstSize = fileSize() }
    let result = syntheticRun(run)
    let store = HistoryStore(path: file, git: git)
    recordTimes.append(try seconds { try store.save(result) })
}
let store = HistoryStore(path: file, create: false)
var trend: CaseTrend?
let trendTime = try seconds { trend = try store.trend(caseID: "suite-0/case-500") }
let trendAgain = try seconds { trend = try store.trend(caseID: "suite-3/case-1233") }
var flaky: [FlakyCase] = []
let flakyTime = try seconds { flaky = try store.flakiest(last: 30) }
var suites: [SuitePassRate] = []
let suitesTime = try seconds { suites = try store.suiteRates(last: 30) }
let size = fileSize()
let sorted = recordTimes.sorted()
print("history benchmark: \(runCount) runs × \(caseCount) cases (one attempt each) into \(file)")
print(String(format: "record one run: first %.3f s, median %.3f s, last %.3f s (%.0f cases/s at the median)",
             recordTimes.first ?? 0, sorted[sorted.count / 2], recordTimes.last ?? 0, Double(caseCount) / sorted[sorted.count / 2]))
print(String(format: "trend of one case over %d runs: %.4f s, another case %.4f s", trend?.points.count ?? 0, trendTime, trendAgain))
print(String(format: "flakiest over the last 30 runs: %.3f s (%d cases changed status)", flakyTime, flaky.count))
print(String(format: "pass rate per suite over the last 30 runs: %.3f s (%d suites)", suitesTime, suites.count))
print(String(format: "file size: %.1f MB (%.2f MB after the first run, then %.2f MB per run)", Double(size) / 1_000_000,
             Double(firstSize) / 1_000_000, Double(size - firstSize) / Double(max(1, runCount - 1)) / 1_000_000))
