/// A tool the model may call: its name, what it does, and the schema of its arguments.
public struct ToolDefinition: Hashable, Sendable {
    /// The name the model calls it by.
    public var name: String
    /// What the tool does, shown to the model.
    public var description: String
    /// The schema of the arguments object.
    public var parameters: GenerationSchema

    /// Creates a tool definition.
    public init(name: String, description: String, parameters: GenerationSchema) {
        self.name = name
        self.description = description
        self.parameters = parameters
    }

    /// Reads Apple's form `{"type": "function", "function": {"name", "description", "parameters"}}`.
    public init(content: GeneratedContent, at path: String = "") throws {
        let outer = try ObjectReader(content, at: path, what: "a tool definition")
        try outer.rejectUnknownKeys(["type", "function"], in: "a tool definition")
        let type = try outer.string("type", "the tool type, \"function\"")
        guard type == "function" else {
            throw JSONFormatError(path: outer.path("type"), message: "unknown tool type \"\(type)\"; only \"function\" is supported")
        }
        let function = try ObjectReader(try outer.required("function", "the function's name, description and parameters"),
                                        at: outer.path("function"), what: "a function")
        try function.rejectUnknownKeys(["name", "description", "parameters"], in: "a function")
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
            ])),
        ])
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

    /// Creates a tool call.
    public init(id: String, name: String, arguments: GeneratedContent) {
        self.id = id
        self.name = name
        self.arguments = arguments
    }

    /// Reads Apple's form `{"id", "name", "arguments": "<JSON text>"}` (an arguments object is accepted too).
    public init(content: GeneratedContent, at path: String = "") throws {
        let reader = try ObjectReader(content, at: path, what: "a tool call")
        try reader.rejectUnknownKeys(["id", "name", "arguments"], in: "a tool call")
        id = try reader.string("id", "the call identifier")
        name = try reader.string("name", "the tool name")
        let arguments = try reader.required("arguments", "the arguments as a JSON string")
        if let text = arguments.stringValue {
            do {
                self.arguments = try GeneratedContent(json: text)
            } catch let error as GeneratedContent.ParsingError {
                throw JSONFormatError(path: reader.path("arguments"), message: "the arguments string is not valid JSON (\(error))")
            }
        } else {
            self.arguments = arguments
        }
    }

    /// Apple's JSON form: the arguments as a one-line JSON string, spaced as Apple writes it.
    public var content: GeneratedContent {
        GeneratedContent(properties: [("id", GeneratedContent(id)), ("name", GeneratedContent(name)), ("arguments", GeneratedContent(arguments.spacedJSONString))])
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
