import Foundation
import Testing
import FMCore
import FMResults
import FMRun

@Test func resultsRoundTripThroughJSON() throws {
    let results = try scriptedRunner().run(try cases("""
    suite: s
    engine: scripted
    cases:
      - { id: x, prompt: hi, script: [ { text: hello } ], expect: { contains: hello } }
    """))
    let document = RunResult(run: runInfo(), cases: results)
    let data = try JSONEncoder().encode(document)
    let decoded = try JSONDecoder().decode(RunResult.self, from: data)
    #expect(decoded.version == RunResult.currentVersion)
    #expect(decoded.cases.first?.attempts.first?.text == "hello")
    #expect(decoded.cases.first?.attempts.first?.transcript == results.first?.attempts.first?.transcript)
    #expect(decoded.summary == document.summary)
}

@Test func journalKeepsEveryFinishedCaseAndIgnoresATornLastLine() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString)")
    let path = folder.appendingPathComponent("results.jsonl").path
    let results = try scriptedRunner().run(try cases("""
    suite: s
    engine: scripted
    cases:
      - { id: x, prompt: hi, script: [ { text: hello } ], expect: { contains: hello } }
      - { id: y, prompt: hi, script: [ { text: bye } ], expect: { contains: hello } }
    """))
    let journal = try ResultsJournal(path: path, run: runInfo(), carried: [results[0]])
    try journal.append(results[1])
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(#"{"case": {"id": "s/z", "sui"#.utf8))
    try handle.close()
    let read = try ResultsJournal.read(path: path)
    #expect(read.run?.id == "test")
    #expect(read.cases.map(\.caseID) == ["x", "y"])

    try Data("not a journal\n".utf8).write(to: URL(fileURLWithPath: path))
    #expect(throws: Fault.self) { try ResultsJournal.read(path: path) }
    #expect(throws: Fault.self) { try ResultsJournal.read(path: folder.appendingPathComponent("missing").path) }
}

@Test func caseFilterTermsGlobsAndNegation() throws {
    let items = try cases("""
    suite: city
    engine: scripted
    cases:
      - { id: paris, tags: [routing], prompt: a, script: [ { text: a } ] }
      - { id: beijing, tags: [adversarial, forum], prompt: b, script: [ { text: b } ] }
      - { id: london-slow, tags: [routing, slow], prompt: c, script: [ { text: c } ] }
    """)
    func selected(_ expression: String) throws -> [String] {
        let filter = try CaseFilter(expression)
        return items.filter(filter.matches).map(\.caseID)
    }
    #expect(try selected("tag:routing") == ["paris", "london-slow"])
    #expect(try selected("tag:routing,!tag:slow") == ["paris"])
    #expect(try selected("suite:city,!b*") == ["paris", "london-slow"])
    #expect(try selected("id:city/?aris") == ["paris"])
    #expect(try selected("*-slow,beijing") == ["beijing", "london-slow"])
    #expect(try selected("!tag:forum") == ["paris", "london-slow"])
    #expect(throws: Fault.self) { try CaseFilter("tag:a,,b") }
    #expect(throws: Fault.self) { try CaseFilter("owner:me") }
}

@Test func resultsFileWrittenFromJournalTextsReadsBackWithJSONDecoder() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("results-\(UUID().uuidString)")
    let results = try scriptedRunner().run(try cases("""
    suite: s
    engine: scripted
    generating: { enum: [a, b] }
    tools:
      - { name: look, arguments: { type: object, properties: { q: { type: string } } }, output: "found \\"it\\"" }
    cases:
      - { id: x, prompt: "hi\\nthere", script: [ { toolCalls: [ { name: look, arguments: { q: "ü" } } ] }, { structure: a } ], expect: { equals: a } }
      - { id: y, prompt: hi, script: [ { error: refusal, message: "no <way>" } ], expect: { equals: b } }
    """))
    let document = RunResult(run: runInfo(), cases: results)
    let path = folder.appendingPathComponent("results.json").path
    try ResultsFile.write(document, to: path)
    let decoded = try JSONDecoder().decode(RunResult.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    #expect(decoded.cases.map(\.id) == results.map(\.id))
    #expect(decoded.cases[0].attempts[0].transcript == results[0].attempts[0].transcript)
    #expect(decoded.cases[0].attempts[0].metrics == results[0].attempts[0].metrics)
    #expect(decoded.cases[1].attempts[0].error == results[1].attempts[0].error)
    #expect(decoded.cases[0].interval == results[0].interval)
    #expect(decoded.summary == document.summary)
    #expect(decoded.run.fingerprint == document.run.fingerprint)
}
