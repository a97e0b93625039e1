import Foundation
import Testing
import FMCore
import FMResults
import FMRun
import FMSuite

/// Two instruction blocks interleaved by the variants: suite order alternates them.
private let interleaved = """
suite: s
engine: scripted
instructions: Answer yes or no.
variants:
  - name: plain
  - name: other
    instructions: Reply with one word.
cases:
  - { id: a, prompt: A?, script: [ { text: "yes" } ], expect: { contains: "yes" } }
  - { id: b, prompt: B?, script: [ { text: "no" } ], expect: { contains: "yes" } }
  - { id: c, prompt: C?, script: [ { text: "yes" } ], expect: { contains: "yes" } }
"""

@Test func prefixOrderGroupsCasesSharingInstructionsInSuiteOrderWithinEachGroup() throws {
    let items = try cases(interleaved)
    #expect(items.map(\.id) == ["s/a@plain", "s/a@other", "s/b@plain", "s/b@other", "s/c@plain", "s/c@other"])
    #expect(CaseOrder.prefix.schedule(items) == [0, 2, 4, 1, 3, 5])
    #expect(CaseOrder.suite.schedule(items) == [0, 1, 2, 3, 4, 5])
}

@Test func schemaAndToolsSeparateGroups() throws {
    let items = try cases("""
    suite: s
    engine: scripted
    cases:
      - { id: free, prompt: A, script: [ { text: x } ] }
      - { id: enum, prompt: B, generating: { enum: [x, y] }, script: [ { structure: x } ] }
      - { id: free2, prompt: C, script: [ { text: x } ] }
      - { id: enum2, prompt: D, generating: { enum: [x, y] }, script: [ { structure: x } ] }
    """)
    #expect(CaseOrder.prefix.schedule(items) == [0, 2, 1, 3])
}

@Test func generationOptionsShareAPrefixButPromptSettingsDoNot() throws {
    let items = try cases("""
    suite: s
    engine: scripted
    generating: { enum: [x, y] }
    cases:
      - { id: a, prompt: A, script: [ { structure: x } ] }
      - { id: inline, prompt: B, options: { includeSchemaInPrompt: false }, script: [ { structure: x } ] }
      - { id: short, prompt: C, options: { maximumResponseTokens: 3, temperature: 0.5 }, script: [ { structure: x } ] }
    """)
    #expect(CaseOrder.prefix.schedule(items) == [0, 2, 1], "length and sampling do not change the prompt")
}

@Test func reorderedRunsKeepResultsAndProgressInSuiteOrder() throws {
    let items = try cases(interleaved)
    for jobs in [1, 3] {
        let startedOrder = Locked<[String]>([])
        let reported = Locked<[String]>([])
        var options = RunnerOptions(jobs: jobs)
        options.caseOrder = .prefix
        let results = try scriptedRunner(options).run(items, progress: { result, finished, total in
            reported.withLock { $0.append(result.id) }
            #expect(total == 6)
            #expect(finished == reported.withLock { $0.count })
        }, started: { item, _ in startedOrder.withLock { $0.append(item.id) } })
        #expect(results.map(\.id) == items.map(\.id))
        #expect(reported.withLock { $0 } == items.map(\.id))
        if jobs == 1 {
            #expect(startedOrder.withLock { $0 } == ["s/a@plain", "s/b@plain", "s/c@plain", "s/a@other", "s/b@other", "s/c@other"])
        }
    }
}

@Test func failFastStillReportsWhatFinishedInSuiteOrder() throws {
    let items = try cases(interleaved)
    var options = RunnerOptions(failFast: true)
    options.caseOrder = .prefix
    let reported = Locked<[String]>([])
    let results = try scriptedRunner(options).run(items, progress: { result, _, _ in reported.withLock { $0.append(result.id) } })
    // Started a@plain, then b@plain failed: the run stops with those two, reported in suite order.
    #expect(results.map(\.id) == ["s/a@plain", "s/b@plain"])
    #expect(reported.withLock { $0 } == ["s/a@plain", "s/b@plain"])
}
