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

/// The answer a suite gives for a tool call.
public indirect enum ToolOutput: Encodable, Hashable, Sendable {
    /// Fixed text.
    case text(String)
    /// Structured content (returned as a structure segment).
    case structure(GeneratedContent)
    /// A fixture file's text, read when the suite loads (`path` as resolved against the suite file).
    case file(path: String, text: String)
    /// A program run per call: the arguments as JSON on stdin, the output is its stdout.
    case command(argv: [String], timeoutSeconds: Double)
    /// Per-argument rules: the first rule whose `when` values all equal the call's arguments answers.
    case byArguments([ToolOutputRule])

    /// The concrete output for a call with `arguments`, following rules; nil when no rule matches.
    public func resolve(arguments: GeneratedContent) -> ToolOutput? {
        guard case .byArguments(let rules) = self else { return self }
        for rule in rules where rule.matches(arguments) { return rule.output.resolve(arguments: arguments) }
        return nil
    }

    private enum CodingKeys: String, CodingKey { case text, structure, file, command, timeoutSeconds, outputs }

    /// Encodes `{text}`, `{structure}`, `{file, text}`, `{command, timeoutSeconds}` or `{outputs: [rule]}`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .text(let text): try container.encode(text, forKey: .text)
        case .structure(let content): try container.encode(content, forKey: .structure)
        case .file(let path, let text):
            try container.encode(path, forKey: .file)
            try container.encode(text, forKey: .text)
        case .command(let argv, let timeout):
            try container.encode(argv, forKey: .command)
            try container.encode(timeout, forKey: .timeoutSeconds)
        case .byArguments(let rules): try container.encode(rules, forKey: .outputs)
        }
    }
}

/// One per-argument rule of a tool's `outputs:` list.
public struct ToolOutputRule: Encodable, Hashable, Sendable {
    /// Argument values that must all be equal for the rule to apply (an object); nil applies always.
    public var when: GeneratedContent?
    /// The answer when the rule applies.
    public var output: ToolOutput

    /// Creates a rule.
    public init(when: GeneratedContent?, output: ToolOutput) {
        self.when = when
        self.output = output
    }

    /// Whether every `when` member equals the same-named argument.
    public func matches(_ arguments: GeneratedContent) -> Bool {
        guard let members = when?.orderedProperties else { return true }
        return members.allSatisfy { arguments[$0.key] == $0.value }
    }
}
