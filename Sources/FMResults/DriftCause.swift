import FMCore

/// Why a case's verdict flipped between two runs (`fmeval history drift`, `--baseline`): the model it ran
/// on changed, the case's definition changed, both, or neither (the case is flaky or the engine is not
/// deterministic).
public enum DriftCause: String, Codable, CaseIterable, Sendable {
    /// The model changed (its file, the server's model or build, the OS's model version); the case did not.
    case model
    /// The case's definition changed (its definition hash); the model did not.
    case `case`
    /// Both changed.
    case both
    /// Neither changed: the same case on the same model gave another verdict.
    case neither

    /// The cause from each side's model identity and definition hash; nil when a side has no definition
    /// hash (results from before fmeval recorded them), so whether the case changed cannot be told.
    public static func of(modelBefore: String, modelAfter: String, definitionBefore: String?,
                          definitionAfter: String?) -> DriftCause? {
        guard let definitionBefore, let definitionAfter else { return nil }
        let modelChanged = modelBefore != modelAfter
        let caseChanged = definitionBefore != definitionAfter
        switch (modelChanged, caseChanged) {
        case (true, true): return .both
        case (true, false): return .model
        case (false, true): return .case
        case (false, false): return .neither
        }
    }

    /// What a reader sees: `the model changed`, `the case changed`, `both changed`, `neither changed`.
    public var phrase: String {
        switch self {
        case .model: return "the model changed"
        case .case: return "the case changed"
        case .both: return "the model and the case changed"
        case .neither: return "neither changed (flaky or nondeterministic)"
        }
    }
}

/// The model a case ran on, as precisely as its engine tells: the engine and model name, the model file's
/// SHA-256 (embedded), and the facts the engine reports about what served it: an `openai` server's model
/// and `system_fingerprint` (llama-server's build), the `system` engine's OS version (which ships the model).
public enum ModelIdentity {
    /// The engine details that identify the model (the others, such as the server's host, do not).
    public static let detailKeys = ["serverModel", "systemFingerprint", "os"]

    /// The identity of `result`'s model in `run`: its engine (the run's default engine when the case has
    /// none recorded) and, when that is the run's default engine, the run's engine details.
    public static func of(_ result: CaseResult, in run: RunResult) -> String {
        of(result.engine ?? run.run.fingerprint.engine, fingerprint: run.run.fingerprint)
    }

    /// The identity of the model `engine` names in a run with `fingerprint` (the run's default engine's
    /// details count only for that engine).
    public static func of(_ engine: EngineIdentity, fingerprint: Fingerprint) -> String {
        var parts = ["\(engine.name) \(engine.model)"]
        if let hash = engine.modelHash { parts.append("sha256 \(hash)") }
        if engine.name == fingerprint.engine.name, let details = fingerprint.engineDetails {
            parts += detailKeys.compactMap { key in details[key].map { "\(key) \($0)" } }
        }
        return parts.joined(separator: ", ")
    }
}
