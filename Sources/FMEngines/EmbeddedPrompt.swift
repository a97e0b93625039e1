import FMCore
import FMEmbedded

/// How the embedded engine writes a request as a ChatML conversation (see docs/guided-generation.md):
///
/// - system turn: the instructions (or the model's default system prompt), then, when tools are
///   offered, a `# Tools` section (one `## name` block per tool with its description and arguments
///   schema) and how to call one; then, with `includeSchemaInPrompt`, a `# Response format` section
///   with the response schema (its descriptions included);
/// - prompts are user turns, responses assistant turns (structures as compact JSON);
/// - a tool call is an assistant turn `<tool_call>{"name":…,"arguments":…}` (one line per call);
/// - a tool output is a user turn `<tool_response name="…">…</tool_response>`.
public enum EmbeddedPromptFormat {
    /// What opens a tool call in the model's output.
    public static let toolCallPrefix = "<tool_call>"

    /// The tools the model is offered: none when the mode is `disallowed`.
    public static func offeredTools(_ request: EngineRequest) -> [ToolDefinition] {
        request.toolCallingMode == .disallowed ? [] : request.tools
    }

    /// The conversation for `request`, ending before the assistant's answer.
    public static func messages(for request: EngineRequest, defaultSystemPrompt: String?) throws -> [ChatMessage] {
        var instructions: String?
        var messages: [ChatMessage] = []
        for (index, entry) in request.transcript.entries.enumerated() {
            switch entry {
            case .instructions(let entry):
                instructions = try text(of: entry.segments, entry: index)
            case .prompt(let entry):
                messages.append(.user(try text(of: entry.segments, entry: index)))
            case .response(let entry):
                messages.append(.assistant(try text(of: entry.segments, entry: index)))
            case .reasoning:
                continue
            case .toolCalls(let entry):
                messages.append(.assistant(entry.calls.map(toolCallText).joined(separator: "\n")))
            case .toolOutput(let entry):
                let output = try text(of: entry.segments, entry: index)
                messages.append(.user("<tool_response name=\(GeneratedContent.quoted(entry.toolName))>\n\(output)\n</tool_response>"))
            }
        }
        let system = systemText(instructions: instructions ?? defaultSystemPrompt, request: request)
        if let system { messages.insert(.system(system), at: 0) }
        return messages
    }

    /// A tool call as the model writes it.
    public static func toolCallText(_ call: ToolCall) -> String {
        toolCallPrefix + GeneratedContent(properties: [("name", GeneratedContent(call.name)), ("arguments", call.arguments)]).jsonString
    }

    /// The system turn: instructions plus the tools and response-format sections.
    static func systemText(instructions: String?, request: EngineRequest) -> String? {
        var sections: [String] = []
        if let instructions, !instructions.isEmpty { sections.append(instructions) }
        let tools = offeredTools(request)
        if !tools.isEmpty {
            var text = "# Tools\n"
            text += request.toolCallingMode == .required ? "You must call one of these tools." : "You can call these tools."
            text += " To call a tool, reply with only \(toolCallPrefix) followed by a JSON object "
                + "{\"name\": TOOL NAME, \"arguments\": ARGUMENTS} on one line."
            for tool in tools {
                text += "\n## \(tool.name)\n\(tool.description)\nArguments (JSON schema): \(tool.parameters.jsonString)"
            }
            sections.append(text)
        }
        if let schema = request.schema, request.includeSchemaInPrompt { sections.append(responseFormatSection(schema)) }
        return sections.isEmpty ? nil : sections.joined(separator: "\n\n")
    }

    /// The prompt channel's `# Response format` section showing `schema` (shared with the openai engine).
    public static func responseFormatSection(_ schema: GenerationSchema) -> String {
        "# Response format\nReply with only a JSON value that matches this JSON schema, and no other text:\n" + schema.jsonString
    }

    /// The text of an entry's segments; attachments cannot be shown to this text-only model.
    private static func text(of segments: [Transcript.Segment], entry: Int) throws -> String {
        var parts: [String] = []
        for segment in segments {
            if case .attachment(let attachment) = segment {
                throw LanguageModelError.unsupportedTranscriptContent(.init(debugDescription:
                    "transcript entry \(entry) has an attachment (\(attachment.url)); the embedded engine reads text only"))
            }
            parts.append(segment.text)
        }
        return parts.joined()
    }
}
