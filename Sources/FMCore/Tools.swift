/// A tool the model may call: its name, what it does, and the schema of its arguments.
public struct ToolDefinition: Hashable, Sendable {
    /// The name the model calls it by.
    public var name: String
    /// What the tool does, shown to the model.
    public var description: String
    /// The schema of the arguments object.
    public var parameters: GenerationSchema
    /// Members of a transcript's definition this reader does not model, written back unchanged.
    public var additionalFields: [String: GeneratedContent] = [:]
    /// Members of its `function` object besides `name`, `description` and `parameters`, written back unchanged.
    public var functionFields: [String: GeneratedContent] = [:]

    /// Creates a tool definition.
    public init(name: String, description: String, parameters: GenerationSchema) {
        self.name = name
        self.description = description
        self.parameters = parameters
    }

    /// Reads Apple's form `{"type": "function", "function": {"name", "description", "parameters"}}`; a
    /// transcript's definitions (`keepingUnknownKeys`) keep members it does not model.
    public init(content: GeneratedContent, at path: String = "", keepingUnknownKeys: Bool = false) throws {
        let outer = try ObjectReader(content, at: path, what: "a tool definition")
        if keepingUnknownKeys {
            additionalFields = outer.members(except: ["type", "function"])
        } else {
            try outer.rejectUnknownKeys(["type", "function"], in: "a tool definition")
        }
        let type = try outer.string("type", "the tool type, \"function\"")
        guard type == "function" else {
            throw JSONFormatError(path: outer.path("type"), message: "unknown tool type \"\(type)\"; only \"function\" is supported")
        }
        let function = try ObjectReader(try outer.required("function", "the function's name, description and parameters"),
                                        at: outer.path("function"), what: "a function")
        if keepingUnknownKeys {
            functionFields = function.members(except: ["name", "description", "parameters"])
        } else {
            try function.rejectUnknownKeys(["name", "description", "parameters"], in: "a function")
        }
        name = try function.string("name", "the tool name")
        description = try function.optionalString("description", "the tool description") ?? ""
        let parameters = try function.required("parameters", "the arguments schema")
        self.parameters = try GenerationSchema(content: parameters, at: function.path("parameters"))
    }

    /// Apple's JSON form of the definition.
    public var content: GeneratedContent {
        GeneratedContent(properties: [
            ("type", "function"),
            ("function", GeneratedContent(properties: [
                ("name", GeneratedContent(name)),
                ("description", GeneratedContent(description)),
                ("parameters", parameters.content),
            ] + sortedMembers(functionFields))),
        ] + sortedMembers(additionalFields))
    }
}

/// One call the model made to a tool.
public struct ToolCall: Hashable, Sendable {
    /// The call's identifier; the tool's output refers back to it.
    public var id: String
    /// The tool called.
    public var name: String
    /// The arguments object the model generated.
    public var arguments: GeneratedContent
    /// The arguments string exactly as a transcript file held it; written back while it still parses to `arguments`.
    @WrittenForm public var argumentsText: String?
    /// Members of a transcript's call this reader does not model (Foundation Models 27's `metadata`), kept as read.
    public var additionalFields: [String: GeneratedContent] = [:]

    /// Creates a tool call.
    public init(id: String, name: String, arguments: GeneratedContent) {
        self.id = id
        self.name = name
        self.arguments = arguments
    }

    /// Reads Apple's form `{"id", "name", "arguments": "<JSON text>"}` (an arguments object is accepted too);
    /// a transcript's calls (`keepingUnknownKeys`) keep members it does not model.
    public init(content: GeneratedContent, at path: String = "", keepingUnknownKeys: Bool = false) throws {
        let reader = try ObjectReader(content, at: path, what: "a tool call")
        if keepingUnknownKeys {
            additionalFields = reader.members(except: ["id", "name", "arguments"])
        } else {
            try reader.rejectUnknownKeys(["id", "name", "arguments"], in: "a tool call")
        }
        id = try reader.string("id", "the call identifier")
        name = try reader.string("name", "the tool name")
        let arguments = try reader.required("arguments", "the arguments as a JSON string")
        if let text = arguments.stringValue {
            do {
                self.arguments = try GeneratedContent(json: text)
                argumentsText = text
            } catch let error as GeneratedContent.ParsingError {
                throw JSONFormatError(path: reader.path("arguments"), message: "the arguments string is not valid JSON (\(error))")
            }
        } else {
            self.arguments = arguments
        }
    }

    /// Apple's JSON form: the arguments as a one-line JSON string, spaced as Apple writes it (or as read).
    public var content: GeneratedContent {
        let text = argumentsText.flatMap { (try? GeneratedContent(json: $0)) == arguments ? $0 : nil } ?? arguments.spacedJSONString
        return GeneratedContent(properties: [("id", GeneratedContent(id)), ("name", GeneratedContent(name)),
                                             ("arguments", GeneratedContent(text))] + sortedMembers(additionalFields))
    }
}

extension ToolDefinition: Codable {
    /// Decodes Apple's JSON form.
    public init(from decoder: Decoder) throws {
        self = try decodeThroughContent(decoder, what: "tool definition") { try ToolDefinition(content: $0) }
    }

    /// Encodes Apple's JSON form.
    public func encode(to encoder: Encoder) throws { try content.encode(to: encoder) }
}

extension ToolCall: Codable {
    /// Decodes Apple's JSON form.
    public init(from decoder: Decoder) throws {
        self = try decodeThroughContent(decoder, what: "tool call") { try ToolCall(content: $0) }
    }

    /// Encodes Apple's JSON form.
    public func encode(to encoder: Encoder) throws { try content.encode(to: encoder) }
}

/// Decodes a `GeneratedContent` and reads a value from it, turning format errors into `DecodingError`.
func decodeThroughContent<Value>(_ decoder: Decoder, what: String, _ read: (GeneratedContent) throws -> Value) throws -> Value {
    let content = try GeneratedContent(from: decoder)
    do {
        return try read(content)
    } catch {
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "invalid \(what): \(error)", underlyingError: error))
    }
}

/// `fields` as members in key order.
func sortedMembers(_ fields: [String: GeneratedContent]) -> [(String, GeneratedContent)] {
    fields.keys.sorted().map { ($0, fields[$0]!) }
}
