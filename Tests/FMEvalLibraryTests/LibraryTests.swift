import FMEval
import Foundation
import Testing

/// A new empty folder under the temporary directory.
func scratchFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-library-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// The package root (this file is Tests/FMEvalLibraryTests/LibraryTests.swift).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A suite file with one passing case and one whose scripted answer breaks the enum (a violation).
let triageYAML = """
suite: triage
engine: scripted
generating: { enum: [bug, question] }
cases:
  - id: crash
    prompt: The app crashes on launch.
    expect: [ { equals: bug }, { constraints: { maxViolations: 0 } } ]
    script: [ { structure: bug } ]
  - id: how
    prompt: How do I export my data?
    expect: [ { equals: question }, { constraints: { maxViolations: 0 } } ]
    script: [ { structure: feature } ]
"""

@Test func aSuiteFileRunsAndItsAggregatesCountWhatHappened() throws {
    let folder = try scratchFolder()
    let file = folder.appendingPathComponent("triage.yaml")
    try triageYAML.write(to: file, atomically: true, encoding: .utf8)
    let suite = try EvalSuite.load(file.path)
    #expect(suite.names == ["triage"])
    #expect(suite.caseCount == 2)
    let resultsPath = folder.appendingPathComponent("out.json").path
    let result = try Evaluation.run(suite, options: EvalOptions(resultsPath: resultsPath))
    #expect(result.passRate == 0.5)
    #expect(result.attemptPassRate == 0.5)
    #expect(result.status(of: "crash") == .passed)
    #expect(result.status(of: "triage/how") == .failed)
    #expect(result.status(of: "nope") == nil)
    #expect(result.violations(keyword: "enum") == 1)
    #expect(result.violationsByKeyword == ["enum": 1])
    #expect(!result.allGatesHold)
    #expect(result.abComparisons.isEmpty)
    let written = try ResultsFile.load(resultsPath)
    #expect(written.cases.map(\.id).sorted() == ["triage/crash", "triage/how"])
    #expect(result.junitXML.contains("<testcase name=\"how\""))
    #expect(result.junitXML.contains("<failure"))
    #expect(result.html.contains("triage/how"))
}

@Test func filtersVariantsAndRepeatsApplyAsOnTheCommandLine() throws {
    let folder = try scratchFolder()
    let file = folder.appendingPathComponent("triage.yaml")
    try triageYAML.write(to: file, atomically: true, encoding: .utf8)
    let result = try Evaluation.run(try EvalSuite.load(paths: [folder.path]),
                                    options: EvalOptions(repeatCount: 3, filter: "id:*crash*", resultsPath: folder.appendingPathComponent("r.json").path))
    #expect(result.cases.map(\.id) == ["triage/crash"])
    #expect(result.cases[0].attempts.count == 3)
    #expect(result.results.skipped.map(\.id) == ["triage/how"])
    #expect(result.passRate == 1)
}

@Test func problemsInABuiltSuiteNameTheirJSONPointer() throws {
    var builder = SuiteBuilder("broken", ["engine": "scripted"])
    builder.addCase("no-prompt", ["expect": ["equals": "x"]])
    builder.addCase("bad-expectation", ["prompt": "Hi", "expect": ["equalz": "x"], "script": [["text": "x"]]])
    let error = try #require(throws: EvalError.self) { try EvalSuite(builder) }
    #expect(error.kind == .invalidInput)
    #expect(error.message.contains("suite broken (built in code) at /cases/0"), "\(error.message)")
    #expect(error.message.contains("/cases/1/expect"), "\(error.message)")
    #expect(error.message.contains("equals"), "the did-you-mean: \(error.message)")
}

@Test func aMissingFileAndAnUnknownEngineAreInvalidInput() throws {
    let missing = try #require(throws: EvalError.self) { try EvalSuite.load("/nonexistent/suite.yaml") }
    #expect(missing.kind == .invalidInput)
    #expect(missing.message.contains("/nonexistent/suite.yaml:1:1"))
    let unknown = try #require(throws: EvalError.self) {
        try Evaluation.run(try sentimentSuite(), on: .registered("embeded"))
    }
    #expect(unknown.kind == .invalidInput)
    #expect(unknown.message.contains("did you mean 'embedded'"), "\(unknown.message)")
    let badJobs = try #require(throws: EvalError.self) { try Evaluation.run(try sentimentSuite(), options: EvalOptions(jobs: 0)) }
    #expect(badJobs.message.contains("jobs"))
}

/// An engine that cannot serve any request (infrastructure) or always refuses (the model's outcome), to
/// show where each lands in the results.
final class FailingEngine: LanguageModelEngine {
    let identity = EngineIdentity(name: "failing", model: "none")
    let capabilities = EngineCapabilities.all
    let error: LanguageModelError

    init(_ error: LanguageModelError) { self.error = error }

    func respond(to request: EngineRequest, onEvent: (EngineEvent) -> Void) throws -> EngineResponse {
        throw error
    }
}

@Test func anEngineErrorIsACaseInErrorNotAThrownRun() throws {
    let unsupported = LanguageModelError.unsupportedLanguageOrLocale(.init(debugDescription: "no locale for the test"))
    let result = try Evaluation.run(try sentimentSuite(), on: .custom(EngineIdentity(name: "failing", model: "none")) { FailingEngine(unsupported) })
    #expect(result.cases.count == 4)
    #expect(result.cases.allSatisfy { $0.status == .error })
    #expect(result.cases[0].attempts[0].error?.caseName == "unsupportedLanguageOrLocale")
    #expect(result.results.exitCode == 3)
}

@Test func anUnexpectedGuardrailViolationFailsTheCaseAsOnTheDevice() throws {
    let refusal = LanguageModelError.guardrailViolation(.init(debugDescription: "refused for the test"))
    let result = try Evaluation.run(try sentimentSuite(), on: .custom(EngineIdentity(name: "failing", model: "none")) { FailingEngine(refusal) })
    #expect(result.cases.allSatisfy { $0.status == .failed })
    #expect(result.cases[0].attempts[0].error?.caseName == "guardrailViolation")
    #expect(result.results.exitCode == 1)
}

/// A session driver that answers every turn itself, as Apple's `LanguageModelSession` would on a Mac.
struct EchoDriver: SessionDriver {
    func run(_ plan: SessionPlan) throws -> SessionRecord {
        var entries: [Transcript.Entry] = []
        for (index, turn) in plan.turns.enumerated() {
            entries.append(.prompt(.init(id: "p\(index)", segments: [.text(.init(id: "p\(index)s", content: turn))])))
            entries.append(.response(.init(id: "r\(index)", segments: [.text(.init(id: "r\(index)s", content: "echo: \(turn)"))])))
        }
        return SessionRecord(transcript: Transcript(entries: entries), text: "echo: \(plan.turns.last ?? "")",
                             turns: plan.turns.map { _ in TurnStats() }, turnOffsetsMs: plan.turns.map { _ in 0 })
    }
}

@Test func aSessionDriverOfYourOwnIsScoredOnItsTranscript() throws {
    var builder = SuiteBuilder("echo")
    builder.addCase("two-turns", ["turns": ["Hello", "Bye"], "expect": ["contains": "echo: Bye"]])
    builder.addCase("wrong", ["prompt": "Hi", "expect": ["contains": "nothing like it"]])
    let result = try Evaluation.run(try EvalSuite(builder), on: .custom(EngineIdentity(name: "echo", model: "driver")) { EchoDriver() })
    #expect(result.status(of: "echo/two-turns") == .passed)
    #expect(result.status(of: "echo/wrong") == .failed)
    #expect(result.passRate == 0.5)
}

/// The embedded SmolLM2-135M engine through the library, on the repository's sentiment suite file:
/// two clear reviews under the plain prompt, the enum enforced by the grammar (so no violations).
@Test func theEmbeddedModelClassifiesClearReviews() throws {
    let suite = try EvalSuite.load(packageRoot.appendingPathComponent("suites/sentiment.yaml").path)
    let result = try Evaluation.run(suite, on: .embedded(), options: EvalOptions(filter: "id:*love-it@plain,id:*broke@plain", variants: ["plain"]))
    #expect(result.cases.count == 2)
    #expect(result.passRate >= 0.8)
    #expect(result.violations.isEmpty)
    #expect(result.cases.allSatisfy { $0.engine?.name == "embedded" && $0.engine?.modelHash != nil })
}

@Test func theDocShowsThisFilesExample() throws {
    let source = try String(contentsOf: packageRoot.appendingPathComponent("Tests/FMEvalLibraryTests/SwiftAPIExampleTests.swift"), encoding: .utf8)
    let doc = try String(contentsOf: packageRoot.appendingPathComponent("docs/swift-api.md"), encoding: .utf8)
    let begin = try #require(source.range(of: "// BEGIN swift-api example\n"))
    let end = try #require(source.range(of: "// END swift-api example"))
    let example = String(source[begin.upperBound..<end.lowerBound])
    #expect(doc.contains("```swift\n" + example + "```\n"), "docs/swift-api.md must hold the example of SwiftAPIExampleTests.swift verbatim")
}

/// An engine that takes images and answers with what it was shown: the label, media type and size of
/// the first attachment (how an app-side adapter for an image-capable model receives them).
final class ImageEchoEngine: LanguageModelEngine {
    let identity = EngineIdentity(name: "image-echo", model: "none")
    let capabilities = EngineCapabilities.all

    func respond(to request: EngineRequest, onEvent: (EngineEvent) -> Void) throws -> EngineResponse {
        guard let segment = request.transcript.firstAttachment, let image = segment.content.image else {
            return EngineResponse(text: "no image")
        }
        return EngineResponse(text: "\(segment.label ?? "-") \(image.contentType ?? "-") \(image.byteCount ?? 0)")
    }
}

@Test func imagesOfABuiltSuiteReachYourEngineAndTheTextOnlyModelRefusesThem() throws {
    let folder = try scratchFolder()
    let png = try #require(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="))
    try png.write(to: folder.appendingPathComponent("dot.png"))
    var builder = SuiteBuilder("vision")
    builder.addCase("dot", ["prompt": "What is this?", "images": [["file": "dot.png", "label": "dot"]],
                            "expect": ["equals": GeneratedContent("dot image/png \(png.count)")]])
    let suite = try EvalSuite(builder, directory: folder.path)
    let shown = try Evaluation.run(suite, on: .custom(EngineIdentity(name: "image-echo", model: "none")) { ImageEchoEngine() })
    #expect(shown.status(of: "dot") == .passed, "\(shown.cases.first?.attempts.first?.text ?? "")")

    let refused = try Evaluation.run(suite, on: .embedded())
    #expect(refused.status(of: "dot") == .error)
    #expect(refused.cases.first?.attempts.first?.error?.caseName == "unsupportedCapability")

    var missing = SuiteBuilder("vision")
    missing.addCase("dot", ["prompt": "What is this?", "images": [["file": "nope.png"]]])
    let error = try #require(throws: EvalError.self) { try EvalSuite(missing, directory: folder.path) }
    #expect(error.message.contains("at /cases/0/images/0/file: image file 'nope.png' not found"), "\(error.message)")
}
