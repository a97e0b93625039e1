import FMCore

/// One engine call as a cassette records it: the events passed on as they stream, then the response or
/// the `LanguageModelError` the engine threw (any other error is rethrown, not recorded). `--record` and
/// `--cache` both make their entries here.
struct CassetteCall {
    /// The recording: key, canonical request, events, and the response (without its retry count, which
    /// says how the call went, not what the engine answered) or the error.
    let entry: CassetteEntry
    private let outcome: Result<EngineResponse, LanguageModelError>

    /// Calls `engine` with `request`, passing each event to `onEvent`.
    init(_ engine: LanguageModelEngine, _ request: EngineRequest, onEvent: (EngineEvent) -> Void) throws {
        var events: [EngineEvent] = []
        let key = Cassette.key(of: request, engine: engine.identity)
        let canonical = Cassette.canonicalContent(of: request, engine: engine.identity)
        do {
            let response = try engine.respond(to: request) { event in
                events.append(event)
                onEvent(event)
            }
            var recorded = response
            recorded.retries = nil
            outcome = .success(response)
            entry = CassetteEntry(key: key, request: canonical, events: events, response: recorded, error: nil)
        } catch let error as LanguageModelError {
            outcome = .failure(error)
            entry = CassetteEntry(key: key, request: canonical, events: events, response: nil, error: error)
        }
    }

    /// The answer as the engine gave it: the response with its retry count, or the error thrown again.
    func answer() throws -> EngineResponse { try outcome.get() }
}
