/// Where an engine's time went while answering: prompt processing (prefill) and generation (decode),
/// with the tokens each handled, and the grammar's share. Engines that cannot tell (scripted, replay)
/// report none; parts an engine does not measure are nil.
public struct EngineTimings: Codable, Hashable, Sendable {
    /// Prompt tokens processed (not served from a cache).
    public var prefillTokens: Int
    /// Milliseconds spent processing them.
    public var prefillMs: Double
    /// Tokens generated.
    public var decodeTokens: Int
    /// Milliseconds spent generating them.
    public var decodeMs: Double
    /// Of `prefillMs` and `decodeMs`, the milliseconds the grammar took to give each step's allowed tokens
    /// (nil: the engine does not measure it).
    public var maskMs: Double?
    /// Milliseconds spent building the grammar before prefill, not part of `prefillMs` (nil: not measured).
    public var grammarMs: Double?
    /// Of `decodeTokens`, those the grammar allowed alone, chosen without computing logits (nil: not counted).
    public var forcedTokens: Int?
    /// Draft tokens fed to check several choices in one decode step, and how many of them the choices
    /// matched (nil: the engine does not draft).
    public var draftTokens: Int?, acceptedDraftTokens: Int?

    /// Creates timings from their parts.
    public init(prefillTokens: Int = 0, prefillMs: Double = 0, decodeTokens: Int = 0, decodeMs: Double = 0,
                maskMs: Double? = nil, grammarMs: Double? = nil, forcedTokens: Int? = nil, draftTokens: Int? = nil,
                acceptedDraftTokens: Int? = nil) {
        self.prefillTokens = prefillTokens
        self.prefillMs = prefillMs
        self.decodeTokens = decodeTokens
        self.decodeMs = decodeMs
        self.maskMs = maskMs
        self.grammarMs = grammarMs
        self.forcedTokens = forcedTokens
        self.draftTokens = draftTokens
        self.acceptedDraftTokens = acceptedDraftTokens
    }

    /// The field-by-field sum of two timings (a part either side measured is summed, the other side's as 0).
    public static func + (lhs: EngineTimings, rhs: EngineTimings) -> EngineTimings {
        EngineTimings(prefillTokens: lhs.prefillTokens + rhs.prefillTokens, prefillMs: lhs.prefillMs + rhs.prefillMs,
                      decodeTokens: lhs.decodeTokens + rhs.decodeTokens, decodeMs: lhs.decodeMs + rhs.decodeMs,
                      maskMs: sum(lhs.maskMs, rhs.maskMs), grammarMs: sum(lhs.grammarMs, rhs.grammarMs),
                      forcedTokens: sum(lhs.forcedTokens, rhs.forcedTokens),
                      draftTokens: sum(lhs.draftTokens, rhs.draftTokens),
                      acceptedDraftTokens: sum(lhs.acceptedDraftTokens, rhs.acceptedDraftTokens))
    }

    /// The sum of two optional timings: nil only when both are nil.
    public static func sum(_ lhs: EngineTimings?, _ rhs: EngineTimings?) -> EngineTimings? {
        guard let lhs else { return rhs }
        guard let rhs else { return lhs }
        return lhs + rhs
    }

    /// The sum of two optional measures: nil only when both are nil.
    private static func sum<Number: AdditiveArithmetic>(_ lhs: Number?, _ rhs: Number?) -> Number? {
        guard let lhs else { return rhs }
        return lhs + (rhs ?? .zero)
    }
}
