import FMCore
import FMSession

/// Which attempt an engine is wanted for, with the case's engine data: the scripted engine plays that
/// case's script for that attempt.
public struct AttemptContext: Sendable {
    /// The case's stable id.
    public var caseID: String
    /// The data the case carries for engines that declare it (`EngineDescriptor.caseData`), by key.
    public var caseData: EngineCaseData
    /// The 0-based attempt number (determinism reruns continue the count).
    public var attempt: Int

    /// Creates an attempt context.
    public init(caseID: String, caseData: EngineCaseData = EngineCaseData(), attempt: Int) {
        self.caseID = caseID
        self.caseData = caseData
        self.attempt = attempt
    }
}

/// Hands out engines for attempts: a fresh one per attempt (scripted) or one shared instance (embedded, replay).
public protocol EngineProvider: AnyObject, Sendable {
    /// The engine's identity, for the run fingerprint.
    var identity: EngineIdentity { get }
    /// An engine for one attempt.
    func engine(for attempt: AttemptContext) throws -> LanguageModelEngine
    /// The session driver for one attempt (default: `engine(for:)` under `EngineSessionDriver`).
    func sessionDriver(for attempt: AttemptContext) throws -> SessionDriver
    /// The engine's `runDetails` so far, for the results fingerprint (default: none).
    var details: [String: String] { get }
    /// For an engine that declares itself deterministic under greedy sampling: what besides the request
    /// decides its answer for `attempt` ("" when nothing does); nil (the default) when identical requests
    /// may be answered differently, so the runner never answers an attempt from an earlier one.
    func reuseKey(for attempt: AttemptContext) -> String?
}

extension EngineProvider {
    /// No details.
    public var details: [String: String] { [:] }

    /// Not declared deterministic: every attempt goes to the engine.
    public func reuseKey(for attempt: AttemptContext) -> String? { nil }
}

/// The one list of engines: every engine this build can create (its descriptor), and the names reserved
/// for engines it cannot. Suite validation, help, the suite JSON Schema and the docs read it from here.
/// Adding an engine is one file (its descriptor and provider) and one line in `descriptors`.
public enum EngineRegistry {
    /// The default engine name.
    public static let defaultEngine = EmbeddedEngine.descriptor.name
    /// The engine `--cassette FILE` implies: the one that plays cassettes.
    public static let cassetteEngine = ReplayEngine.descriptor.name
    /// The engine that talks to an OpenAI-compatible server (`--base-url`).
    public static let serverEngine = OpenAIEngine.descriptor.name
    /// The engine that plays each case's `script:` (and so plays Apple's model in `reproducedWith: scripted`).
    public static let scriptEngine = ScriptedEngine.descriptor.name

    /// Every engine this build can create, in help order.
    public static let descriptors: [EngineDescriptor] = [
        EmbeddedEngine.descriptor,
        ScriptedEngine.descriptor,
        ReplayEngine.descriptor,
        OpenAIEngine.descriptor,
        SystemEngineEntry.descriptor,
    ]

    /// Names reserved for engines this build does not include, with one line on each.
    public static let reserved: [(name: String, summary: String)] = [
        ("apple", "Apple's on-device Foundation Models"),
    ]

    /// The per-case data the engines read (`EngineDescriptor.caseData`), in help order: the keys a suite's
    /// cases and judges may carry for them.
    public static var caseDataKinds: [EngineCaseDataKind] { descriptors.compactMap(\.caseData) }

    /// The engine that reads the case data under `key`, if any.
    public static func caseDataEngine(forKey key: String) -> EngineDescriptor? {
        descriptors.first { $0.caseData?.key == key }
    }

    /// The names of available engines, in help order.
    public static var names: [String] { descriptors.map(\.name) }

    /// Every name a suite may write: the available engines, then the reserved ones.
    public static var knownNames: [String] { names + reserved.map(\.name) }

    /// The descriptor of engine `name`, if this build has it.
    public static func descriptor(named name: String) -> EngineDescriptor? { descriptors.first { $0.name == name } }

    /// Every problem of `configuration`: an unknown name (with a did-you-mean), or its options' problems.
    /// A reserved name has none here; building it fails with "not available in this build".
    public static func problems(_ configuration: EngineConfiguration) -> [EngineOptionProblem] {
        if let descriptor = descriptor(named: configuration.name) { return descriptor.problems(configuration.options) }
        if reserved.contains(where: { $0.name == configuration.name }) { return [] }
        let hint = Suggestion.closest(to: configuration.name, in: knownNames).map { "did you mean '\($0)'? " } ?? ""
        return [EngineOptionProblem(option: nil, message: "unknown engine '\(configuration.name)'; \(hint)use one of \(knownNames.joined(separator: ", "))")]
    }

    /// A provider for `configuration`, or an `Fault`: invalid input for an unknown name or bad
    /// options (exit 2), an infrastructure error for a reserved name (exit 3).
    public static func provider(for configuration: EngineConfiguration) throws -> EngineProvider {
        guard let descriptor = descriptor(named: configuration.name) else {
            if reserved.contains(where: { $0.name == configuration.name }) {
                throw Fault.infrastructure("engine '\(configuration.name)' is not available in this build (available: \(names.joined(separator: ", "))); choose one with --engine")
            }
            throw Fault.invalidInput(problems(configuration).map(\.message).joined(separator: "; "))
        }
        let found = descriptor.problems(configuration.options)
        guard found.isEmpty else { throw Fault.invalidInput(found.map(\.message).joined(separator: "; ")) }
        return try descriptor.build(descriptor.withDefaults(configuration))
    }
}
