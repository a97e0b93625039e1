/// What each part of a session's input costs in tokens, like the device's `SystemLanguageModel.tokenCount(for:)`
/// overloads for instructions, tools, a schema and a prompt. Counted by the engine's tokenizer, or by
/// `TokenEstimate` for engines without one.
public struct PromptTokenCounts: Codable, Hashable, Sendable {
    /// Tokens of the instructions text (0 without instructions).
    public var instructions: Int
    /// Tokens of the tool definitions (names, descriptions, argument schemas as JSON; 0 without tools).
    public var tools: Int
    /// Tokens of the response schema as JSON (0 without a schema).
    public var schema: Int
    /// Tokens of the prompts, over every turn.
    public var prompt: Int
    /// Whether the counts are `TokenEstimate`'s (the engine has no tokenizer) rather than exact.
    public var estimated: Bool

    /// Creates counts from their parts.
    public init(instructions: Int = 0, tools: Int = 0, schema: Int = 0, prompt: Int = 0, estimated: Bool = false) {
        self.instructions = instructions
        self.tools = tools
        self.schema = schema
        self.prompt = prompt
        self.estimated = estimated
    }

    /// The sum of the parts.
    public var total: Int { instructions + tools + schema + prompt }
}
