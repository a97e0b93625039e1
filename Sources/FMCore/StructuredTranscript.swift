/// The parts of a transcript evaluators read (Apple Evaluations' `StructuredTranscript`):
/// the instruction text, prompts, responses, tool calls with decoded arguments, and tool outputs.
public struct StructuredTranscript: Hashable, Sendable {
    /// The text one tool call returned.
    public struct ToolOutput: Hashable, Sendable {
        /// The tool that produced it.
        public var toolName: String
        /// The identifier of the call it answers, when known.
        public var toolCallID: String?
        /// The output's text.
        public var text: String

        /// Creates a tool output.
        public init(toolName: String, toolCallID: String? = nil, text: String) {
            self.toolName = toolName
            self.toolCallID = toolCallID
            self.text = text
        }
    }

    /// Every tool call, in order.
    public var toolCalls: [ToolCall]
    /// Every tool output, in order.
    public var toolOutputs: [ToolOutput]
    /// The instructions' text; nil when the transcript has no instructions.
    public var instructionText: String?
    /// The text of each prompt, in order.
    public var prompts: [String]
    /// The text of each response (a structured response as its JSON), in order.
    public var responses: [String]

    /// Creates a structured transcript.
    public init(toolCalls: [ToolCall] = [], toolOutputs: [ToolOutput] = [], instructionText: String? = nil,
                prompts: [String] = [], responses: [String] = []) {
        self.toolCalls = toolCalls
        self.toolOutputs = toolOutputs
        self.instructionText = instructionText
        self.prompts = prompts
        self.responses = responses
    }

    /// Derives the structured view of `transcript`. Segments of one entry are joined by newlines;
    /// several instructions entries are joined by a blank line. Reasoning is not part of the view.
    public init(_ transcript: Transcript) {
        self.init()
        var instructions: [String] = []
        for entry in transcript.entries {
            switch entry {
            case .instructions(let entry): instructions.append(Self.text(entry.segments))
            case .prompt(let entry): prompts.append(Self.text(entry.segments))
            case .response(let entry): responses.append(Self.text(entry.segments))
            case .toolCalls(let entry): toolCalls.append(contentsOf: entry.calls)
            case .toolOutput(let entry):
                toolOutputs.append(ToolOutput(toolName: entry.toolName, toolCallID: entry.toolCallID, text: Self.text(entry.segments)))
            case .reasoning: break
            }
        }
        instructionText = instructions.isEmpty ? nil : instructions.joined(separator: "\n\n")
    }

    private static func text(_ segments: [Transcript.Segment]) -> String {
        segments.map(\.text).joined(separator: "\n")
    }

    /// The JSON value: `{"instructionText", "prompts", "responses", "toolCalls": [{"id","name","arguments"}],
    /// "toolOutputs": [{"toolName","toolCallID","text"}]}` with arguments as JSON objects.
    public var content: GeneratedContent {
        GeneratedContent(properties: [
            ("instructionText", instructionText.map { GeneratedContent($0) } ?? .null),
            ("prompts", GeneratedContent(prompts.map { GeneratedContent($0) })),
            ("responses", GeneratedContent(responses.map { GeneratedContent($0) })),
            ("toolCalls", GeneratedContent(toolCalls.map { call in
                GeneratedContent(properties: [("id", GeneratedContent(call.id)), ("name", GeneratedContent(call.name)), ("arguments", call.arguments)])
            })),
            ("toolOutputs", GeneratedContent(toolOutputs.map { output in
                GeneratedContent(properties: [("toolName", GeneratedContent(output.toolName)),
                                              ("toolCallID", output.toolCallID.map { GeneratedContent($0) } ?? .null),
                                              ("text", GeneratedContent(output.text))])
            })),
        ])
    }

    /// Reads the JSON value written by `content`; errors name the JSON path.
    public init(content: GeneratedContent, at path: String = "") throws {
        let reader = try ObjectReader(content, at: path, what: "a structured transcript")
        try reader.rejectUnknownKeys(["instructionText", "prompts", "responses", "toolCalls", "toolOutputs"], in: "a structured transcript")
        func strings(_ key: String) throws -> [String] {
            try (reader.optionalArray(key, key) ?? []).enumerated().map {
                try ObjectReader.string($0.element, at: jsonPointer(reader.path(key), String($0.offset)), "an element of \(key)")
            }
        }
        instructionText = reader.optional("instructionText")?.isNull == true ? nil : try reader.optionalString("instructionText", "the instruction text")
        prompts = try strings("prompts")
        responses = try strings("responses")
        toolCalls = try (reader.optionalArray("toolCalls", "the tool calls") ?? []).enumerated().map {
            try ToolCall(content: $0.element, at: jsonPointer(reader.path("toolCalls"), String($0.offset)))
        }
        toolOutputs = try (reader.optionalArray("toolOutputs", "the tool outputs") ?? []).enumerated().map { element in
            let output = try ObjectReader(element.element, at: jsonPointer(reader.path("toolOutputs"), String(element.offset)), what: "a tool output")
            try output.rejectUnknownKeys(["toolName", "toolCallID", "text"], in: "a tool output")
            let callID = output.optional("toolCallID")?.isNull == true ? nil : try output.optionalString("toolCallID", "the call identifier")
            return ToolOutput(toolName: try output.string("toolName", "the tool name"), toolCallID: callID, text: try output.string("text", "the output text"))
        }
    }
}

extension StructuredTranscript: Codable {
    /// Decodes the JSON form described at `content`.
    public init(from decoder: Decoder) throws {
        self = try decodeThroughContent(decoder, what: "structured transcript") { try StructuredTranscript(content: $0) }
    }

    /// Encodes the JSON form described at `content`.
    public func encode(to encoder: Encoder) throws { try content.encode(to: encoder) }
}

extension Transcript {
    /// The structured view evaluators read.
    public var structuredTranscript: StructuredTranscript { StructuredTranscript(self) }
}
