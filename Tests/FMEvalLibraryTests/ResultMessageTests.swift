import FMEval
import Foundation
import Testing

/// `EvalResult`'s description is one short paragraph a failed `#expect` can carry; a baseline turns old
/// failures into context and names only what regressed; the async entry point runs the same pipeline.
@Test func aResultDescribesItselfInOneParagraph() throws {
    let folder = try scratchFolder()
    let file = folder.appendingPathComponent("triage.yaml")
    try triageYAML.write(to: file, atomically: true, encoding: .utf8)
    let result = try Evaluation.run(try EvalSuite.load(file.path),
                                    options: EvalOptions(resultsPath: folder.appendingPathComponent("r.json").path))
    let text = result.description
    #expect(text.hasPrefix("2 cases, 1 passed, 1 failed, 2 attempts, "), "\(text)")
    #expect(text.contains("; gates fail. Failing: triage/how (equals: "), "\(text)")
    #expect(!text.contains("\n") && text.count < 600, "\(text.count) characters: \(text)")
    #expect(text.hasSuffix("Results: \(result.resultsPath)"))
}

@Test func aBaselineNamesOnlyWhatRegressed() throws {
    let folder = try scratchFolder()
    let file = folder.appendingPathComponent("triage.yaml")
    try triageYAML.write(to: file, atomically: true, encoding: .utf8)
    let before = folder.appendingPathComponent("before.json").path
    _ = try Evaluation.run(try EvalSuite.load(file.path), options: EvalOptions(resultsPath: before))
    let broken = triageYAML.replacingOccurrences(of: "script: [ { structure: bug } ]",
                                                 with: "script: [ { structure: question } ]")
    try broken.write(to: file, atomically: true, encoding: .utf8)
    let options = EvalOptions(resultsPath: folder.appendingPathComponent("after.json").path, baselinePath: before)
    let after = try Evaluation.run(try EvalSuite.load(file.path), options: options)
    #expect(after.regressions == ["triage/crash"])
    #expect(!after.holdsAgainstBaseline)
    #expect(after.description.contains("1 regressions against the baseline. Regressed: triage/crash ("), "\(after)")
    let same = try Evaluation.run(try EvalSuite.load(file.path),
                                  options: EvalOptions(resultsPath: folder.appendingPathComponent("again.json").path,
                                                       baselinePath: options.resultsPath))
    #expect(same.regressions.isEmpty && same.holdsAgainstBaseline && !same.allGatesHold, "old failures do not count")
    #expect(throws: EvalError.self) {
        try Evaluation.run(try EvalSuite.load(file.path), options: EvalOptions(baselinePath: "/nonexistent/base.json"))
    }
}

@Test func theAsyncEntryPointRunsTheSamePipeline() async throws {
    let folder = try scratchFolder()
    let file = folder.appendingPathComponent("triage.yaml")
    try triageYAML.write(to: file, atomically: true, encoding: .utf8)
    let options = EvalOptions(resultsPath: folder.appendingPathComponent("r.json").path)
    let result = try await Evaluation.run(try EvalSuite.load(file.path), options: options)
    #expect(result.status(of: "crash") == .passed && result.status(of: "how") == .failed)
}
