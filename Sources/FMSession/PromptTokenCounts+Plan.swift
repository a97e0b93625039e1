import FMCore

extension PromptTokenCounts {
    /// The token counts of `plan`'s instructions, tool definitions, schema and prompts (every turn), by
    /// `engine`'s tokenizer (the device's `tokenCount(for:)`), or by `TokenEstimate` when it has none.
    public init(plan: SessionPlan, engine: LanguageModelEngine) throws {
        let configuration = plan.configuration
        let exact = try engine.tokenCount(for: "") != nil
        func count(_ text: String) throws -> Int {
            text.isEmpty ? 0 : try engine.tokenCount(for: text) ?? TokenEstimate.count(text)
        }
        let tools = configuration.tools.isEmpty ? "" : GeneratedContent(configuration.tools.map(\.definition.content)).jsonString
        self.init(instructions: try count(configuration.instructions ?? ""), tools: try count(tools),
                  schema: try count(configuration.schema?.content.jsonString ?? ""),
                  prompt: try plan.turns.reduce(0) { $0 + (try count($1)) }, estimated: !exact)
    }
}
