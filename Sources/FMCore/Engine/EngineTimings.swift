/// Where an engine's time went while answering: prompt processing (prefill) and generation (decode),
/// with the tokens each handled. Engines that cannot tell (scripted, replay) report none.
public struct EngineTimings: Codable, Hashable, Sendable {
    /// Prompt tokens processed (not served from a cache).
    public var prefillTokens: Int
    /// Milliseconds spent processing them.
    public var prefillMs: Double
    /// Tokens generated.
    public var decodeTokens: Int
    /// Milliseconds spent generating them.
    public var decodeMs: Double

    /// Creates timings from their parts.
    public init(prefillTokens: Int = 0, prefillMs: Double = 0, decodeTokens: Int = 0, decodeMs: Double = 0) {
        self.prefillTokens = prefillTokens
        self.prefillMs = prefillMs
        self.decodeTokens = decodeTokens
        self.decodeMs = decodeMs
    }

    /// The field-by-field sum of two timings.
    public static func + (lhs: EngineTimings, rhs: EngineTimings) -> EngineTimings {
        EngineTimings(prefillTokens: lhs.prefillTokens + rhs.prefillTokens, prefillMs: lhs.prefillMs + rhs.prefillMs,
                      decodeTokens: lhs.decodeTokens + rhs.decodeTokens, decodeMs: lhs.decodeMs + rhs.decodeMs)
    }

    /// The sum of two optional timings: nil only when both are nil.
    public static func sum(_ lhs: EngineTimings?, _ rhs: EngineTimings?) -> EngineTimings? {
        guard let lhs else { return rhs }
        guard let rhs else { return lhs }
        return lhs + rhs
    }
}
