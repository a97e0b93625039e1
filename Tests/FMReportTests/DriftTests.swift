import FMCore
import FMEvaluate
import Testing
@testable import FMReport
@testable import FMResults

/// A case `id` with `outcome`, defined by `definition`, run on `engine`.
private func drifted(_ id: String, _ outcome: AttemptOutcome, definition: String,
                     engine: EngineIdentity) -> CaseResult {
    var result = sampleCase("s", id, [outcome])
    result.definition = definition
    result.engine = engine
    return result
}

private let oldModel = EngineIdentity(name: "embedded", model: "SmolLM2", modelHash: "aaaa")
private let newModel = EngineIdentity(name: "embedded", model: "SmolLM2", modelHash: "bbbb")

/// Four regressions, one per cause, plus a fix the model caused and a new failing case.
private func driftPair() -> (baseline: RunResult, current: RunResult) {
    let baseline = RunResult(run: sampleInfo(), cases: [
        drifted("by-model", .passed, definition: "v2:m", engine: oldModel),
        drifted("by-case", .passed, definition: "v2:c", engine: newModel),
        drifted("by-both", .passed, definition: "v2:b", engine: oldModel),
        drifted("flaky", .passed, definition: "v2:f", engine: newModel),
        drifted("fixed", .failed, definition: "v2:x", engine: oldModel),
    ])
    let current = RunResult(run: sampleInfo(), cases: [
        drifted("by-model", .failed, definition: "v2:m", engine: newModel),
        drifted("by-case", .failed, definition: "v2:c2", engine: newModel),
        drifted("by-both", .failed, definition: "v2:b2", engine: newModel),
        drifted("flaky", .failed, definition: "v2:f", engine: newModel),
        drifted("fixed", .passed, definition: "v2:x", engine: newModel),
        drifted("new-bad", .failed, definition: "v2:n", engine: newModel),
    ])
    return (baseline, current)
}

@Test func causesFollowTheModelIdentityAndTheDefinitionHash() {
    #expect(DriftCause.of(modelBefore: "a", modelAfter: "b", definitionBefore: "d", definitionAfter: "d") == .model)
    #expect(DriftCause.of(modelBefore: "a", modelAfter: "a", definitionBefore: "d", definitionAfter: "e") == .case)
    #expect(DriftCause.of(modelBefore: "a", modelAfter: "b", definitionBefore: "d", definitionAfter: "e") == .both)
    #expect(DriftCause.of(modelBefore: "a", modelAfter: "a", definitionBefore: "d", definitionAfter: "d") == .neither)
    #expect(DriftCause.of(modelBefore: "a", modelAfter: "b", definitionBefore: nil, definitionAfter: "d") == nil,
            "a result from before definition hashes cannot tell whether its case changed")
}

@Test func theModelIdentityHasTheFileHashAndTheServersIdentityButNotItsHost() {
    var info = sampleInfo()
    info.fingerprint.engine = EngineIdentity(name: "openai", model: "smollm2")
    info.fingerprint.engineDetails = ["baseURLHost": "127.0.0.1:8080", "serverModel": "SmolLM2-135M",
                                      "systemFingerprint": "b6043-abc"]
    let served = ModelIdentity.of(info.fingerprint.engine, fingerprint: info.fingerprint)
    #expect(served == "openai smollm2, serverModel SmolLM2-135M, systemFingerprint b6043-abc")
    #expect(ModelIdentity.of(oldModel, fingerprint: info.fingerprint) == "embedded SmolLM2, sha256 aaaa",
            "the default engine's server details do not describe another engine")
}

@Test func everyFlipIsAttributedAndTheRegressionsFromGateCountsOnlyItsCause() {
    let (baseline, current) = driftPair()
    let comparison = BaselineComparison(baseline: baseline, current: current)
    let causes = Dictionary(uniqueKeysWithValues: comparison.entries.map { ($0.id, $0.cause) })
    #expect(causes["s/by-model"] == .model && causes["s/by-case"] == .case && causes["s/by-both"] == .both)
    #expect(causes["s/flaky"] == .neither && causes["s/fixed"] == .model && causes["s/new-bad"] == .some(nil))
    func failing(_ source: RegressionSource) -> [String] {
        GateVerdict(results: current, baseline: comparison, failOnRegression: true, regressionsFrom: source)
            .failing.map(\.caseID)
    }
    #expect(failing(.any) == ["by-model", "by-case", "by-both", "flaky", "new-bad"])
    #expect(failing(.model) == ["by-model", "by-both"])
    #expect(failing(.case) == ["by-case", "by-both", "new-bad"])
    let model = GateVerdict(results: current, baseline: comparison, failOnRegression: true, regressionsFrom: .model)
    let byCase = try! #require(current.cases.first { $0.caseID == "by-case" })
    #expect(model.isOldFailure(byCase))
    #expect(model.notGatingReason(byCase)
        == "regressed because the case changed; --regressions-from model does not gate it")
    let xml = JUnitReport.render(model)
    #expect(xml.contains("old failure (regressed because the case changed; --regressions-from model does not gate it)"))
    #expect(TerminalText.baselineTable(comparison).contains("s/by-model  (passed → failed; the model changed)"))
    // 4 regressions and 1 fix over 5 paired cases: McNemar's p = 0.375, and a drop that size needs more pairs.
    let tally = TerminalText.baselineTally(comparison)
    #expect(tally.hasSuffix("; a difference this size needs about 20 paired cases; you have 5"), "\(tally)")
}

@Test func theDriftReportGroupsTheFlipsByCause() {
    let (baseline, current) = driftPair()
    let report = DriftReport(from: baseline, label: "#1", to: current, label: "#2")
    #expect(report.flips.map(\.id) == ["s/by-model", "s/by-case", "s/by-both", "s/flaky", "s/fixed"])
    #expect(report.count(.model) == 2 && report.count(.neither) == 1)
    let lines = report.text.split(separator: "\n").map(String.init)
    #expect(lines[0] == "Drift from run #1 to run #2:")
    #expect(lines[2] == "  5 cases flipped: 2 model, 1 case, 1 both, 1 neither")
    #expect(lines.contains("the model changed (2):") && lines.contains("  regression  s/by-model  (passed → failed)"))
    #expect(lines.contains("  fixed       s/fixed  (failed → passed)"))
}
