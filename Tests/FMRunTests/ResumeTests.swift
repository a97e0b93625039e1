import Foundation
import Testing
import FMCore
import FMEvaluate
import FMResults
import FMRun

/// `--resume` and `--retry-errors` keep an earlier verdict only for the case as it is defined now, on
/// the engine it ran on; everything else is run again, and they say which and why.
@Suite struct ResumeTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("resume-\(UUID().uuidString)")

    static let suite = """
    suite: demo
    engine: scripted
    cases:
      - { id: one, prompt: Hi, script: [ { text: Hello } ], expect: { contains: Hello } }
      - { id: two, prompt: Hi, script: [ { text: Hello } ], expect: { contains: Hello } }
      - { id: three, prompt: Hi, script: [ { error: timeout } ], expect: { contains: Hello } }
    """

    func writeSuite(_ text: String) throws -> String {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("demo.yaml").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    var resultsPath: String { folder.appendingPathComponent("results.json").path }

    /// Runs the suite at `suite` (resuming from `resume`), returning the results and the notices.
    func run(_ suite: String, resume: String? = nil, rerun: Rerun? = nil) throws -> (RunResult, [String]) {
        var request = RunRequest(paths: [suite], resultsPath: resultsPath)
        request.resume = resume
        request.rerun = rerun
        var notices: [String] = []
        let result = try RunPipeline.execute(request, plan: try RunPipeline.plan(request), notice: { notices.append($0) })
        return (result, notices)
    }

    func status(_ result: RunResult, _ id: String) -> CaseStatus? {
        result.cases.first { $0.caseID == id }?.status
    }

    @Test func anUnchangedSuiteKeepsEveryVerdict() throws {
        let suite = try writeSuite(Self.suite)
        let (first, _) = try run(suite)
        #expect(first.cases.allSatisfy { $0.definition?.count == 67 && $0.definition?.hasPrefix("v2:") == true })
        let (resumed, notices) = try run(suite, resume: resultsPath)
        #expect(notices.isEmpty, "\(notices)")
        #expect(resumed.cases.map(\.durationMs) == first.cases.map(\.durationMs), "kept, not rerun")
    }

    @Test func aChangedCaseIsRunAgainAndTheOthersKept() throws {
        let suite = try writeSuite(Self.suite)
        let (first, _) = try run(suite)
        #expect(status(first, "one") == .passed)
        _ = try writeSuite(Self.suite.replacingOccurrences(of: "{ id: one, prompt: Hi, script: [ { text: Hello } ], expect: { contains: Hello } }",
                                                           with: "{ id: one, prompt: Hi, script: [ { text: Hello } ], expect: { contains: Goodbye } }"))
        let (resumed, notices) = try run(suite, resume: resultsPath)
        #expect(status(resumed, "one") == .failed, "the new expectation decides, not the old verdict")
        #expect(notices == ["--resume: 1 of the 3 finished cases in \(resultsPath) is run again, not kept: demo/one (its definition changed)"])
        let two = try #require(resumed.cases.first { $0.caseID == "two" })
        #expect(two.durationMs == first.cases.first { $0.caseID == "two" }?.durationMs)
    }

    @Test func aCaseFromAnotherEngineOrWithoutADefinitionIsRunAgain() throws {
        let suite = try writeSuite(Self.suite)
        var (first, _) = try run(suite)
        first.cases[0].engine = EngineIdentity(name: "embedded", model: "SmolLM2-135M-Instruct", modelHash: "b179c9523d0e6a0f98a3")
        first.cases[1].definition = nil
        try ResultsFile.write(first, to: resultsPath)
        let (_, notices) = try run(suite, resume: resultsPath)
        let notice = try #require(notices.first)
        #expect(notice.hasPrefix("--resume: 2 of the 3 finished cases"))
        #expect(notice.contains("demo/one (it ran on embedded (SmolLM2-135M-Instruct) sha256 b179c9523d0e, this run uses scripted (script))"))
        #expect(notice.contains("demo/two (its results predate definition hashes)"))
    }

    @Test func theJournalStandsInForResultsNeverWritten() throws {
        let suite = try writeSuite(Self.suite)
        let (first, _) = try run(suite)
        let journal = ResultsJournal.path(for: resultsPath)
        _ = try ResultsJournal(path: journal, run: first.run, carried: Array(first.cases.prefix(2)))
        try FileManager.default.removeItem(atPath: resultsPath)
        let (resumed, notices) = try run(suite, resume: resultsPath)
        #expect(notices == ["--resume: \(resultsPath) does not exist (the run was interrupted before writing it); resuming from the journal \(journal) (2 finished cases)"])
        #expect(resumed.cases.count == 3)
        #expect(resumed.cases.prefix(2).map(\.durationMs) == first.cases.prefix(2).map(\.durationMs))
    }

    @Test func retryErrorsRerunsKeptCasesWhoseDefinitionChanged() throws {
        let suite = try writeSuite(Self.suite)
        let (first, _) = try run(suite)
        #expect(status(first, "three") == .error)
        _ = try writeSuite(Self.suite.replacingOccurrences(of: "{ id: two, prompt: Hi, script: [ { text: Hello } ]",
                                                           with: "{ id: two, prompt: Hi, script: [ { text: Bye } ]"))
        let rerun = Rerun(kind: .retryErrors, path: resultsPath, results: first)
        let (merged, notices) = try run(suite, rerun: rerun)
        #expect(notices == ["--retry-errors: 1 of the 2 finished cases in \(resultsPath) is run again, not kept: demo/two (its definition changed)"])
        #expect(status(merged, "two") == .failed)
        #expect(status(merged, "one") == .passed)
        #expect(merged.cases.count == 3)
    }
}
