import Foundation
import Testing
import FMCore
@testable import FMSuite

/// `turns:` items that edit the transcript's history before their turn.

@Test func turnsMayEditTheHistoryBeforeThem() throws {
    let (suite, diagnostics) = loadSuite("""
    suite: edits
    cases:
      - id: compact
        turns:
          - Tell me a story.
          - prompt: Summarize it.
            transcript: { keepLast: 2 }
          - prompt: Again.
            transcript: { drop: [toolCalls, toolOutput] }
    """)
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    let item = try #require(suite?.expanded().first)
    #expect(item.turns == ["Tell me a story.", "Summarize it.", "Again."])
    #expect(item.transcriptEdits == [1: TranscriptEdit(keepLast: 2), 2: TranscriptEdit(drop: [.toolCalls, .toolOutput])])
    let json = String(data: try JSONEncoder().encode(item), encoding: .utf8) ?? ""
    #expect(json.contains(#""transcriptEdits":{"#), "validate --json shows the edits, keyed by 1-based turn")
    let plain = try #require(loadSuite("suite: x\ncases:\n  - id: a\n    turns: [one, two]\n").0?.expanded().first)
    #expect(!(String(data: try JSONEncoder().encode(plain), encoding: .utf8) ?? "").contains("transcriptEdits"),
            "cases without edits encode as before, so their definition hashes do not change")
}

@Test(arguments: [
    ("suite: x\ncases:\n  - id: a\n    turns:\n      - one\n      - prompt: two\n        transcript: { keepLast: -1 }\n", 7, 33, "keepLast must be at least 0"),
    ("suite: x\ncases:\n  - id: a\n    turns:\n      - one\n      - prompt: two\n        transcript: { drop: [toolCall] }\n", 7, 30, "did you mean 'toolCalls'?"),
    ("suite: x\ncases:\n  - id: a\n    turns:\n      - one\n      - prompt: two\n        transcript: { drop: toolCalls }\n", 7, 29, "must be a list of entry kinds"),
    ("suite: x\ncases:\n  - id: a\n    turns:\n      - one\n      - prompt: two\n        transcript: {}\n", 7, 21, "needs 'keepLast'"),
    ("suite: x\ncases:\n  - id: a\n    turns:\n      - one\n      - prompt: two\n        transcript: { keeplast: 1 }\n", 7, 23, "did you mean 'keepLast'?"),
    ("suite: x\ncases:\n  - id: a\n    turns:\n      - prompt: one\n        transcript: { keepLast: 0 }\n", 6, 21, "the first turn has no history"),
    ("suite: x\ncases:\n  - id: a\n    turns:\n      - one\n      - transcript: { keepLast: 0 }\n", 6, 9, "turn 2 needs a 'prompt'"),
    ("suite: x\ncases:\n  - id: a\n    turns:\n      - one\n      - promt: two\n", 6, 9, "did you mean 'prompt'?"),
] as [(String, Int, Int, String)])
func transcriptEditErrorsAreLocated(text: String, line: Int, column: Int, message: String) throws {
    _ = try expectLocatedDiagnostic(text, message, line: line, column: column)
}
