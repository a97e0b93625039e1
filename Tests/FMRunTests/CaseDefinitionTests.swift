import FMCore
import FMEvaluate
import Foundation
import Testing
import TestSupport
@testable import FMRun
import FMSuite

/// A 1×1 PNG.
private let png = onePixelPNG

/// A case using a tool whose output is a file beside the suite.
private let base = """
suite: a
engine: scripted
instructions: Be brief.
tools:
  - name: look
    description: Look something up.
    arguments: { title: LookArguments, type: object, properties: { q: { type: string } }, required: [q], x-order: [q] }
    output: { file: out.txt }
cases:
  - id: one
    prompt: Hello
    script: [ { text: hi } ]
    expect: { contains: hi }
"""

/// A case that differs from `base` in every property a suite can set.
private let donor = """
suite: b
engine: embedded
model: other-model
instructions: Be long.
options: { contextSize: 2048, sampling: { randomTopK: 3, seed: 1 }, temperature: 0.5 }
environment: { set: { REGION: eu } }
generating: { enum: [x, y] }
variants: [ { name: v } ]
tools:
  - name: look
    description: Look something up.
    arguments: { title: LookArguments, type: object, properties: { q: { type: string } }, required: [q], x-order: [q] }
    output: other text
knownIssue: { reason: "wrong label", matching: [equals] }
defaults: { gate: { minPasses: 1 }, tags: [donor] }
cases:
  - id: two
    turns: [ Hi, { prompt: Again, transcript: { keepLast: 0 } } ]
    reproduce: { seeds: 2 }
    script: [ { text: other } ]
    expect: { equals: x }
    images: [ { file: a.png } ]
"""

/// The one expanded case of the suite `text`, loaded from `folder` (with `out.txt` and `a.png` beside it).
private func load(_ text: String, in folder: URL, output: String = "the answer") throws -> ExpandedCase {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data(text.utf8).write(to: folder.appendingPathComponent("s.yaml"))
    try Data(output.utf8).write(to: folder.appendingPathComponent("out.txt"))
    try png.write(to: folder.appendingPathComponent("a.png"))
    let (suite, diagnostics) = SuiteLoader.load(file: folder.appendingPathComponent("s.yaml").path)
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    let loaded = try #require(suite)
    return try #require(loaded.expanded().first)
}

private func scratch() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-definition-\(UUID().uuidString)")
}

/// The stored properties of a case, by name, as text (to tell which ones a change touched).
private func properties(_ item: ExpandedCase) -> [String: String] {
    let children = Mirror(reflecting: item).children
    return Dictionary(uniqueKeysWithValues: children.map { ($0.label ?? "?", String(describing: $0.value)) })
}

@Test func everyStoredPropertyOfACaseIsHashedOrExcludedWithAReason() throws {
    let folder = scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let one = try load(base, in: folder.appendingPathComponent("a"))
    let other = try load(donor, in: folder.appendingPathComponent("b"))
    let recorded = RecordedTranscript(path: "t.json", sha256: String(repeating: "ab", count: 32), transcript: nil)
    // Each hashed property, and how to change only it (taking the donor's value).
    let changes: [String: (inout ExpandedCase) -> Void] = [
        "suite": { $0.suite = other.suite }, "variant": { $0.variant = other.variant },
        "caseID": { $0.caseID = other.caseID },
        "instructions": { $0.instructions = other.instructions }, "prompt": { $0.prompt = other.prompt },
        "turns": { $0.turns = other.turns }, "transcriptEdits": { $0.transcriptEdits = other.transcriptEdits },
        "generating": { $0.generating = other.generating }, "tools": { $0.tools = other.tools },
        "options": { $0.options = other.options }, "settings": { $0.settings = other.settings },
        "repeatCount": { $0.repeatCount = other.repeatCount }, "reproduce": { $0.reproduce = other.reproduce },
        "gate": { $0.gate = other.gate }, "expectations": { $0.expectations = other.expectations },
        "engineSpec": { $0.engineSpec = other.engineSpec }, "model": { $0.model = other.model },
        "engineData": { $0.engineData = other.engineData }, "knownIssue": { $0.knownIssue = other.knownIssue },
        "commands": { $0.commands = other.commands }, "recorded": { $0.recorded = recorded },
        "attachments": { $0.attachments = other.attachments },
        "priorPrompts": { $0.priorPrompts = [PriorPrompt(caseID: "s/earlier", prompt: "An earlier request.")] },
    ]
    let excluded: [String: (inout ExpandedCase) -> Void] = [
        "location": { $0.location = other.location }, "tags": { $0.tags = other.tags },
        "origin": { $0.origin = SuiteOrigin(summary: "a report") },
    ]
    let stored = Set(properties(one).keys)
    #expect(Set(CaseDefinition.excluded.keys) == Set(excluded.keys))
    let unaccounted = stored.subtracting(changes.keys).subtracting(excluded.keys).sorted()
    #expect(stored == Set(changes.keys).union(excluded.keys),
            "neither hashed nor excluded: \(unaccounted); hash it (with a change here) or exclude it with the reason")
    for (name, change) in changes {
        var changed = one
        change(&changed)
        let touched = properties(changed).filter { properties(one)[$0.key] != $0.value }.keys
        #expect(Array(touched) == [name], "the change for \(name) touches \(touched.sorted())")
        #expect(CaseDefinition.hash(of: changed) != CaseDefinition.hash(of: one), "\(name) does not reach the hash")
    }
    for (name, change) in excluded {
        var changed = one
        change(&changed)
        #expect(CaseDefinition.hash(of: changed) == CaseDefinition.hash(of: one),
                "\(name) is excluded but changes the hash")
        #expect(CaseDefinition.excluded[name]?.isEmpty == false, "\(name) is excluded without a reason")
    }
}

@Test func theHashIsTheSameFromAnotherFolderAndCarriesItsVersion() throws {
    let folder = scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let here = try load(base, in: folder.appendingPathComponent("here"))
    let moved = try load(base, in: folder.appendingPathComponent("elsewhere/deeper"))
    let edited = try load(base, in: folder.appendingPathComponent("edited"), output: "another answer")
    if case .file(let path, _) = here.tools[0].output, case .file(let movedPath, _) = moved.tools[0].output {
        #expect(path != movedPath, "the two suites read their files from different places")
    }
    #expect(CaseDefinition.hash(of: here) == CaseDefinition.hash(of: moved),
            "a file output counts by its text, not its path")
    #expect(CaseDefinition.hash(of: here) != CaseDefinition.hash(of: edited), "another text is another definition")
    #expect(CaseDefinition.hash(of: here).hasPrefix("v\(CaseDefinition.version):"))
}
