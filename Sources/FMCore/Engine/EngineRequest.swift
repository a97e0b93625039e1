/// Everything an engine needs to produce one response. Its canonical JSON is the replay key.
public struct EngineRequest: Codable, Hashable, Sendable {
    /// The transcript so far: instructions (entry 0), prompts, responses, tool calls and outputs.
    public var transcript: Transcript
    /// Sampling, temperature, maximumResponseTokens and toolCallingMode.
    public var options: GenerationOptions
    /// The output constraint: a structured response conforming to this schema, or nil for text.
    public var schema: GenerationSchema?
    /// The tools the model may call (subject to `options.toolCallingMode`).
    public var tools: [ToolDefinition]
    /// Enforce `schema` with token masks (the grammar channel); false is prompt-only.
    public var constrained: Bool
    /// Render `schema` and its descriptions into the prompt (the prompt channel).
    public var includeSchemaInPrompt: Bool
    /// Which guides the grammar channel enforces (nil: `strict`).
    public var guideEnforcement: GuideEnforcement?
    /// The grammar's loop guards (nil: `LoopGuards.defaults(for:)` of the profile).
    public var loopGuards: LoopGuards?
    /// The tokens left in the context window after the prompt (contextSize − prompt tokens), set by the
    /// session: the response shares the window and may not run past it. Nil: no window. Not part of the
    /// replay key (like `contextSize`, which it is computed from).
    public var contextBudget: Int? = nil

    /// Creates a request; structure is enforced and shown in the prompt unless said otherwise.
    public init(transcript: Transcript, options: GenerationOptions = GenerationOptions(),
                schema: GenerationSchema? = nil, tools: [ToolDefinition] = [],
                constrained: Bool = true, includeSchemaInPrompt: Bool = true,
                guideEnforcement: GuideEnforcement? = nil, loopGuards: LoopGuards? = nil) {
        self.guideEnforcement = guideEnforcement
        self.loopGuards = loopGuards
        self.transcript = transcript
        self.options = options
        self.schema = schema
        self.tools = tools
        self.constrained = constrained
        self.includeSchemaInPrompt = includeSchemaInPrompt
    }

    /// The guide-enforcement profile in force (`strict` unless the request says `device`).
    public var enforcement: GuideEnforcement { guideEnforcement ?? .strict }
    /// The loop guards in force: the request's, else the profile's defaults.
    public var effectiveLoopGuards: LoopGuards { loopGuards ?? LoopGuards.defaults(for: enforcement) }
    /// The most tokens the engine may generate: `maximumResponseTokens` or the context budget,
    /// whichever is smaller (nil: neither is set).
    public var responseTokenLimit: Int? {
        switch (options.maximumResponseTokens, contextBudget) {
        case let (maximum?, budget?): return min(maximum, budget)
        case let (maximum, budget): return maximum ?? budget
        }
    }

    /// Whether `responseTokenLimit` is the context window's rather than `maximumResponseTokens`: a response
    /// cut there ran off the end of the window (`contextSizeExceeded` on the device), not into its own limit.
    public var isWindowLimited: Bool {
        guard let budget = contextBudget else { return false }
        return budget < (options.maximumResponseTokens ?? Int.max)
    }

    /// The tool-calling mode in force for this request.
    public var toolCallingMode: GenerationOptions.ToolCallingMode { options.toolCallingMode ?? .allowed }
}

/// One event streamed by an engine while it generates.
public enum EngineEvent: Codable, Hashable, Sendable {
    /// More response text (the text so far is the concatenation of every delta).
    case textDelta(String)
    /// A snapshot of the structured response so far (`isComplete` false until the end).
    case partialStructure(GeneratedContent)
    /// The model called a tool (the session runs it and continues).
    case toolCall(ToolCall)
}

/// Why generation stopped.
public enum FinishReason: String, Codable, Hashable, Sendable {
    /// The model ended its response.
    case stop
    /// `maximumResponseTokens` was reached: the response is cut.
    case length
    /// The model called one or more tools and waits for their outputs.
    case toolCalls
}

/// The outcome of one engine call.
public struct EngineResponse: Codable, Hashable, Sendable {
    /// The response text; for a structured response, the raw generated JSON text (possibly cut).
    public var text: String
    /// The structured response, when a schema was requested and the text parsed completely.
    public var content: GeneratedContent?
    /// The tool calls the model made, in order (finish reason `toolCalls`).
    public var toolCalls: [ToolCall]
    /// Why generation stopped.
    public var finishReason: FinishReason
    /// Tokens read and written by this call.
    public var usage: Usage
    /// Requests the engine sent again after passing faults before this answer (remote engines); never recorded in cassettes.
    public var retries: Int?
    /// Where the grammar's loop guards cut the model's choices in this answer (nil: nowhere).
    public var grammarLimits: [GrammarLimitCut]?
    /// Prefill and decode time of this call, when the engine measures them (nil: it does not).
    public var timings: EngineTimings?

    /// Creates a response from its parts.
    public init(text: String = "", content: GeneratedContent? = nil, toolCalls: [ToolCall] = [],
                finishReason: FinishReason = .stop, usage: Usage = Usage()) {
        self.text = text
        self.content = content
        self.toolCalls = toolCalls
        self.finishReason = finishReason
        self.usage = usage
    }
}

/// The documented token estimate for engines that cannot count tokens (scripted, replay of such engines):
/// one token per four UTF-8 bytes, rounded up — close to BPE tokenizers on English text.
public enum TokenEstimate {
    /// Bytes that count as one token.
    public static let bytesPerToken = 4

    /// Estimated tokens in `text`.
    public static func count(_ text: String) -> Int {
        (text.utf8.count + bytesPerToken - 1) / bytesPerToken
    }

    /// The longest prefix of `text` (on a character boundary) whose estimate is at most `tokens`.
    public static func prefix(_ text: String, tokens: Int) -> String {
        let limit = max(0, tokens) * bytesPerToken
        guard text.utf8.count > limit else { return text }
        var result = ""
        var used = 0
        for character in text {
            let size = character.utf8.count
            if used + size > limit { break }
            used += size
            result.append(character)
        }
        return result
    }
}

extension EngineEvent {
    private enum CodingKeys: String, CodingKey { case textDelta, partialStructure, toolCall }

    /// Decodes `{"textDelta": TEXT}`, `{"partialStructure": JSON}` or `{"toolCall": CALL}`.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let text = try container.decodeIfPresent(String.self, forKey: .textDelta) {
            self = .textDelta(text)
        } else if let content = try container.decodeIfPresent(GeneratedContent.self, forKey: .partialStructure) {
            self = .partialStructure(content)
        } else if let call = try container.decodeIfPresent(ToolCall.self, forKey: .toolCall) {
            self = .toolCall(call)
        } else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                debugDescription: "an engine event needs one of 'textDelta', 'partialStructure', 'toolCall'"))
        }
    }

    /// Encodes the one-key object `init(from:)` reads.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .textDelta(let text): try container.encode(text, forKey: .textDelta)
        case .partialStructure(let content): try container.encode(content, forKey: .partialStructure)
        case .toolCall(let call): try container.encode(call, forKey: .toolCall)
        }
    }
}

extension EngineRequest {
    /// The prompt size by `TokenEstimate`: every entry's text, tool call arguments, tool definitions,
    /// and the schema when it is shown in the prompt. Used by engines that cannot count tokens. Images are
    /// not text: the session charges them `imageTokens` each on top.
    public var estimatedPromptTokens: Int {
        func textBytes(_ segments: [Transcript.Segment]) -> Int {
            segments.reduce(0) { bytes, segment in
                if case .attachment = segment { return bytes }
                return bytes + segment.text.utf8.count
            }
        }
        var bytes = 0
        for entry in transcript.entries {
            switch entry {
            case .instructions(let instructions):
                bytes += textBytes(instructions.segments)
                bytes += instructions.toolDefinitions.reduce(0) { $0 + $1.content.jsonString.utf8.count }
            case .prompt(let prompt): bytes += textBytes(prompt.segments)
            case .response(let response): bytes += textBytes(response.segments)
            case .reasoning(let reasoning): bytes += textBytes(reasoning.segments)
            case .toolCalls(let calls):
                bytes += calls.calls.reduce(0) { $0 + $1.name.utf8.count + $1.arguments.jsonString.utf8.count }
            case .toolOutput(let output): bytes += textBytes(output.segments)
            }
        }
        if let schema, includeSchemaInPrompt { bytes += schema.content.jsonString.utf8.count }
        let bytesPerToken = TokenEstimate.bytesPerToken
        return (bytes + bytesPerToken - 1) / bytesPerToken
    }
}
