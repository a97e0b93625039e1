import Foundation
import FMCore

/// The `replay` engine: answers each request from a cassette, keyed by the canonical request's hash.
/// A request that was never recorded fails closed with `ReplayMiss`, showing the closest recording and
/// how it differs. Identical requests recorded several times replay their responses in recorded order.
public final class ReplayEngine: LanguageModelEngine {
    /// `replay (<recorded engine>/<model>)`, with the recorded model hash.
    public let identity: EngineIdentity
    /// Whatever was recorded: every capability.
    public let capabilities = EngineCapabilities.all
    /// The cassette played.
    public let cassette: Cassette
    /// Where the cassette came from (for messages).
    public let path: String

    private let byKey: [String: [Int]]
    private let lock = NSLock()
    private var served: [String: Int] = [:]

    /// A replay engine over `cassette` read from `path`.
    public init(cassette: Cassette, path: String) {
        self.cassette = cassette
        self.path = path
        self.identity = EngineIdentity(name: "replay", model: "\(cassette.engine.name)/\(cassette.engine.model)",
                                       modelHash: cassette.engine.modelHash)
        var index: [String: [Int]] = [:]
        for (position, entry) in cassette.entries.enumerated() { index[entry.key, default: []].append(position) }
        self.byKey = index
    }

    /// The registry entry: option `cassette` (required); one shared replay engine.
    static let descriptor = EngineDescriptor(
        name: "replay", summary: "answers from a cassette recorded with --record (fast, deterministic CI)",
        options: [EngineOptionSpec("cassette", .string, "the cassette to play (--cassette FILE; record one with --record FILE)", required: true)],
        build: { try provider($0) })

    /// The provider for `--engine replay --cassette FILE`: one shared replay engine.
    static func provider(_ configuration: EngineConfiguration) throws -> EngineProvider {
        guard let path = configuration.cassette else {
            throw Fault.invalidInput("the replay engine needs --cassette FILE (record one with --record FILE)")
        }
        return SharedEngineProvider(engine: ReplayEngine(cassette: try Cassette.load(path: path), path: path))
    }

    /// Replays the recording of `request` (events, then the response or the recorded error).
    public func respond(to request: EngineRequest, onEvent: (EngineEvent) -> Void) throws -> EngineResponse {
        let key = Cassette.key(of: request, engine: cassette.engine)
        guard let positions = byKey[key] else { throw miss(request, key: key) }
        lock.lock()
        let turn = served[key, default: 0]
        served[key] = turn + 1
        lock.unlock()
        let entry = cassette.entries[positions[turn % positions.count]]
        entry.events.forEach(onEvent)
        if let error = entry.error { throw error }
        guard let response = entry.response else {
            throw ReplayMiss(message: "cassette \(path) entry \(key.prefix(12)) has neither a response nor an error; re-record it")
        }
        return response
    }

    private func miss(_ request: EngineRequest, key: String) -> ReplayMiss {
        let wanted = Cassette.canonicalContent(of: request, engine: cassette.engine)
        var message = "no recording in cassette \(path) for this request (key \(key.prefix(12)))"
        let wantedLeaves = JSONLeaves(wanted)
        let scored = cassette.entries.enumerated().map { ($0.offset, $0.element, wantedLeaves.differences(from: JSONLeaves($0.element.request))) }
        guard let (position, closest, differences) = scored.min(by: { $0.2.count < $1.2.count }) else {
            return ReplayMiss(message: message + "; the cassette is empty. Record one with --record \(path)")
        }
        message += ". Closest recording: entry \(position) (key \(closest.key.prefix(12))), differing at \(differences.count) place(s):"
        for difference in differences.prefix(6) { message += "\n  " + difference }
        if differences.count > 6 { message += "\n  … and \(differences.count - 6) more" }
        return ReplayMiss(message: message + "\nRe-record with --record \(path) if the change is intended.")
    }
}

/// A request the cassette has no recording for: the attempt errors (fail closed).
public struct ReplayMiss: Error, CustomStringConvertible, Sendable {
    /// The miss, the closest recording and the differences.
    public var message: String

    /// The message.
    public var description: String { message }
}

extension ReplayMiss: ClassifiedError {
    /// A missing recording is infrastructure: the cassette, not the model, is out of date.
    public var failureClass: FailureClass { .infrastructure }

    /// `ReplayMiss`.
    public var domain: String { "ReplayMiss" }

    /// `cassetteMiss`.
    public var caseName: String { "cassetteMiss" }

    /// The message.
    public var failureMessage: String { message }
}

/// One engine instance shared by every attempt.
// @unchecked Sendable: both stored properties are immutable; the shared engine (embedded, openai, replay,
// system) makes its own calls thread-safe: the embedded engine decodes concurrent requests together under its
// scheduler, openai guards its state with a lock, replay moves its cursor under a lock, and the system engine
// answers each call with a fresh LanguageModelSession, keeping no state between calls.
final class SharedEngineProvider: EngineProvider, @unchecked Sendable {
    let shared: LanguageModelEngine
    /// Whether the engine answers identical greedy requests identically (the embedded engine).
    let deterministic: Bool

    init(engine: LanguageModelEngine, deterministic: Bool = false) {
        self.shared = engine
        self.deterministic = deterministic
    }

    var identity: EngineIdentity { shared.identity }

    var details: [String: String] { shared.runDetails }

    func engine(for attempt: AttemptContext) throws -> LanguageModelEngine { shared }

    func reuseKey(for attempt: AttemptContext) -> String? { deterministic ? "" : nil }
}

/// A JSON value flattened to JSON-pointer paths and leaf texts, for diffing requests.
struct JSONLeaves {
    let leaves: [String: String]

    init(_ content: GeneratedContent) {
        var found: [String: String] = [:]
        JSONLeaves.walk(content, path: "", into: &found)
        leaves = found
    }

    private static func walk(_ content: GeneratedContent, path: String, into found: inout [String: String]) {
        switch content.kind {
        case .array(let elements):
            if elements.isEmpty { found[path] = "[]" }
            for (index, element) in elements.enumerated() { walk(element, path: "\(path)/\(index)", into: &found) }
        case .structure:
            let members = content.orderedProperties ?? []
            if members.isEmpty { found[path] = "{}" }
            for (key, value) in members { walk(value, path: "\(path)/\(key)", into: &found) }
        default:
            found[path] = content.jsonString
        }
    }

    /// One line per path whose value differs, sorted: `path: recorded X, requested Y`.
    func differences(from recorded: JSONLeaves) -> [String] {
        let paths = Set(leaves.keys).union(recorded.leaves.keys).sorted()
        return paths.compactMap { path in
            let mine = leaves[path], theirs = recorded.leaves[path]
            guard mine != theirs else { return nil }
            return "\(path.isEmpty ? "/" : path): recorded \(clip(theirs ?? "(absent)")), requested \(clip(mine ?? "(absent)"))"
        }
    }

    private func clip(_ text: String) -> String {
        text.count <= 120 ? text : String(text.prefix(117)) + "…"
    }
}
