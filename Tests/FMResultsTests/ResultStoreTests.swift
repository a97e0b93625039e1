import Foundation
import Testing
import FMCore
import FMEvaluate
import FMResults

/// The results file store and the journal, on hand-built results (no runner involved).
@Suite struct ResultStoreTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")

    func attempt(_ outcome: AttemptOutcome, text: String) -> AttemptResult {
        let transcript = Transcript(entries: [
            .prompt(.init(id: "p", segments: [.text(.init(id: "p1", content: "hi"))])),
            .response(.init(id: "r", segments: [.text(.init(id: "r1", content: text))])),
        ])
        return AttemptResult(index: 0, status: outcome, text: text, transcript: transcript,
                             metrics: [outcome == .passed ? .passing("contains") : .failing("contains", rationale: "no")],
                             durationMs: 12)
    }

    func run(_ outcomes: [AttemptOutcome]) -> RunResult {
        let cases = outcomes.enumerated().map { index, outcome in
            CaseResult(id: "s/c\(index)", suite: "s", caseID: "c\(index)", attempts: [attempt(outcome, text: "t\(index) \u{1F600} \"q\"")],
                       durationMs: 12)
        }
        let fingerprint = Fingerprint(fmevalVersion: "test", engine: EngineIdentity(name: "scripted", model: "script"),
                                      os: "os", cpu: "cpu", cpuCount: 2, architecture: "x86_64")
        return RunResult(run: RunInfo(id: "run-1", startedAt: "2026-11-30T00:00:00Z", fingerprint: fingerprint), cases: cases)
    }

    @Test func aSavedRunReadsBackEqual() throws {
        let path = folder.appendingPathComponent("nested/results.json").path
        let store: ResultStore = ResultsFileStore(path: path)
        let saved = run([.passed, .failed, .error])
        try store.save(saved)
        let loaded = try ResultsFile.load(path)
        #expect(loaded.version == RunResult.currentVersion)
        #expect(loaded.summary == saved.summary)
        #expect(loaded.cases.map(\.id) == ["s/c0", "s/c1", "s/c2"])
        #expect(loaded.cases.map(\.status) == saved.cases.map(\.status))
        #expect(loaded.cases[0].attempts[0].text == "t0 \u{1F600} \"q\"")
        #expect(loaded.cases[0].attempts[0].transcript == saved.cases[0].attempts[0].transcript)
        #expect(store.location == path)
    }

    /// A file or journal holding one case id twice (written before ids were unique, or edited) is refused,
    /// not read with the last verdict standing for both.
    @Test func resultsWithACaseIDTwiceAreRefusedNamingTheID() throws {
        var twice = run([.failed, .passed])
        twice.cases[1].id = twice.cases[0].id
        let path = folder.appendingPathComponent("twice.json").path
        try ResultsFileStore(path: path).save(twice)
        #expect(throws: Fault.self) { try ResultsFile.load(path) }
        do {
            _ = try ResultsFile.load(path)
        } catch let error as Fault {
            #expect(error.description.contains("twice.json: case id 's/c0' appears more than once"), "\(error)")
        }
        #expect(throws: Fault.self) { try ResultsJournal.read(path: path) }
        let journalPath = folder.appendingPathComponent("twice.jsonl").path
        let journal = try ResultsJournal(path: journalPath, run: twice.run)
        for result in twice.cases { try journal.append(ResultsJournal.encode(result), id: result.id) }
        #expect(throws: Fault.self) { try ResultsJournal.read(path: journalPath) }
    }

    /// Why a case was skipped is a fact (`cause`) read back as written; files written before causes keep
    /// their reason text.
    @Test func skipCausesRoundTripAndOlderFilesKeepTheirReason() throws {
        for cause in [SkipCause.filteredOut(expression: "tag:slow"), .failFast(trigger: "s/c0")] {
            let entry = SkippedCase(id: "s/c1", suite: "s", caseID: "c1", variant: nil, tags: [], cause: cause)
            let read = try ContentDecoder.decode(SkippedCase.self, from: try GeneratedContent(json: try ContentEncoder.jsonText(entry)))
            #expect(read == entry && read.reason == cause.reason)
        }
        let older = #"{"id": "s/c1", "suite": "s", "caseID": "c1", "tags": [], "reason": "selected out by --filter tag:slow"}"#
        let read = try ContentDecoder.decode(SkippedCase.self, from: try GeneratedContent(json: older))
        #expect(read.cause == .unrecorded && read.reason == "selected out by --filter tag:slow")
    }

    @Test func journalTextsAreReusedVerbatim() throws {
        let path = folder.appendingPathComponent("results.json").path
        let saved = run([.passed])
        let texts = try saved.cases.map { try ResultsJournal.encode($0).text }
        try ResultsFileStore(path: path, caseTexts: texts).save(saved)
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written.contains("\n" + texts[0] + "\n]"))
        #expect(try ResultsFile.load(path).cases.count == 1)
    }

    @Test func journalTextsComeBackInTheResultsOrderNotTheFinishOrder() throws {
        let saved = run([.passed, .failed, .passed])
        let journal = try ResultsJournal(path: folder.appendingPathComponent("order.jsonl").path, run: saved.run)
        for result in saved.cases.reversed() { try journal.append(ResultsJournal.encode(result), id: result.id) }
        let texts = try #require(journal.caseTexts(for: saved.cases))
        #expect(texts == (try saved.cases.map { try ResultsJournal.encode($0).text }))
        #expect(journal.caseTexts(for: saved.cases + [saved.cases[0].renamed("s/other")]) == nil)
        journal.finish()
    }

    @Test func anUnwritableStoreIsAnInfrastructureErrorNamingThePath() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let blocker = folder.appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        let path = blocker.appendingPathComponent("results.json").path
        let error = #expect(throws: Fault.self) { try ResultsFileStore(path: path).save(run([.passed])) }
        #expect(error?.isInfrastructure == true)
        #expect(error?.message.contains(path) == true)
    }

    @Test func aNewerResultsVersionIsRefusedWithTheUpgradeHint() throws {
        let text = #"{"version": 99, "run": {}, "summary": {}, "cases": []}"#
        let error = #expect(throws: Fault.self) { try ResultsFile.decode(Data(text.utf8), path: "old.json") }
        #expect(error?.message.contains("upgrade fmeval") == true)
        #expect(error?.isInfrastructure == false)
    }

    @Test func journalKeepsFinishedCasesAndIgnoresATornLastLine() throws {
        let path = folder.appendingPathComponent("results.jsonl").path
        let saved = run([.passed, .failed])
        let journal = try ResultsJournal(path: path, run: saved.run, carried: [saved.cases[0]])
        try journal.append(saved.cases[1])
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"case":{"id":"s/c"#.utf8))
        try handle.close()
        let read = try ResultsJournal.read(path: path)
        #expect(read.run?.id == "run-1")
        #expect(read.cases.map(\.id) == ["s/c0", "s/c1"])
        #expect(throws: Fault.self) { try ResultsJournal.read(path: folder.appendingPathComponent("missing").path) }
    }

    /// A full disk (a real one: /dev/full, where every write fails with ENOSPC) while a new journal is
    /// started: one clear error, and the interrupted run's journal is exactly as it was.
    @Test func aFullDiskLeavesTheEarlierJournalIntact() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("results.jsonl").path
        let saved = run([.passed, .failed])
        let earlier = try ResultsJournal(path: path, run: saved.run, carried: saved.cases)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let fresh = path + ".new-\(getpid())"
        try FileManager.default.createSymbolicLink(atPath: fresh, withDestinationPath: "/dev/full")
        do {
            _ = try ResultsJournal(path: path, run: saved.run)
            Issue.record("a journal was started on a full disk")
        } catch let error as JournalWriteError {
            #expect(error.description.contains("cannot write the results journal \(path): the disk is full"))
            #expect(!error.description.contains("\n"), "one line")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(!FileManager.default.fileExists(atPath: fresh))
        #expect(try ResultsJournal.read(path: path).cases.map(\.id) == ["s/c0", "s/c1"])
        withExtendedLifetime(earlier) {}
    }

    @Test func decimalsKeepTheirFormThroughTheFileAndTheJournal() throws {
        var saved = run([.passed])
        let arguments = try GeneratedContent(json: #"{"amount": 1.0, "count": 2}"#)
        saved.cases[0].attempts[0].transcript.entries.append(.toolCalls(.init(id: "t", calls: [ToolCall(id: "c", name: "pay", arguments: arguments)])))
        saved.cases[0].attempts[0].output = arguments
        let path = folder.appendingPathComponent("results.json").path
        try ResultsFileStore(path: path).save(saved)
        let fromFile = try ResultsFile.load(path).cases[0].attempts[0]
        #expect(fromFile.output?.jsonString == #"{"amount":1.0,"count":2}"#)
        let journalPath = folder.appendingPathComponent("results.jsonl").path
        _ = try ResultsJournal(path: journalPath, run: saved.run, carried: saved.cases)
        let fromJournal = try #require(try ResultsJournal.read(path: journalPath).cases.first?.attempts.first)
        #expect(fromJournal.output?.jsonString == #"{"amount":1.0,"count":2}"#)
        #expect(StructuredTranscript(fromJournal.transcript).toolCalls.first?.arguments.jsonString == #"{"amount":1.0,"count":2}"#)
        #expect(try ResultsJournal.read(path: path).cases.first?.attempts.first?.output?.jsonString == #"{"amount":1.0,"count":2}"#)
    }
}

private extension CaseResult {
    /// This result under another id.
    func renamed(_ id: String) -> CaseResult {
        var copy = self
        copy.id = id
        return copy
    }
}
