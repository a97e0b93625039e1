// fmeval-bench-harness: harness throughput without a model. Writes a suite of N enum-classification
// cases (3 evaluators each: equals, oneOf, constraints), records it once on the scripted engine, then
// times `fmeval run --engine replay` over the cassette (journal and results file included) and prints
// cases per second. Usage: fmeval-bench-harness [CASES] (default 10000).
// Measured 2026-11-30 on the shared 2-core build machine (load ≈ 2.5), same minute, 10,000 cases, --jobs 2:
// JSON appended as Strings 5,780–6,320 cases/s wall (6,100–6,500 per CPU-second); JSON written into UTF-8 byte
// buffers, journal lines included, 7,180–7,770 cases/s wall (7,580–7,820 per CPU-second); cases also encoded
// outside the runner's lock, 7,250–11,350 cases/s wall (7,760–8,080 per CPU-second; ≥ 10,000 only when the
// second core is free). The goal is 10,000 cases/s.
import Foundation
import FMEngines
import FMResults
import FMRun

let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 10_000 : 10_000
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-bench-\(ProcessInfo.processInfo.processIdentifier)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

let labels = ["positive", "negative", "neutral"]
var lines: [String] = []
for index in 0..<count {
    let label = labels[index % 3]
    let produced = index % 17 == 0 ? labels[(index + 1) % 3] : label
    lines.append(#"{"id": "review-\#(index)", "prompt": "Review \#(index): the product was \#(label) overall.", "#
        + #""script": [{"structure": "\#(produced)"}], "#
        + #""expect": [{"equals": "\#(label)"}, {"oneOf": ["positive", "negative", "neutral"]}, {"constraints": {"maxViolations": 0}}]}"#)
}
try lines.joined(separator: "\n").write(to: folder.appendingPathComponent("cases.jsonl"), atomically: true, encoding: .utf8)
try """
suite: bench
engine: scripted
instructions: Classify the sentiment of the review.
generating: { enum: [positive, negative, neutral] }
dataset: cases.jsonl
""".write(to: folder.appendingPathComponent("bench.yaml"), atomically: true, encoding: .utf8)

let suite = folder.appendingPathComponent("bench.yaml").path
let cassette = folder.appendingPathComponent("cassette.json").path

/// Runs the pipeline once and returns (seconds to load and plan, wall and CPU seconds to run and write, result).
func timedRun(_ configure: (inout RunRequest) -> Void) throws -> (Double, Double, Double, RunResult) {
    var request = RunRequest(paths: [suite], resultsPath: folder.appendingPathComponent("results.json").path)
    configure(&request)
    let start = Date()
    let plan = try RunPipeline.plan(request)
    let planned = Date()
    let cpuStart = clock()
    let result = try RunPipeline.execute(request, plan: plan)
    let cpu = Double(clock() - cpuStart) / Double(CLOCKS_PER_SEC)
    return (planned.timeIntervalSince(start), Date().timeIntervalSince(planned), cpu, result)
}

let (_, recordSeconds, _, recorded) = try timedRun { $0.record = cassette }
print("recorded \(recorded.cases.count) cases on the scripted engine in \(String(format: "%.2f", recordSeconds)) s")
for jobs in [1, 2] {
    let (load, run, cpu, result) = try timedRun {
        $0.engine = EngineRegistry.cassetteEngine
        $0.cassette = cassette
        $0.options = RunnerOptions(jobs: jobs)
    }
    let metrics = result.cases.reduce(0) { $0 + $1.attempts.reduce(0) { $0 + $1.metrics.count } }
    precondition(result.summary.passed + result.summary.failed == count, "every replayed case must be evaluated")
    print(String(format: "replay --jobs %d: %d cases, %d metrics, load+validate %.2f s, run+write %.2f s wall (%.2f s CPU) → %.0f cases/s (%.0f per CPU-second)",
                 jobs, result.cases.count, metrics, load, run, cpu, Double(count) / run, Double(count) / cpu))
}
