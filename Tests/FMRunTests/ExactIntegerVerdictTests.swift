import FMCore
import FMResults
import Testing

/// Integers beyond 2^53 and 2^63, written in a suite and answered by the (scripted) model, through the real
/// loader, runner and evaluators: every evaluator, matcher and schema keyword compares them exactly.
private let suite = """
suite: big-integers
engine: scripted
tools:
  - name: lookup
    arguments:
      title: LookupArguments
      type: object
      properties: { id: { type: integer, maximum: 9007199254740992 } }
      required: [id]
      x-order: [id]
    output: "found"
cases:
  - { id: equals-2-53, prompt: n?, script: [ { text: "9007199254740993" } ], expect: { equals: 9007199254740992 } }
  - { id: equals-2-53-same, prompt: n?, script: [ { text: "9007199254740993" } ], expect: { equals: 9007199254740993 } }
  - { id: one-of-2-53, prompt: n?, script: [ { text: "9007199254740993" } ],
      expect: { oneOf: [9007199254740992, 9007199254740994] } }
  - { id: equals-2-64, prompt: n?, script: [ { text: "18446744073709551617" } ],
      expect: { equals: 18446744073709551616 } }
  - { id: equals-2-64-same, prompt: n?, script: [ { text: "18446744073709551617" } ],
      expect: { equals: 18446744073709551617 } }
  - id: structure-in-a-list
    prompt: n?
    generating: { schema: { type: array, items: { type: integer, maximum: 9223372036854775808 } } }
    script: [ { structure: [9223372036854775809] } ]
    expect: [ { constraints: { maxViolations: 0 } } ]
  - id: structure-in-a-list-within
    prompt: n?
    generating: { schema: { type: array, items: { type: integer, maximum: 9223372036854775808 } } }
    script: [ { structure: [9223372036854775808] } ]
    expect: [ { constraints: { maxViolations: 0 } }, { equals: [9223372036854775808] } ]
  - id: argument-exact
    prompt: look up
    script: [ { toolCalls: [ { name: lookup, arguments: { id: 9007199254740993 } } ] }, { text: done } ]
    expect: { toolCalls: { ordered: [ { name: lookup, arguments: { id: 9007199254740992 } } ] } }
  - id: argument-range
    prompt: look up
    script: [ { toolCalls: [ { name: lookup, arguments: { id: 9007199254740993 } } ] }, { text: done } ]
    expect:
      toolCalls: { ordered: [ { name: lookup, arguments: { id: { range: { maximum: 9007199254740992 } } } } ] }
  - id: argument-schema-maximum
    prompt: look up
    script: [ { toolCalls: [ { name: lookup, arguments: { id: 9007199254740993 } } ] }, { text: done } ]
    expect: { toolCalls: { ordered: [ lookup ], maxViolations: 0 } }
"""

@Test func integersBeyondTwoToThe53AndTheSixtyThirdCompareExactlyInEveryCheck() throws {
    let results = try scriptedRunner().run(try cases(suite))
    let status = Dictionary(uniqueKeysWithValues: results.map { ($0.caseID, $0.status) })
    #expect(status == [
        "equals-2-53": .failed, "equals-2-53-same": .passed,
        "one-of-2-53": .failed,
        "equals-2-64": .failed, "equals-2-64-same": .passed,
        "structure-in-a-list": .failed, "structure-in-a-list-within": .passed,
        "argument-exact": .failed, "argument-range": .failed,
        "argument-schema-maximum": .failed,
    ])
    let rationales = Dictionary(uniqueKeysWithValues: results.map { result -> (String, String) in
        let failing = (result.attempts.first?.metrics ?? []).filter { $0.value == .failing }
        return (result.caseID, failing.compactMap(\.rationale).joined(separator: " | "))
    })
    #expect(rationales["equals-2-53"]?.contains("expected 9007199254740992, got") == true,
            "\(rationales["equals-2-53"] ?? "")")
    let range = "id: 9007199254740993 is above the range -∞…9007199254740992"
    #expect(rationales["argument-range"]?.contains(range) == true,
            "\(rationales["argument-range"] ?? "")")
    #expect(rationales["structure-in-a-list"]?.contains("above the maximum 9223372036854775808") == true
            || results.first { $0.caseID == "structure-in-a-list" }?.attempts.first?.violations.first?.keyword
                == .maximum)
}
