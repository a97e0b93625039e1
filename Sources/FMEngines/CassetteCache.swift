import Foundation
import FMCore

/// `--cache FILE`: a record-through cache over any engine. A request recorded in FILE is answered from it
/// (its events, then its response); a miss goes to the engine and is added to FILE, written atomically
/// before the answer is returned, so an interrupted run keeps every answer it paid for. Errors are not
/// cached: the next run asks the engine again. The file is a cassette (`Cassette`, the same key and format
/// as `--record`), so `--cassette FILE` replays it fail-closed.
///
/// A recorded error (in a cassette written by `--record`) is a miss.
/// Identical requests are answered in order: the n-th identical request gets the n-th recorded answer and
/// a miss once the recordings run out, so repeats of a sampled case stay distinct and replay the same.
// @unchecked Sendable: `cassette`, `byKey`, `served` and the counts are read and changed only under `lock`.
public final class CassetteCache: EngineProvider, @unchecked Sendable {
    /// The wrapped engine's identity: the cache answers as that engine.
    public var identity: EngineIdentity { inner.identity }
    /// The wrapped provider's details.
    public var details: [String: String] { inner.details }
    /// The cache file.
    public let path: String

    private let inner: EngineProvider
    private let lock = NSLock()
    private var cassette: Cassette
    private var byKey: [String: [Int]] = [:]
    private var served: [String: Int] = [:]
    private var hits = 0
    private var recorded = 0

    /// A cache over `inner` in the cassette at `path` (created on the first miss when absent); throws
    /// `Fault` (invalid input) when the file is not a cassette or holds another engine's answers.
    public init(caching inner: EngineProvider, at path: String) throws {
        self.inner = inner
        self.path = path
        guard FileManager.default.fileExists(atPath: path) else {
            cassette = Cassette(engine: inner.identity)
            return
        }
        cassette = try Cassette.load(path: path, flag: "--cache")
        guard cassette.engine == inner.identity else {
            throw Fault.invalidInput("--cache \(path): the file holds answers of engine \(cassette.engine), but this "
                + "run's engine is \(inner.identity); one cache file serves one engine: pass another --cache file, "
                + "or delete \(path) to start it over")
        }
        for (position, entry) in cassette.entries.enumerated() where entry.response != nil {
            byKey[entry.key, default: []].append(position)
        }
    }

    /// How the cache answered this run so far: calls from the file and calls recorded into it.
    public var usage: (fromCache: Int, recorded: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (hits, recorded)
    }

    /// The wrapped engine for `attempt`, answering through the cache.
    public func engine(for attempt: AttemptContext) throws -> LanguageModelEngine {
        CachingEngine(inner: try inner.engine(for: attempt), cache: self)
    }

    /// The wrapped provider's reuse key: the runner may answer repeats as it would without the cache.
    public func reuseKey(for attempt: AttemptContext) -> String? { inner.reuseKey(for: attempt) }

    /// The next recorded answer for `key`, counted as a hit; nil on a miss.
    fileprivate func lookup(_ key: String) -> CassetteEntry? {
        lock.lock()
        defer { lock.unlock() }
        let turn = served[key, default: 0]
        guard let positions = byKey[key], turn < positions.count else { return nil }
        served[key] = turn + 1
        hits += 1
        return cassette.entries[positions[turn]]
    }

    /// Adds a fresh answer and writes the file (atomically, one writer at a time).
    fileprivate func store(_ entry: CassetteEntry) throws {
        lock.lock()
        defer { lock.unlock() }
        byKey[entry.key, default: []].append(cassette.entries.count)
        served[entry.key, default: 0] += 1
        cassette.entries.append(entry)
        recorded += 1
        do {
            try cassette.write(to: path)
        } catch {
            throw Fault.infrastructure("--cache \(path): cannot write the cache: \(error.localizedDescription)")
        }
    }
}

/// An engine that answers from a `CassetteCache` and falls through to its inner engine on a miss.
final class CachingEngine: LanguageModelEngine {
    let inner: LanguageModelEngine
    let cache: CassetteCache

    init(inner: LanguageModelEngine, cache: CassetteCache) {
        self.inner = inner
        self.cache = cache
    }

    var identity: EngineIdentity { inner.identity }
    var capabilities: EngineCapabilities { inner.capabilities }

    func promptTokenCount(for request: EngineRequest) throws -> Int? { try inner.promptTokenCount(for: request) }

    func tokenCount(for text: String) throws -> Int? { try inner.tokenCount(for: text) }

    func respond(to request: EngineRequest, onEvent: (EngineEvent) -> Void) throws -> EngineResponse {
        let key = Cassette.key(of: request, engine: inner.identity)
        if let entry = cache.lookup(key), let response = entry.response {
            // Events first, as the engine streamed them when the answer was recorded.
            entry.events.forEach(onEvent)
            return response
        }
        let call = try CassetteCall(inner, request, onEvent: onEvent)
        if call.entry.error == nil { try cache.store(call.entry) }
        return try call.answer()
    }
}
