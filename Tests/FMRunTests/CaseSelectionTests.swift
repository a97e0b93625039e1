import Foundation
import Testing
import FMCore
import FMEvaluate
import FMResults
@testable import FMRun

private let threeCases = """
suite: geo
engine: scripted
cases:
  - id: capital-france
    tags: [capitals]
    prompt: a
    script: [ { text: Paris } ]
    expect: { equals: Paris }
  - id: capital-spain
    tags: [capitals]
    prompt: b
    script: [ { text: Madrid } ]
    expect: { equals: Madrid }
  - id: river
    prompt: c
    script: [ { text: Seine } ]
    expect: { equals: Seine }
"""

@Test func substringDistanceFindsTyposInsideLongerIDs() {
    #expect(CaseSelection.substringDistance("capital", in: "geo/capital-france") == 0)
    #expect(CaseSelection.substringDistance("capitl", in: "geo/capital-france") == 1)
    #expect(CaseSelection.substringDistance("CAPITAL", in: "geo/capital-france") == 0, "case-insensitive")
    #expect(CaseSelection.substringDistance("xyz", in: "") == 3)
    #expect(CaseSelection.substringDistance("", in: "abc") == 0)
}

@Test func closestIDsRankTheLikelyTypoTargetsFirst() throws {
    let items = try cases(threeCases)
    #expect(CaseSelection.closestIDs(to: [("id", "capitl-spain")], among: items) == ["geo/capital-spain", "geo/capital-france", "geo/river"])
    #expect(CaseSelection.closestIDs(to: [("", "rivr*")], among: items).first == "geo/river")
    #expect(CaseSelection.closestIDs(to: [("tag", "capitols")], among: items) == ["geo/capital-france", "geo/capital-spain"],
            "cases without tags are not close to a tag")
}

@Test func aFilterMatchingNothingIsAnErrorThatNamesTheClosestCases() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-select-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let suite = folder.appendingPathComponent("geo.yaml").path
    try Data(threeCases.utf8).write(to: URL(fileURLWithPath: suite))
    var request = RunRequest(paths: [suite], resultsPath: folder.appendingPathComponent("r.json").path)
    request.filter = "id:capital-spian"
    #expect {
        try RunPipeline.plan(request)
    } throws: { error in
        guard case .invalidInput(let message) = error as? Fault else { return false }
        return message.contains("selects none of the 3 cases") && message.contains("closest case ids: geo/capital-spain")
    }
    request.filter = "!id:geo/*"
    #expect {
        try RunPipeline.plan(request)
    } throws: { error in
        (error as? Fault)?.description.contains("every case matches a term excluded with '!'") == true
    }
    request.filter = "id:geo/river"
    request.shard = try Shard(index: 1, count: 1)
    #expect(try RunPipeline.plan(request).cases.map(\.caseID) == ["river"])
}

@Test func anEmptyShardIsANoteNotAnError() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-select-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let suite = folder.appendingPathComponent("geo.yaml").path
    try Data(threeCases.utf8).write(to: URL(fileURLWithPath: suite))
    var request = RunRequest(paths: [suite], resultsPath: folder.appendingPathComponent("r.json").path)
    var empties = 0
    for index in 1...8 {
        request.shard = try Shard(index: index, count: 8)
        let plan = try RunPipeline.plan(request)
        if plan.cases.isEmpty {
            empties += 1
            #expect(plan.notes == [CaseSelection.emptyShard(try Shard(index: index, count: 8), selected: 3)])
        } else {
            #expect(plan.notes.isEmpty)
        }
    }
    #expect(empties >= 5)
}

@Test func failFastStartsNoCaseAfterTheFirstFailure() throws {
    let items = try cases(threeCases.replacingOccurrences(of: "script: [ { text: Madrid } ]", with: "script: [ { text: Rome } ]"))
    let stopped = try scriptedRunner(RunnerOptions(jobs: 1, failFast: true)).run(items)
    #expect(stopped.map(\.caseID) == ["capital-france", "capital-spain"])
    #expect(RunPipeline.notRun(items, finished: stopped).map(\.caseID) == ["river"])
    let skipped = try #require(RunPipeline.notRun(items, finished: stopped).first)
    #expect(skipped.cause == .failFast(trigger: "geo/capital-spain"))
    #expect(skipped.reason == "not run: --fail-fast stopped the run after geo/capital-spain failed")
    let all = try scriptedRunner(RunnerOptions(jobs: 1)).run(items)
    #expect(all.count == 3)
    #expect(RunPipeline.notRun(items, finished: all).isEmpty)
}

@Test func rerunBucketsFollowTheStatusAndTheDeterminismCheck() {
    func result(_ outcomes: [AttemptOutcome], gate: CaseGate = CaseGate(), diverged: Bool = false) -> CaseResult {
        let attempts = outcomes.enumerated().map { AttemptResult(index: $0.offset, status: $0.element, transcript: Transcript(), durationMs: 1) }
        return CaseResult(id: "s/c", suite: "s", caseID: "c", gate: gate, attempts: attempts,
                          determinism: diverged ? DeterminismResult(diverged: true) : nil, durationMs: 1)
    }
    let empty = RunResult(run: runInfo(), cases: [])
    let last = Rerun(kind: .lastFailed, path: "r.json", results: empty)
    let retry = Rerun(kind: .retryErrors, path: "r.json", results: empty)
    #expect(last.selects(result([.failed])))
    #expect(last.selects(result([.error])))
    #expect(!last.selects(result([.passed])))
    #expect(!last.selects(result([.passed, .failed], gate: CaseGate(minPassRate: 0.5))), "flaky held its gate")
    #expect(last.selects(result([.passed], diverged: true)), "a diverged rerun failed the run")
    #expect(retry.selects(result([.error])))
    #expect(!retry.selects(result([.failed])))
    #expect(last.nothingToDo.contains("nothing to rerun"))
}

@Test func retryingOnAnotherEngineThanTheEarlierRunIsRefused() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-select-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let suite = folder.appendingPathComponent("geo.yaml").path
    try Data(threeCases.utf8).write(to: URL(fileURLWithPath: suite))
    let errored = CaseResult(id: "geo/river", suite: "geo", caseID: "river", engine: EngineIdentity(name: "embedded", model: "SmolLM2"),
                             attempts: [AttemptResult(index: 0, status: .error, transcript: Transcript())], durationMs: 1)
    let earlier = RunResult(run: runInfo(), cases: [errored])
    var request = RunRequest(paths: [suite], resultsPath: folder.appendingPathComponent("r.json").path)
    request.rerun = Rerun(kind: .retryErrors, path: "earlier.json", results: earlier)
    let plan = try RunPipeline.plan(request)
    #expect(plan.cases.map(\.id) == ["geo/river"])
    #expect {
        try RunPipeline.execute(request, plan: plan)
    } throws: { error in
        (error as? Fault)?.description.contains("earlier.json ran geo/river on embedded (SmolLM2) but this run would use scripted (script)") == true
    }
    #expect(!FileManager.default.fileExists(atPath: request.resultsPath), "nothing is written")
}
