import Foundation
import Testing
import FMCore
import FMEngines
import FMResults
@testable import FMRun
import FMSuite

/// A probeable engine in code: answers each case with `"red"` and the probe as told, counting probes.
private final class ProbedEngine: ConstraintProbing, EngineProvider, @unchecked Sendable {
    let identity = EngineIdentity(name: "probed", model: "m")
    let capabilities = EngineCapabilities.all
    let verdict: ConstraintProbe.Verdict
    private let lock = NSLock()
    private var probes = 0

    init(verdict: ConstraintProbe.Verdict) { self.verdict = verdict }

    var probeCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return probes
    }
    var probeTarget: String { "probed server (model m)" }

    func probeConstraints() throws -> ConstraintProbe.Verdict {
        lock.lock()
        probes += 1
        lock.unlock()
        return verdict
    }

    func respond(to request: EngineRequest, onEvent: (EngineEvent) -> Void) throws -> EngineResponse {
        request.schema == nil ? EngineResponse(text: "red") : EngineResponse(text: #""red""#, content: "red")
    }

    func engine(for attempt: AttemptContext) throws -> LanguageModelEngine { self }
}

private let probedSuite = """
suite: colours
generating: { enum: [red, blue] }
cases:
  - id: one
    prompt: A colour?
  - id: two
    prompt: Another colour?
  - id: prompted
    prompt: And one more?
    options: { constrained: false }
"""

private func run(_ engine: ProbedEngine, yaml: String = probedSuite, probe: Bool = true) throws -> RunResult {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-probe-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("colours.yaml").path
    try yaml.write(toFile: path, atomically: true, encoding: .utf8)
    var request = RunRequest(paths: [path], resultsPath: folder.appendingPathComponent("results.json").path)
    request.provider = engine
    request.probeConstraints = probe
    return try RunPipeline.execute(request, plan: try RunPipeline.plan(request))
}

@Test func anEngineOfGrammarCasesIsProbedOncePerRun() throws {
    let engine = ProbedEngine(verdict: .enforced)
    let result = try run(engine)
    #expect(engine.probeCount == 1)
    #expect(result.cases.count == 3)
}

@Test func anIgnoringServerStopsTheRunBeforeAnyCase() throws {
    let engine = ProbedEngine(verdict: .ignored(answer: "Red."))
    #expect(throws: Fault.infrastructure(ConstraintProbes.ignoredMessage(
        target: "probed server (model m)", answer: "Red.",
        cases: try cases(probedSuite).filter { $0.caseID != "prompted" }))) { try run(engine) }
    #expect(engine.probeCount == 1)
}

@Test func noProbeAndPromptOnlyRunsSendNoProbe() throws {
    let skipped = ProbedEngine(verdict: .ignored(answer: "Red."))
    #expect(try run(skipped, probe: false).cases.count == 3)
    #expect(skipped.probeCount == 0)
    let text = ProbedEngine(verdict: .ignored(answer: "Red."))
    #expect(try run(text, yaml: "suite: plain\ncases:\n  - id: one\n    prompt: Hi\n").cases.count == 1)
    #expect(text.probeCount == 0)
}
