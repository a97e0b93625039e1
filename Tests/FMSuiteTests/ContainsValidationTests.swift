import Testing
@testable import FMSuite

/// `contains` with an empty substring can never pass; suite validation reports it where it is written.
@Test(arguments: [
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    expect: { contains: \"\" }\n", 5, 25, "substring 1 of 1 is empty"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    expect:\n      - contains: [ok, \"\"]\n", 6, 19, "substring 2 of 2 is empty"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    expect: { not: { contains: \"\" } }\n", 5, 20, "substring 1 of 1 is empty"),
] as [(String, Int, Int, String)])
func emptyContainsSubstringsAreLocatedErrors(text: String, line: Int, column: Int, message: String) throws {
    let match = try expectLocatedDiagnostic(text, message, line: line, column: column)
    #expect(match.description.hasPrefix("s.yaml:\(line):\(column): error: "))
}
