/// Token counts of one response or a whole run.
public struct Usage: Hashable, Sendable, Codable {
    /// Tokens read: the prompt, instructions, tool definitions and transcript so far.
    public var inputTokens: Int
    /// Of `inputTokens`, those served from a cache (e.g. a reused KV prefix).
    public var cachedInputTokens: Int
    /// Tokens generated.
    public var outputTokens: Int
    /// Of `outputTokens`, those spent on reasoning rather than the answer.
    public var reasoningTokens: Int

    /// Creates a usage record; counts default to zero.
    public init(inputTokens: Int = 0, cachedInputTokens: Int = 0, outputTokens: Int = 0, reasoningTokens: Int = 0) {
        self.inputTokens = inputTokens
        self.cachedInputTokens = cachedInputTokens
        self.outputTokens = outputTokens
        self.reasoningTokens = reasoningTokens
    }

    /// No tokens.
    public static let zero = Usage()

    /// Input plus output tokens.
    public var totalTokens: Int { inputTokens + outputTokens }

    /// The field-by-field sum of two usages.
    public static func + (lhs: Usage, rhs: Usage) -> Usage {
        Usage(inputTokens: lhs.inputTokens + rhs.inputTokens, cachedInputTokens: lhs.cachedInputTokens + rhs.cachedInputTokens,
              outputTokens: lhs.outputTokens + rhs.outputTokens, reasoningTokens: lhs.reasoningTokens + rhs.reasoningTokens)
    }

    /// Adds `rhs` into `lhs`.
    public static func += (lhs: inout Usage, rhs: Usage) { lhs = lhs + rhs }
}
