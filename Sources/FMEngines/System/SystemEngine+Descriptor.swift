import FMCore

/// The `system` engine's registry entry, on every platform: Apple's on-device model through Foundation
/// Models (SystemEngine.swift, compiled where `FoundationModels` can be imported). Elsewhere it validates
/// like any engine, and building it is an infrastructure error (exit 3) pointing to record-then-replay.
enum SystemEngineEntry {
    /// `system (SystemLanguageModel.default)`: cassettes recorded on a Mac replay under this identity.
    static let identity = EngineIdentity(name: "system", model: "SystemLanguageModel.default")

    /// The registry entry: no options (the model is the device's; sampling comes from each case).
    static let descriptor = EngineDescriptor(
        name: "system",
        summary: "Apple's on-device model through Foundation Models (macOS 26 or later with Apple Intelligence)",
        options: []) { _ in try provider() }

    /// What a run naming `system` is told when Apple's model cannot serve it here, `why` saying why.
    static func unavailable(_ why: String) -> Fault {
        Fault.infrastructure("engine 'system' runs Apple's on-device model and needs "
            + "macOS 26 or later with Apple Intelligence; \(why). Record on a Mac with "
            + "'fmeval run SUITES --engine system --record device.cassette.json', then replay anywhere with "
            + "'fmeval run SUITES --cassette device.cassette.json' (docs/engines.md, \"system\")")
    }

    #if !canImport(FoundationModels)
    /// No Foundation Models in this build: exit 3 with the record-then-replay workflow.
    static func provider() throws -> EngineProvider {
        throw unavailable("this build has no FoundationModels framework")
    }
    #endif
}
