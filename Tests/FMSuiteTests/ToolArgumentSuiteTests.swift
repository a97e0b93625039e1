import FMCore
import FMEvaluate
import Testing
@testable import FMSuite

/// `toolCalls` argument modifiers, strict calls and budgets as suites write them, and matchers on undeclared arguments.
private let head = """
suite: s
engine: scripted
tools:
  - name: ship
    arguments:
      type: object
      properties:
        address: { type: object, properties: { city: { type: string }, zip: { type: string } } }
        stops: { type: array, items: { type: string } }
        express: { type: boolean }
        notes: { type: object, properties: { weight: { type: number }, count: { type: integer } } }
    output: ok
cases:
  - id: c
    prompt: p
    script: [ { text: done } ]
    expect:

"""

private func trajectory(_ text: String) throws -> TrajectoryExpectation {
    let (suite, diagnostics) = loadSuite(text)
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    return try #require(suite?.cases.first?.expect.first?.payload(as: TrajectoryExpectation.self))
}

@Test func modifiersStrictCallsAndBudgetsLoad() throws {
    let loaded = try trajectory(head + """
          - toolCalls:
              ordered:
                - name: ship
                  allowsAdditionalArguments: false
                  arguments:
                    /address/city: { exact: "new york", ignoreCase: true, normalize: [whitespace, punctuation] }
                    express: { oneOf: [true], optional: true }
                    stops: { length: 2 }
                    /address/zip: { length: { minimum: 1 }, optional: true }
              maxViolations: 0
              maxViolationsPerKeyword: { type: 0 }

    """)
    let call = try #require(loaded.ordered.first?.calls.first)
    #expect(!call.allowsAdditionalArguments)
    #expect(call.arguments == [
        .modified(.exact(argumentName: "/address/city", value: "new york"), ArgumentModifiers(ignoreCase: true, normalize: [.whitespace, .punctuation])),
        .modified(.oneOf(argumentName: "express", allowedValues: [true]), ArgumentModifiers(isOptional: true)),
        .length(argumentName: "stops", minimum: 2, maximum: 2),
        .modified(.length(argumentName: "/address/zip", minimum: 1, maximum: nil), ArgumentModifiers(isOptional: true)),
    ])
    #expect(loaded.maxViolations == 0)
    #expect(loaded.maxViolationsPerKeyword == ["type": 0])
}

@Test func objectAndListAnswersLoadAsValues() throws {
    let loaded = try trajectory(head + """
          - toolCalls:
              ordered:
                - name: ship
                  arguments:
                    address: { oneOf: [ { city: Vienna, zip: "1010" }, { city: Vienna } ], allowsAdditionalKeys: true }
                    stops: [a, b]

    """)
    let arguments = try #require(loaded.ordered.first?.calls.first?.arguments)
    #expect(arguments == [
        .modified(.oneOf(argumentName: "address", allowedValues: [["city": "Vienna", "zip": "1010"], ["city": "Vienna"]]),
                  ArgumentModifiers(allowsAdditionalKeys: true)),
        .exact(argumentName: "stops", value: ["a", "b"]),
    ])
}

@Test func yamlDecimalsKeepTheirForm() throws {
    let loaded = try trajectory(head + """
          - toolCalls: { ordered: [ { name: ship, arguments: { notes: { exact: { weight: 1.0, count: 2 } } } } ] }

    """)
    let first = try #require(loaded.ordered.first?.calls.first?.arguments.first)
    guard case .exact(_, let value) = first else { Issue.record("not exact: \(first)"); return }
    #expect(value.jsonString == #"{"weight":1.0,"count":2}"#)
}

@Test func matchersOnUndeclaredArgumentsAreRejectedWhereTheyAreWritten() throws {
    try expectLocatedDiagnostic(head + """
          - toolCalls: { ordered: [ { name: ship, arguments: { expres: true } } ] }

    """, "toolCalls: tool 'ship' declares no argument 'expres' (did you mean 'express'? it declares address, stops, express, notes), so this matcher can never be met", line: 18, column: 60)
    try expectLocatedDiagnostic(head + """
          - toolCalls: { ordered: [ { name: ship, arguments: { /address/town: { hasPrefix: V } } } ] }

    """, "declares no argument 'town' in '/address' (it declares city, zip)", line: 18, column: 60)
    try expectLocatedDiagnostic(head + """
          - toolCalls: { disallowed: [ { name: ship, arguments: { /express/x: true } } ] }

    """, "has a boolean at '/express', which has no member 'x'", line: 18, column: 63)
    try expectLocatedDiagnostic(head + """
          - toolCalls: { ordered: [ { name: ship, arguments: { /stops/first: a } } ] }

    """, "has an array at '/stops', which 'first' cannot index", line: 18, column: 60)
}

@Test func declaredPathsAndElementsAreAccepted() throws {
    _ = try trajectory(head + """
          - toolCalls: { ordered: [ { name: ship, arguments: { /stops/0: a, /address/zip: { keyOnly: true }, /notes/count: 1 } } ] }

    """)
}

@Test func modifiersAloneAndMisspelledModifiersAreReported() throws {
    try expectLocatedDiagnostic(head + """
          - toolCalls: { ordered: [ { name: ship, arguments: { express: { optional: true } } } ] }

    """, "argument 'express': optional needs a matcher beside it", line: 18, column: 69)
    try expectLocatedDiagnostic(head + """
          - toolCalls: { ordered: [ { name: ship, arguments: { address: { city: Vienna, optional: true } } } ] }

    """, "argument 'address': optional needs a matcher beside it (exact, keyOnly, oneOf, range, pattern, contains, hasPrefix, hasSuffix, naturalLanguage, length); to expect an object with this key, write it under exact:", line: 18, column: 69)
    try expectLocatedDiagnostic(head + """
          - toolCalls: { ordered: [ { name: ship, arguments: { express: { exact: true, optinal: true } } } ] }

    """, "unknown key 'optinal'; did you mean 'optional'?", line: 18, column: 84)
    try expectLocatedDiagnostic(head + """
          - toolCalls: { ordered: [ { name: ship, arguments: { stops: { length: 2, ignoreCase: true } } } ] }

    """, "ignoreCase and normalize apply to exact, oneOf, pattern, contains, hasPrefix and hasSuffix, not length", line: 18, column: 20)
    try expectLocatedDiagnostic(head + """
          - toolCalls: { ordered: [ ship ], maxViolationsPerKeyword: { enums: 0 } }

    """, "maxViolationsPerKeyword: unknown keyword 'enums'", line: 18, column: 20)
}
