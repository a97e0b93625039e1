import Foundation
import Testing
import FMCore
import FMEngines
import FMEvaluate
import FMResults
import FMRun
import FMSuite

/// The expanded cases of a suite written inline (anchored in a temporary folder).
func cases(_ yaml: String) throws -> [ExpandedCase] {
    let (suite, diagnostics) = SuiteLoader.load(text: yaml, file: FileManager.default.temporaryDirectory.appendingPathComponent("inline.yaml").path)
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    return try #require(suite).expanded()
}

/// A runner on the scripted engine.
func scriptedRunner(_ options: RunnerOptions = RunnerOptions()) throws -> Runner {
    let provider = try EngineRegistry.provider(for: EngineConfiguration(name: "scripted"))
    return Runner(options: options, provider: { _ in provider })
}

/// A minimal run info for results built in tests.
func runInfo() -> RunInfo {
    RunInfo(id: "test", startedAt: "2026-01-01T00:00:00Z",
            fingerprint: Fingerprint.current(engine: EngineIdentity(name: "scripted", model: "script")))
}
