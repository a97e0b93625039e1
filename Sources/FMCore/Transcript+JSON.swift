import Foundation

extension Transcript {
    /// The `type` Apple writes at the top of a transcript file.
    public static let formatType = "FoundationModels.Transcript"
    /// The format version Foundation Models 26 writes (integer `1`); FM 27 writes `"1.1"` (`Dialect`).
    public static let formatVersion = 1

    /// Parses Apple's transcript JSON text. Throws `GeneratedContent.ParsingError` (line:column) for
    /// malformed JSON and `JSONFormatError` (JSON path) for a missing field, an unknown role or segment type.
    /// Keys it does not model (Foundation Models 27's `metadata`, later keys) are kept in `additionalFields`.
    public init(json: String) throws {
        try self.init(content: try GeneratedContent(json: json))
    }

    /// Reads a transcript file in any shape a device or Apple's tools write: `{"version": 1 | "1.1", "type":
    /// "FoundationModels.Transcript", "transcript": {"entries": […]}}`, or the `fm` tool's session file
    /// `{"modelName": …, "transcript": {THAT}}`.
    public init(content: GeneratedContent) throws {
        let file = try ObjectReader(content, at: "", what: "a transcript file")
        if file.optional("type") == nil, file.optional("version") == nil, let inner = file.optional("transcript"),
           inner["type"] != nil || inner["version"] != nil {
            try self.init(document: try ObjectReader(inner, at: "/transcript", what: "the fm session file's transcript"))
            sessionFileMembers = file.members(except: ["transcript"])
        } else {
            try self.init(document: file)
        }
    }

    private init(document top: ObjectReader) throws {
        let shapes = "a transcript file ({\"version\", \"type\": \"\(Self.formatType)\", \"transcript\": {\"entries\"}}) "
            + "or an fm session file ({\"modelName\", \"transcript\": {…}})"
        let version = try top.required("version", "the format version; expected \(shapes)")
        guard let dialect = Dialect(version: version) else {
            throw JSONFormatError(path: top.path("version"),
                message: "unsupported transcript version \(version.jsonString); this reader understands versions \(Dialect.understood)")
        }
        let type = try top.string("type", "\"\(Self.formatType)\"")
        guard type == Self.formatType else {
            throw JSONFormatError(path: top.path("type"), message: "unknown type \"\(type)\"; expected \"\(Self.formatType)\"")
        }
        let body = try ObjectReader(try top.required("transcript", "the object holding the entries"), at: top.path("transcript"),
                                    what: "the transcript")
        guard let entries = try body.optionalArray("entries", "the entries") else {
            throw JSONFormatError(path: body.path, message: "missing \"entries\" (the list of transcript entries)")
        }
        self.entries = try entries.enumerated().map { try Self.entry($0.element, at: jsonPointer(body.path("entries"), String($0.offset))) }
        self.dialect = dialect
        for (pointer, extra) in [("", top.members(except: ["version", "type", "transcript"])),
                                 ("/transcript", body.members(except: ["entries"]))] where !extra.isEmpty {
            additionalFields[pointer] = extra
        }
    }

    /// Apple's transcript JSON value in the transcript's dialect (inside the `fm` session-file wrapper when
    /// it was read from one).
    public var content: GeneratedContent { content(in: dialect) }

    /// Apple's transcript JSON value written in `dialect`.
    public func content(in dialect: Dialect) -> GeneratedContent {
        let document = GeneratedContent(properties: [
            ("version", dialect.version),
            ("type", GeneratedContent(Self.formatType)),
            ("transcript", GeneratedContent(properties: [("entries", GeneratedContent(entries.map { Self.content(of: $0, in: dialect) }))]
                + sortedMembers(additionalFields["/transcript"] ?? [:]))),
        ] + sortedMembers(additionalFields[""] ?? [:]))
        guard let wrapper = sessionFileMembers else { return document }
        return GeneratedContent(properties: sortedMembers(wrapper) + [("transcript", document)])
    }

    /// Apple's transcript JSON text, compact.
    public var jsonString: String { content.jsonString }

    /// The `fm` session file's `modelName`, when the transcript was read from one.
    public var modelName: String? { sessionFileMembers?["modelName"]?.stringValue }

    private static let roles = ["instructions", "user", "response", "tool", "reasoning"]

    private static func entry(_ content: GeneratedContent, at path: String) throws -> Entry {
        let reader = try ObjectReader(content, at: path, what: "a transcript entry")
        let role = try reader.string("role", "the entry's role: \(roles.joined(separator: ", "))")
        let id = try reader.string("id", "the entry's identifier")
        switch role {
        case "instructions":
            let tools = try reader.optionalArray("tools", "the tool definitions")
            var instructions = Instructions(id: id, segments: try segments(reader),
                toolDefinitions: try (tools ?? []).enumerated().map {
                    try ToolDefinition(content: $0.element, at: jsonPointer(reader.path("tools"), String($0.offset)), keepingUnknownKeys: true)
                })
            instructions.writesEmptyTools = tools?.isEmpty == true
            instructions.additionalFields = reader.members(except: ["role", "id", "contents", "tools"])
            return .instructions(instructions)
        case "user":
            let options = try reader.optional("options").map {
                try GenerationOptions(content: $0, at: reader.path("options"), keepingUnknownKeys: true)
            }
            let format = try reader.optional("responseFormat").map { try responseFormat($0, at: reader.path("responseFormat")) }
            var prompt = Prompt(id: id, segments: try segments(reader), options: options ?? GenerationOptions(), responseFormat: format)
            prompt.writesOptions = options != nil
            let contextOptions = reader.optional("contextOptions")
            prompt.writesContextOptions = contextOptions != nil
            // An empty `contextOptions` is FM 27's default, carried by `writesContextOptions` alone, so a prompt
            // read from a file equals the same prompt built in memory; one with members is kept as written.
            var known = ["role", "id", "contents", "options", "responseFormat"]
            if case .structure(let properties, _)? = contextOptions?.kind, properties.isEmpty {
                known.append("contextOptions")
            }
            prompt.additionalFields = reader.members(except: known)
            return .prompt(prompt)
        case "response":
            if let calls = try reader.optionalArray("toolCalls", "the tool calls") {
                var entry = ToolCalls(id: id, calls: try calls.enumerated().map {
                    try ToolCall(content: $0.element, at: jsonPointer(reader.path("toolCalls"), String($0.offset)), keepingUnknownKeys: true)
                })
                entry.additionalFields = reader.members(except: ["role", "id", "toolCalls"])
                return .toolCalls(entry)
            }
            let assets = try reader.optionalArray("assets", "the asset identifiers")
            let ids = try (assets ?? []).enumerated().map {
                try ObjectReader.string($0.element, at: jsonPointer(reader.path("assets"), String($0.offset)), "an asset identifier")
            }
            var response = Response(id: id, assetIDs: ids, segments: try segments(reader))
            response.writesEmptyAssets = assets != nil
            response.additionalFields = reader.members(except: ["role", "id", "contents", "assets"])
            return .response(response)
        case "tool":
            var output = ToolOutput(id: id, toolName: try reader.string("toolName", "the name of the tool that produced the output"),
                                    toolCallID: try reader.optionalString("toolCallID", "the identifier of the call answered"),
                                    segments: try segments(reader))
            output.additionalFields = reader.members(except: ["role", "id", "contents", "toolName", "toolCallID"])
            return .toolOutput(output)
        case "reasoning":
            var reasoning = Reasoning(id: id, segments: try segments(reader))
            reasoning.additionalFields = reader.members(except: ["role", "id", "contents"])
            return .reasoning(reasoning)
        default:
            throw JSONFormatError(path: reader.path("role"), message: "unknown role \"\(role)\"; expected one of \(roles.joined(separator: ", "))")
        }
    }

    private static func segments(_ entry: ObjectReader) throws -> [Segment] {
        guard let contents = try entry.optionalArray("contents", "the entry's segments") else {
            throw JSONFormatError(path: entry.path, message: "missing \"contents\" (the entry's list of segments)")
        }
        return try contents.enumerated().map { try segment($0.element, at: jsonPointer(entry.path("contents"), String($0.offset))) }
    }

    private static func content(of entry: Entry, in dialect: Dialect) -> GeneratedContent {
        var members: [(String, GeneratedContent)] = [("id", GeneratedContent(entry.id))]
        switch entry {
        case .instructions(let instructions):
            members.append(("role", "instructions"))
            members.append(("contents", content(of: instructions.segments, in: dialect)))
            if !instructions.toolDefinitions.isEmpty || instructions.writesEmptyTools {
                members.append(("tools", GeneratedContent(instructions.toolDefinitions.map(\.content))))
            }
            members += sortedMembers(instructions.additionalFields)
        case .prompt(let prompt):
            members.append(("role", "user"))
            members.append(("contents", content(of: prompt.segments, in: dialect)))
            if prompt.writesOptions { members.append(("options", prompt.options.content(form: prompt.options.form ?? dialect.optionsForm))) }
            if let format = prompt.responseFormat { members.append(("responseFormat", content(of: format))) }
            if prompt.writesContextOptions ?? (dialect == .fm27), prompt.additionalFields["contextOptions"] == nil {
                members.append(("contextOptions", GeneratedContent(properties: [])))
            }
            members += sortedMembers(prompt.additionalFields)
        case .response(let response):
            members.append(("role", "response"))
            members.append(("contents", content(of: response.segments, in: dialect)))
            if !response.assetIDs.isEmpty || response.writesEmptyAssets ?? (dialect == .fm27) {
                members.append(("assets", GeneratedContent(response.assetIDs.map { GeneratedContent($0) })))
            }
            members += sortedMembers(response.additionalFields)
        case .reasoning(let reasoning):
            members.append(("role", "reasoning"))
            members.append(("contents", content(of: reasoning.segments, in: dialect)))
            members += sortedMembers(reasoning.additionalFields)
        case .toolCalls(let calls):
            members.append(("role", "response"))
            members.append(("toolCalls", GeneratedContent(calls.calls.map(\.content))))
            members += sortedMembers(calls.additionalFields)
        case .toolOutput(let output):
            members.append(("role", "tool"))
            members.append(("toolName", GeneratedContent(output.toolName)))
            if let call = output.toolCallID { members.append(("toolCallID", GeneratedContent(call))) }
            members.append(("contents", content(of: output.segments, in: dialect)))
            members += sortedMembers(output.additionalFields)
        }
        return GeneratedContent(properties: members)
    }
}

extension Transcript: Codable {
    /// Decodes Apple's transcript JSON.
    public init(from decoder: Decoder) throws {
        self = try decodeThroughContent(decoder, what: "transcript") { try Transcript(content: $0) }
    }

    /// Encodes Apple's transcript JSON.
    public func encode(to encoder: Encoder) throws { try content.encode(to: encoder) }
}
