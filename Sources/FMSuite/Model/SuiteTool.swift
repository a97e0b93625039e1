import FMCore

/// A tool the model may call during a case, with the canned output the harness returns.
public struct SuiteTool: Encodable, Hashable, Sendable {
    /// The tool's name, as the model calls it.
    public var name: String
    /// What the tool does (shown to the model).
    public var description: String
    /// The arguments' schema (FM dialect).
    public var arguments: GenerationSchema
    /// What the harness answers when the tool is called.
    public var output: ToolOutput

    /// Creates a tool.
    public init(name: String, description: String, arguments: GenerationSchema, output: ToolOutput) {
        self.name = name
        self.description = description
        self.arguments = arguments
        self.output = output
    }

    /// The tool as the engine sees it.
    public var definition: ToolDefinition {
        ToolDefinition(name: name, description: description, parameters: arguments)
    }
}
