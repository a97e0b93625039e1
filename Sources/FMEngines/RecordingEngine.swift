import Foundation
import FMCore

/// `--record FILE`: wraps any engine, passing every call through and recording it into a cassette.
// @unchecked Sendable: `entries`, the only mutable state, is read and appended only under `lock`.
public final class CassetteRecorder: EngineProvider, @unchecked Sendable {
    /// The wrapped provider's identity: recordings replay as this engine.
    public var identity: EngineIdentity { inner.identity }
    /// The wrapped provider's details.
    public var details: [String: String] { inner.details }
    /// Where the cassette is written by `save()`.
    public let path: String

    private let inner: EngineProvider
    private let lock = NSLock()
    private var entries: [CassetteEntry] = []

    /// Records every engine `inner` hands out into the cassette at `path`.
    public init(recording inner: EngineProvider, to path: String) {
        self.inner = inner
        self.path = path
    }

    /// The wrapped engine for `attempt`, recording its calls.
    public func engine(for attempt: AttemptContext) throws -> LanguageModelEngine {
        RecordingEngine(inner: try inner.engine(for: attempt), recorder: self)
    }

    /// Writes every call recorded so far.
    public func save() throws {
        lock.lock()
        let cassette = Cassette(engine: inner.identity, entries: entries)
        lock.unlock()
        try cassette.write(to: path)
    }

    fileprivate func record(_ entry: CassetteEntry) {
        lock.lock()
        entries.append(entry)
        lock.unlock()
    }
}

/// An engine that forwards to another and records each call.
final class RecordingEngine: LanguageModelEngine {
    let inner: LanguageModelEngine
    let recorder: CassetteRecorder

    init(inner: LanguageModelEngine, recorder: CassetteRecorder) {
        self.inner = inner
        self.recorder = recorder
    }

    var identity: EngineIdentity { inner.identity }
    var capabilities: EngineCapabilities { inner.capabilities }

    func promptTokenCount(for request: EngineRequest) throws -> Int? { try inner.promptTokenCount(for: request) }

    func tokenCount(for text: String) throws -> Int? { try inner.tokenCount(for: text) }

    func respond(to request: EngineRequest, onEvent: (EngineEvent) -> Void) throws -> EngineResponse {
        let call = try CassetteCall(inner, request, onEvent: onEvent)
        recorder.record(call.entry)
        return try call.answer()
    }
}
