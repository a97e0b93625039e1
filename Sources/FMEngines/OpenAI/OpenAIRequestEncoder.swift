import FMCore

/// EngineRequest → chat-completions request body (pure; see docs/engines.md for the mapping table).
public enum OpenAIRequestEncoder {
    /// The JSON body for `request`: messages, tools and `tool_choice`, sampling (greedy is
    /// `temperature: 0`), `max_tokens`, `response_format` on the grammar channel, streaming, then
    /// `settings.extraBody` merged over the top level.
    public static func body(for request: EngineRequest, settings: OpenAIEngineSettings) throws -> GeneratedContent {
        var members: [(String, GeneratedContent)] = [("model", GeneratedContent(settings.model)),
                                                     ("messages", GeneratedContent(try messages(for: request)))]
        members += sampling(request.options, seed: settings.seed)
        if let maximum = request.responseTokenLimit { members.append(("max_tokens", GeneratedContent(maximum))) }
        if !request.tools.isEmpty {
            members.append(("tools", GeneratedContent(request.tools.map(tool))))
            members.append(("tool_choice", GeneratedContent(toolChoice(request.toolCallingMode))))
        }
        if let schema = request.schema, request.constrained {
            let name = schema.root.title ?? "response"
            members.append(("response_format", ["type": "json_schema",
                                                "json_schema": ["name": GeneratedContent(name),
                                                                "schema": OpenAISchemaRewrite.rootRecursionAsDefinition(schema.content),
                                                                "strict": true]]))
        }
        if settings.stream {
            members.append(("stream", true))
            members.append(("stream_options", ["include_usage": true]))
        }
        return merged(GeneratedContent(properties: members), with: settings.extraBody)
    }

    /// The transcript as chat messages: instructions (plus the prompt channel's response-format section)
    /// as the system message, prompts as user, responses as assistant, tool calls as assistant
    /// `tool_calls` (arguments as JSON strings), tool outputs as `tool` messages with `tool_call_id`.
    public static func messages(for request: EngineRequest) throws -> [GeneratedContent] {
        var instructions: String?
        var messages: [GeneratedContent] = []
        var lastCallIDs: [String: String] = [:]
        for (index, entry) in request.transcript.entries.enumerated() {
            switch entry {
            case .instructions(let entry):
                instructions = try text(of: entry.segments, entry: index)
            case .prompt(let entry):
                messages.append(["role": "user", "content": try promptContent(of: entry.segments, entry: index)])
            case .response(let entry):
                messages.append(["role": "assistant", "content": GeneratedContent(try text(of: entry.segments, entry: index))])
            case .reasoning:
                continue
            case .toolCalls(let entry):
                let calls = entry.calls.enumerated().map { position, call -> GeneratedContent in
                    let id = call.id.isEmpty ? "call_\(index)_\(position)" : call.id
                    lastCallIDs[call.name] = id
                    return ["id": GeneratedContent(id), "type": "function",
                            "function": ["name": GeneratedContent(call.name), "arguments": GeneratedContent(call.arguments.jsonString)]]
                }
                messages.append(["role": "assistant", "content": .null, "tool_calls": GeneratedContent(calls)])
            case .toolOutput(let entry):
                let id = entry.toolCallID ?? lastCallIDs[entry.toolName] ?? entry.toolName
                messages.append(["role": "tool", "tool_call_id": GeneratedContent(id),
                                 "content": GeneratedContent(try text(of: entry.segments, entry: index))])
            }
        }
        var system: [String] = []
        if let instructions, !instructions.isEmpty { system.append(instructions) }
        if let schema = request.schema, request.includeSchemaInPrompt {
            system.append(EmbeddedPromptFormat.responseFormatSection(schema))
        }
        if !system.isEmpty {
            messages.insert(["role": "system", "content": GeneratedContent(system.joined(separator: "\n\n"))], at: 0)
        }
        return messages
    }

    /// `tool_choice` for a Foundation Models tool-calling mode.
    public static func toolChoice(_ mode: GenerationOptions.ToolCallingMode) -> String {
        switch mode {
        case .required: return "required"
        case .allowed: return "auto"
        case .disallowed: return "none"
        }
    }

    /// A tool definition as a `function` tool whose `parameters` are the arguments schema.
    static func tool(_ definition: ToolDefinition) -> GeneratedContent {
        ["type": "function", "function": ["name": GeneratedContent(definition.name),
                                          "description": GeneratedContent(definition.description),
                                          "parameters": definition.parameters.content]]
    }

    /// Sampling members: greedy (the default) is `temperature: 0`; random sampling sends its
    /// temperature, `top_k` or `top_p`, and a seed (the mode's, else `seed`).
    static func sampling(_ options: GenerationOptions, seed: Int?) -> [(String, GeneratedContent)] {
        var members: [(String, GeneratedContent)] = []
        var chosenSeed = seed.map { GeneratedContent($0) }
        switch options.sampling ?? .greedy {
        case .greedy:
            members.append(("temperature", GeneratedContent(0)))
        case .topK(let k, let modeSeed):
            members.append(("temperature", GeneratedContent(options.temperature ?? 1)))
            members.append(("top_k", GeneratedContent(k)))
            if let modeSeed { chosenSeed = exactInteger(modeSeed) }
        case .nucleus(let p, let modeSeed):
            members.append(("temperature", GeneratedContent(options.temperature ?? 1)))
            members.append(("top_p", GeneratedContent(p)))
            if let modeSeed { chosenSeed = exactInteger(modeSeed) }
        }
        if let chosenSeed { members.append(("seed", chosenSeed)) }
        return members
    }

    /// An unsigned integer as a JSON number written back exactly (seeds may exceed 2^53).
    static func exactInteger(_ value: UInt64) -> GeneratedContent {
        (try? GeneratedContent(json: String(value))) ?? GeneratedContent(Double(value))
    }

    /// `body` with each member of `extra` (a JSON object) added or replacing the member of that name.
    static func merged(_ body: GeneratedContent, with extra: GeneratedContent?) -> GeneratedContent {
        guard let extra = extra?.orderedProperties, var members = body.orderedProperties else { return body }
        for (key, value) in extra {
            if let position = members.firstIndex(where: { $0.key == key }) {
                members[position].value = value
            } else {
                members.append((key, value))
            }
        }
        return GeneratedContent(properties: members.map { ($0.key, $0.value) })
    }

    /// A prompt's `content`: its text, or, when it attaches images, content parts in segment order — text
    /// parts, and for each image a text part naming its label (when it has one) and an `image_url` part
    /// holding the image as a `data:` URI (or its https URL when the transcript has no bytes).
    static func promptContent(of segments: [Transcript.Segment], entry: Int) throws -> GeneratedContent {
        guard segments.contains(where: { if case .attachment = $0 { return true } else { return false } }) else {
            return GeneratedContent(try text(of: segments, entry: entry))
        }
        var parts: [GeneratedContent] = []
        for segment in segments {
            guard case .attachment(let attachment) = segment else {
                parts.append(["type": "text", "text": GeneratedContent(segment.text)])
                continue
            }
            guard case .image(let image) = attachment.content,
                  let url = image.dataURI ?? image.url.flatMap({ $0.hasPrefix("https://") || $0.hasPrefix("http://") ? $0 : nil }) else {
                throw LanguageModelError.unsupportedTranscriptContent(.init(debugDescription:
                    "transcript entry \(entry) attaches \(attachment.url) without its bytes; the openai engine sends images as data: URIs or http(s) URLs"))
            }
            if let label = attachment.label { parts.append(["type": "text", "text": GeneratedContent("Image '\(label)':")]) }
            parts.append(["type": "image_url", "image_url": ["url": GeneratedContent(url)]])
        }
        return GeneratedContent(parts)
    }

    /// The text of an entry's segments; attachments outside prompts cannot be sent.
    private static func text(of segments: [Transcript.Segment], entry: Int) throws -> String {
        var parts: [String] = []
        for segment in segments {
            if case .attachment(let attachment) = segment {
                throw LanguageModelError.unsupportedTranscriptContent(.init(debugDescription:
                    "transcript entry \(entry) has an attachment (\(attachment.url)); the openai engine sends images in prompts only"))
            }
            parts.append(segment.text)
        }
        return parts.joined()
    }
}
