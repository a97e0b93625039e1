import Foundation

extension Transcript {
    /// The `type` Apple writes at the top of a transcript file.
    public static let formatType = "FoundationModels.Transcript"
    /// The format version this reader understands and writes.
    public static let formatVersion = 1

    /// Parses Apple's transcript JSON text. Throws `GeneratedContent.ParsingError` (line:column) for
    /// malformed JSON and `JSONFormatError` (JSON path) for a missing field, an unknown role or segment type.
    /// Keys it does not model (Foundation Models 27's `metadata`, later keys) are kept in `additionalFields`.
    public init(json: String) throws {
        try self.init(content: try GeneratedContent(json: json))
    }

    /// Reads Apple's transcript JSON value: `{"version": 1, "type": "FoundationModels.Transcript", "transcript": {"entries": […]}}`.
    public init(content: GeneratedContent) throws {
        let top = try ObjectReader(content, at: "", what: "a transcript file")
        let version = try top.required("version", "the format version, 1")
        guard version.intValue == Self.formatVersion else {
            throw JSONFormatError(path: top.path("version"), message: "unsupported transcript version \(version.jsonString); this reader understands version \(Self.formatVersion)")
        }
        let type = try top.string("type", "\"\(Self.formatType)\"")
        guard type == Self.formatType else {
            throw JSONFormatError(path: top.path("type"), message: "unknown type \"\(type)\"; expected \"\(Self.formatType)\"")
        }
        let body = try ObjectReader(try top.required("transcript", "the object holding the entries"), at: top.path("transcript"), what: "the transcript")
        guard let entries = try body.optionalArray("entries", "the entries") else {
            throw JSONFormatError(path: body.path, message: "missing \"entries\" (the list of transcript entries)")
        }
        self.entries = try entries.enumerated().map { try Self.entry($0.element, at: jsonPointer(body.path("entries"), String($0.offset))) }
        for (pointer, extra) in [("", top.members(except: ["version", "type", "transcript"])), ("/transcript", body.members(except: ["entries"]))] where !extra.isEmpty {
            additionalFields[pointer] = extra
        }
    }

    /// Apple's transcript JSON value.
    public var content: GeneratedContent {
        GeneratedContent(properties: [
            ("version", GeneratedContent(Self.formatVersion)),
            ("type", GeneratedContent(Self.formatType)),
            ("transcript", GeneratedContent(properties: [("entries", GeneratedContent(entries.map(Self.content(of:))))]
                + Self.sorted(additionalFields["/transcript"] ?? [:]))),
        ] + Self.sorted(additionalFields[""] ?? [:]))
    }

    /// Apple's transcript JSON text, compact.
    public var jsonString: String { content.jsonString }

    private static let roles = ["instructions", "user", "response", "tool", "reasoning"]

    private static func entry(_ content: GeneratedContent, at path: String) throws -> Entry {
        let reader = try ObjectReader(content, at: path, what: "a transcript entry")
        let role = try reader.string("role", "the entry's role: \(roles.joined(separator: ", "))")
        let id = try reader.string("id", "the entry's identifier")
        switch role {
        case "instructions":
            let tools = try reader.optionalArray("tools", "the tool definitions") ?? []
            var instructions = Instructions(id: id, segments: try segments(reader),
                toolDefinitions: try tools.enumerated().map { try ToolDefinition(content: $0.element, at: jsonPointer(reader.path("tools"), String($0.offset))) })
            instructions.additionalFields = reader.members(except: ["role", "id", "contents", "tools"])
            return .instructions(instructions)
        case "user":
            let options = try reader.optional("options").map { try GenerationOptions(content: $0, at: reader.path("options")) } ?? GenerationOptions()
            let format = try reader.optional("responseFormat").map { try responseFormat($0, at: reader.path("responseFormat")) }
            var prompt = Prompt(id: id, segments: try segments(reader), options: options, responseFormat: format)
            prompt.additionalFields = reader.members(except: ["role", "id", "contents", "options", "responseFormat"])
            return .prompt(prompt)
        case "response":
            if let calls = try reader.optionalArray("toolCalls", "the tool calls") {
                var entry = ToolCalls(id: id, calls: try calls.enumerated().map {
                    try ToolCall(content: $0.element, at: jsonPointer(reader.path("toolCalls"), String($0.offset)))
                })
                entry.additionalFields = reader.members(except: ["role", "id", "toolCalls"])
                return .toolCalls(entry)
            }
            let assets = try (reader.optionalArray("assets", "the asset identifiers") ?? []).enumerated().map {
                try ObjectReader.string($0.element, at: jsonPointer(reader.path("assets"), String($0.offset)), "an asset identifier")
            }
            var response = Response(id: id, assetIDs: assets, segments: try segments(reader))
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

    private static func segment(_ content: GeneratedContent, at path: String) throws -> Segment {
        let reader = try ObjectReader(content, at: path, what: "a segment")
        let type = try reader.string("type", "the segment type: text, structure or attachment")
        let id = try reader.string("id", "the segment's identifier")
        switch type {
        case "text":
            var text = TextSegment(id: id, content: try reader.string("text", "the segment's text"))
            text.additionalFields = reader.members(except: ["type", "id", "text"])
            return .text(text)
        case "structure":
            let structure = try ObjectReader(try reader.required("structure", "the source and content"), at: reader.path("structure"), what: "a structure")
            try structure.rejectUnknownKeys(["source", "content"], in: "a structure")
            var segment = StructuredSegment(id: id, source: try structure.string("source", "the generated type's name"),
                                            content: try structure.required("content", "the generated value"))
            segment.additionalFields = reader.members(except: ["type", "id", "structure"])
            return .structure(segment)
        case "attachment":
            try reader.rejectUnknownKeys(["type", "id", "content", "label", "url"], in: "an attachment segment")
            let label = try reader.optionalString("label", "the attachment's label")
            guard let content = reader.optional("content") else {
                return .attachment(AttachmentSegment(id: id, url: try reader.string("url", "the attachment's content ({\"image\": {…}}) or, in older files, the image URL"), label: label))
            }
            return .attachment(AttachmentSegment(id: id, content: try attachment(content, at: reader.path("content")), label: label))
        default:
            throw JSONFormatError(path: reader.path("type"), message: "unknown segment type \"\(type)\"; expected text, structure or attachment")
        }
    }

    /// `fields` as members in key order.
    private static func sorted(_ fields: [String: GeneratedContent]) -> [(String, GeneratedContent)] {
        fields.keys.sorted().map { ($0, fields[$0]!) }
    }

    /// `{"image": {"url": …, "contentType": …, "data": BASE64}}`, every member of the image optional.
    private static func attachment(_ content: GeneratedContent, at path: String) throws -> Attachment {
        let reader = try ObjectReader(content, at: path, what: "an attachment's content")
        try reader.rejectUnknownKeys(["image"], in: "an attachment's content (images are the one kind)")
        let image = try ObjectReader(try reader.required("image", "the attached image"), at: reader.path("image"), what: "an image attachment")
        try image.rejectUnknownKeys(["url", "contentType", "data"], in: "an image attachment")
        var bytes: [UInt8]?
        if let base64 = try image.optionalString("data", "the image's bytes in base64") {
            guard let data = Data(base64Encoded: base64) else {
                throw JSONFormatError(path: image.path("data"), message: "the image's data is not valid base64")
            }
            bytes = [UInt8](data)
        }
        return .image(ImageAttachment(url: try image.optionalString("url", "the image's URL"),
                                      contentType: try image.optionalString("contentType", "the image's media type"), data: bytes))
    }

    private static func responseFormat(_ content: GeneratedContent, at path: String) throws -> ResponseFormat {
        let reader = try ObjectReader(content, at: path, what: "a response format")
        try reader.rejectUnknownKeys(["type", "jsonSchema"], in: "a response format")
        let type = try reader.string("type", "the response format type, \"jsonSchema\"")
        guard type == "jsonSchema" else {
            throw JSONFormatError(path: reader.path("type"), message: "unknown response format type \"\(type)\"; expected \"jsonSchema\"")
        }
        let inner = try ObjectReader(try reader.required("jsonSchema", "the name and schema"), at: reader.path("jsonSchema"), what: "a JSON schema response format")
        try inner.rejectUnknownKeys(["name", "schema"], in: "a JSON schema response format")
        let name = try inner.string("name", "the type name")
        let schema = try inner.required("schema", "the generation schema")
        return ResponseFormat(name: name, schema: try GenerationSchema(content: schema, at: inner.path("schema")))
    }

    private static func content(of entry: Entry) -> GeneratedContent {
        var members: [(String, GeneratedContent)] = [("id", GeneratedContent(entry.id))]
        switch entry {
        case .instructions(let instructions):
            members.append(("role", "instructions"))
            members.append(("contents", content(of: instructions.segments)))
            if !instructions.toolDefinitions.isEmpty {
                members.append(("tools", GeneratedContent(instructions.toolDefinitions.map(\.content))))
            }
            members += sorted(instructions.additionalFields)
        case .prompt(let prompt):
            members.append(("role", "user"))
            members.append(("contents", content(of: prompt.segments)))
            members.append(("options", prompt.options.content))
            if let format = prompt.responseFormat {
                members.append(("responseFormat", GeneratedContent(properties: [
                    ("type", "jsonSchema"),
                    ("jsonSchema", GeneratedContent(properties: [("name", GeneratedContent(format.name)), ("schema", format.schema.content)])),
                ])))
            }
            members += sorted(prompt.additionalFields)
        case .response(let response):
            members.append(("role", "response"))
            members.append(("contents", content(of: response.segments)))
            if !response.assetIDs.isEmpty { members.append(("assets", GeneratedContent(response.assetIDs.map { GeneratedContent($0) }))) }
            members += sorted(response.additionalFields)
        case .reasoning(let reasoning):
            members.append(("role", "reasoning"))
            members.append(("contents", content(of: reasoning.segments)))
            members += sorted(reasoning.additionalFields)
        case .toolCalls(let calls):
            members.append(("role", "response"))
            members.append(("toolCalls", GeneratedContent(calls.calls.map(\.content))))
            members += sorted(calls.additionalFields)
        case .toolOutput(let output):
            members.append(("role", "tool"))
            members.append(("toolName", GeneratedContent(output.toolName)))
            if let call = output.toolCallID { members.append(("toolCallID", GeneratedContent(call))) }
            members.append(("contents", content(of: output.segments)))
            members += sorted(output.additionalFields)
        }
        return GeneratedContent(properties: members)
    }

    private static func content(of segments: [Segment]) -> GeneratedContent {
        GeneratedContent(segments.map { segment -> GeneratedContent in
            switch segment {
            case .text(let text):
                return GeneratedContent(properties: [("type", "text"), ("id", GeneratedContent(text.id)), ("text", GeneratedContent(text.content))]
                    + sorted(text.additionalFields))
            case .structure(let structure):
                return GeneratedContent(properties: [("type", "structure"), ("id", GeneratedContent(structure.id)),
                    ("structure", GeneratedContent(properties: [("source", GeneratedContent(structure.source)), ("content", structure.content)]))]
                    + sorted(structure.additionalFields))
            case .attachment(let attachment):
                var members: [(String, GeneratedContent)] = [("type", "attachment"), ("id", GeneratedContent(attachment.id))]
                if let label = attachment.label { members.append(("label", GeneratedContent(label))) }
                members.append(("content", content(of: attachment.content)))
                return GeneratedContent(properties: members)
            }
        })
    }

    private static func content(of attachment: Attachment) -> GeneratedContent {
        switch attachment {
        case .image(let image):
            var members: [(String, GeneratedContent)] = []
            if let url = image.url { members.append(("url", GeneratedContent(url))) }
            if let type = image.contentType { members.append(("contentType", GeneratedContent(type))) }
            if let data = image.data { members.append(("data", GeneratedContent(Data(data).base64EncodedString()))) }
            return GeneratedContent(properties: [("image", GeneratedContent(properties: members))])
        }
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
