import FMCore

/// What an engine is built from: its name and the run's engine flags.
public struct EngineConfiguration: Sendable, Hashable {
    /// The engine name (`--engine` or a suite's `engine:`).
    public var name: String
    /// `--model FILE` or a suite's `model:`; nil for the engine's default.
    public var model: String?
    /// `--cassette FILE`: the recordings the `replay` engine plays.
    public var cassette: String?

    /// Creates a configuration.
    public init(name: String, model: String? = nil, cassette: String? = nil) {
        self.name = name
        self.model = model
        self.cassette = cassette
    }
}

/// Which attempt an engine is wanted for: the scripted engine plays that case's script for that attempt.
public struct AttemptContext: Sendable {
    /// The case's stable id.
    public var caseID: String
    /// The case's script (scripted engine only).
    public var script: EngineScript?
    /// The 0-based attempt number (determinism reruns continue the count).
    public var attempt: Int

    /// Creates an attempt context.
    public init(caseID: String, script: EngineScript?, attempt: Int) {
        self.caseID = caseID
        self.script = script
        self.attempt = attempt
    }
}

/// Hands out engines for attempts: a fresh one per attempt (scripted) or one shared instance (embedded, replay).
public protocol EngineProvider: AnyObject, Sendable {
    /// The engine's identity, for the run fingerprint.
    var identity: EngineIdentity { get }
    /// An engine for one attempt.
    func engine(for attempt: AttemptContext) throws -> LanguageModelEngine
}

/// An engine could not be set up (unknown name, missing model or cassette): exit 2 or 3.
public struct EngineSetupError: Error, CustomStringConvertible, Sendable {
    /// True when the input was wrong (unknown engine name, unreadable cassette): exit 2; else exit 3.
    public var isInvalidInput: Bool
    /// What went wrong and what to do.
    public var message: String

    /// Creates a setup error.
    public init(isInvalidInput: Bool, message: String) {
        self.isInvalidInput = isInvalidInput
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

/// Engine names → factories. Adding an engine is one line in `builders`.
public enum EngineRegistry {
    /// A factory: builds a provider from the configuration, or throws `EngineSetupError`.
    public typealias Builder = @Sendable (EngineConfiguration) throws -> EngineProvider

    /// The default engine name.
    public static let defaultEngine = "embedded"

    /// Every engine this build can create.
    public static let builders: [String: Builder] = [
        "scripted": { _ in ScriptedEngineProvider() },
        "replay": { try ReplayEngine.provider($0) },
        "embedded": { try EmbeddedEngine.provider($0) },
    ]

    /// The names of available engines, sorted.
    public static var names: [String] { builders.keys.sorted() }

    /// A provider for `configuration`, or an `EngineSetupError` naming the available engines.
    public static func provider(for configuration: EngineConfiguration) throws -> EngineProvider {
        guard let builder = builders[configuration.name] else {
            let known = ["embedded", "scripted", "replay", "openai", "apple"]
            let available = names.joined(separator: ", ")
            if known.contains(configuration.name) {
                throw EngineSetupError(isInvalidInput: false,
                    message: "engine '\(configuration.name)' is not available in this build (available: \(available)); choose one with --engine")
            }
            throw EngineSetupError(isInvalidInput: true,
                message: "unknown engine '\(configuration.name)'; available: \(available)")
        }
        return try builder(configuration)
    }
}

/// Scripted engines, one per attempt, each playing the case's script.
final class ScriptedEngineProvider: EngineProvider {
    let identity = EngineIdentity(name: "scripted", model: "script")

    func engine(for attempt: AttemptContext) throws -> LanguageModelEngine {
        guard let script = attempt.script else {
            throw ScriptError(message: "case \(attempt.caseID) has no 'script:' for the scripted engine; add one or choose another engine")
        }
        return ScriptedEngine(script: script, attempt: attempt.attempt)
    }
}
