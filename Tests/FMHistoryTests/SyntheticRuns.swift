import Foundation
import FMCore
import FMEvaluate
import FMHistory
import FMResults

/// A fresh temporary history file path (its folder is made; nothing is created at the path).
func temporaryHistory() throws -> (folder: URL, path: String) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-history-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return (folder, folder.appendingPathComponent("history.sqlite").path)
}

/// One case of a synthetic run: its stable id parts, status and definition hash.
struct SyntheticCase {
    var suite: String
    var caseID: String
    var variant: String?
    var passes: Bool
    var definition = "def-1"
    /// Two attempts with one pass (flaky, the gate holds) instead of one attempt.
    var flaky = false
}

/// A results document of `cases`, started on day `day` of November 2026 (run id unique per call).
func syntheticRun(day: Int, _ cases: [SyntheticCase]) -> RunResult {
    let engine = EngineIdentity(name: "scripted", model: "test")
    let results = cases.map { item -> CaseResult in
        func attempt(_ index: Int, _ passes: Bool) -> AttemptResult {
            AttemptResult(index: index, status: passes ? .passed : .failed, text: passes ? "yes" : "no", transcript: Transcript(),
                          usage: Usage(inputTokens: 10, outputTokens: 1),
                          metrics: [Metric(name: "equals", value: passes ? .passing : .failing)], durationMs: 2)
        }
        let attempts = item.flaky ? [attempt(0, true), attempt(1, false)] : [attempt(0, item.passes)]
        let gate = item.flaky ? CaseGate(minPassRate: 0.5) : CaseGate()
        return CaseResult(id: CaseResult.stableID(suite: item.suite, caseID: item.caseID, variant: item.variant), suite: item.suite,
                          caseID: item.caseID, variant: item.variant, tags: ["t"], engine: engine, gate: gate, attempts: attempts,
                          durationMs: 2, definition: item.definition)
    }
    let fingerprint = Fingerprint(fmevalVersion: "test", engine: engine, os: "Linux", cpu: "test", cpuCount: 1, architecture: "x86_64")
    let info = RunInfo(id: UUID().uuidString, startedAt: String(format: "2026-11-%02dT10:00:00.000Z", day), paths: ["suites"],
                       arguments: ["suites"], fingerprint: fingerprint)
    return RunResult(run: info, cases: results)
}

/// The ten runs of the query tests (day 1…10), each with the git commit `c<day>` on branch main
/// (feature for day 9):
/// - `a/steady` passes every run;
/// - `a/breaks` passes on days 1–6 and fails from day 7 on;
/// - `a/flip` alternates pass (odd days) / fail (even days) with one definition;
/// - `a/edited` alternates too, but its definition changes every run (not flaky);
/// - `b/never` fails every run; `b/late@v2` appears from day 5 on and passes.
func tenRuns() -> [(run: RunResult, git: GitInfo)] {
    (1...10).map { day in
        var cases = [
            SyntheticCase(suite: "a", caseID: "steady", passes: true),
            SyntheticCase(suite: "a", caseID: "breaks", passes: day <= 6),
            SyntheticCase(suite: "a", caseID: "flip", passes: day % 2 == 1),
            SyntheticCase(suite: "a", caseID: "edited", passes: day % 2 == 1, definition: "def-\(day)"),
            SyntheticCase(suite: "b", caseID: "never", passes: false),
        ]
        if day >= 5 { cases.append(SyntheticCase(suite: "b", caseID: "late", variant: "v2", passes: true)) }
        return (syntheticRun(day: day, cases), GitInfo(commit: "c\(day)" + String(repeating: "0", count: 38), branch: day == 9 ? "feature" : "main"))
    }
}

/// Records `runs` into a history at `path`, one store per save (as separate `fmeval` processes would).
func record(_ runs: [(run: RunResult, git: GitInfo)], at path: String) throws {
    for (run, git) in runs { try HistoryStore(path: path, git: git).save(run) }
}
