import Foundation
import FMCore
import FMEngines
import FMSession

/// The engine a run uses: one of fmeval's registered engines, or one you provide.
///
/// Your own engine conforms to `LanguageModelEngine` (one request in, one response out; fmeval's session
/// runs the tool loop) or, when its backend runs the whole session itself (Apple's `LanguageModelSession`
/// on a Mac), to `SessionDriver`. Either is created fresh for each attempt by the closure you give.
public struct EvalEngine: Sendable {
    enum Source: Sendable {
        case registered(name: String, options: [String: GeneratedContent])
        case provided(EngineProvider)
    }

    let source: Source

    /// The in-process SmolLM2-135M engine (fetched on first use); `model` is a GGUF file or nil for the default.
    public static func embedded(model: String? = nil) -> EvalEngine {
        .registered(EngineRegistry.defaultEngine,
                    options: model.map { [EngineConfiguration.modelOption: GeneratedContent($0)] } ?? [:])
    }

    /// Plays each case's `script:` back: fast, deterministic tests of the suite itself.
    public static let scripted = EvalEngine.registered(EngineRegistry.scriptEngine)

    /// Answers from a cassette recorded with `fmeval run --record FILE`.
    public static func replay(cassette: String) -> EvalEngine {
        .registered(EngineRegistry.cassetteEngine,
                    options: [EngineConfiguration.cassetteOption: GeneratedContent(cassette)])
    }

    /// An OpenAI-compatible chat-completions server (`baseURL` such as `http://127.0.0.1:8080/v1`).
    /// `options` adds the engine's other options (`timeoutSeconds`, `stream`, …; see docs/engines.md).
    public static func openAI(baseURL: String, model: String, options: [String: GeneratedContent] = [:]) -> EvalEngine {
        var all = options
        all[EngineConfiguration.baseURLOption] = GeneratedContent(baseURL)
        all[EngineConfiguration.modelOption] = GeneratedContent(model)
        return .registered(EngineRegistry.serverEngine, options: all)
    }

    /// A registered engine by name with its options, checked against the engine registry when the run starts.
    public static func registered(_ name: String, options: [String: GeneratedContent] = [:]) -> EvalEngine {
        EvalEngine(source: .registered(name: name, options: options))
    }

    /// Your own engine: `makeEngine` builds one for each attempt, and fmeval's session (tool loop,
    /// context accounting, structured output checks) drives it. `identity` is recorded in the results.
    public static func custom(_ identity: EngineIdentity,
                              makeEngine: @escaping @Sendable () throws -> any LanguageModelEngine) -> EvalEngine {
        EvalEngine(source: .provided(ClosureEngineProvider(identity: identity, makeEngine: makeEngine, makeDriver: nil)))
    }

    /// Your own session driver: `makeDriver` builds one for each attempt and runs the whole session
    /// (instructions, tools, prompts) itself; fmeval scores the transcript it returns.
    public static func custom(_ identity: EngineIdentity,
                              makeDriver: @escaping @Sendable () throws -> any SessionDriver) -> EvalEngine {
        EvalEngine(source: .provided(ClosureEngineProvider(identity: identity, makeEngine: nil, makeDriver: makeDriver)))
    }
}

/// The engine provider behind `EvalEngine.custom`: a fresh engine or driver per attempt.
final class ClosureEngineProvider: EngineProvider {
    let identity: EngineIdentity
    private let makeEngine: (@Sendable () throws -> any LanguageModelEngine)?
    private let makeDriver: (@Sendable () throws -> any SessionDriver)?

    init(identity: EngineIdentity, makeEngine: (@Sendable () throws -> any LanguageModelEngine)?,
         makeDriver: (@Sendable () throws -> any SessionDriver)?) {
        self.identity = identity
        self.makeEngine = makeEngine
        self.makeDriver = makeDriver
    }

    func engine(for attempt: AttemptContext) throws -> LanguageModelEngine {
        guard let makeEngine else {
            throw LanguageModelError.unsupportedCapability(.init(debugDescription:
                "engine '\(identity.name)' is a session driver; it runs whole sessions and cannot answer single requests (such as an LLM judge's)"))
        }
        return try makeEngine()
    }

    func sessionDriver(for attempt: AttemptContext) throws -> SessionDriver {
        if let makeDriver { return try makeDriver() }
        return EngineSessionDriver(engine: try engine(for: attempt))
    }
}
