extension GenerationSchema {
    /// Parses schema JSON text. Throws `GeneratedContent.ParsingError` (line:column) for malformed JSON,
    /// `JSONFormatError` (JSON path) for a wrong shape, and `SchemaError` for an unusable schema.
    public init(json: String) throws {
        try self.init(content: try GeneratedContent(json: json))
    }

    /// Reads a schema; with a `collector`, a property, element, choice or definition that cannot be read
    /// is recorded there and read as `null`, so that every problem is found in one pass.
    init(content: GeneratedContent, collector: SchemaProblemCollector?) throws {
        let reader = try ObjectReader(content, at: "", what: "a generation schema")
        var definitions: [Definition] = []
        if let defs = reader.optional("$defs") {
            let defsPath = reader.path("$defs")
            guard let members = defs.orderedProperties else {
                throw JSONFormatError(path: defsPath, message: "expected $defs as an object mapping type names to schemas, found \(defs.typeName)")
            }
            for member in members {
                definitions.append(Definition(name: member.key, node: try SchemaNodeDecoder.child(member.value, at: jsonPointer(defsPath, member.key),
                                                                                                    collector)))
            }
        }
        let root = try SchemaNodeDecoder.node(content, at: "", isRoot: true, collector: collector)
        if collector == nil {
            try self.init(root: root, definitions: definitions)
        } else {
            self.init(unchecked: root, definitions: definitions)
        }
    }

    /// Reads a schema from its JSON value; errors name the JSON path.
    public init(content: GeneratedContent) throws {
        try self.init(content: content, collector: nil)
    }

    /// Every problem of the schema JSON `content`, each located by its JSON path: `JSONFormatError`s
    /// for wrong shapes and keys the dialect cannot carry, and `SchemaError`s for an unusable schema.
    /// Empty when `init(content:)` succeeds; its error is always the first one listed here.
    public static func problems(in content: GeneratedContent) -> [Error] {
        let collector = SchemaProblemCollector()
        do {
            let schema = try GenerationSchema(content: content, collector: collector)
            collector.problems += SchemaChecker(schema: schema).problems()
        } catch {
            collector.problems.append(error)
        }
        return collector.problems
    }

    /// Reads a schema embedded in a larger document at the JSON pointer `path`; errors carry the full path.
    public init(content: GeneratedContent, at path: String) throws {
        do {
            try self.init(content: content)
        } catch let error as JSONFormatError {
            throw JSONFormatError(path: path + error.path, message: error.message, example: error.example)
        } catch let error as SchemaError {
            throw error.rebased(under: path)
        }
    }

    /// The schema's JSON value in Apple's dialect (`$defs` on the root when there are definitions).
    public var content: GeneratedContent {
        var members = SchemaNodeEncoder.members(of: root)
        if !definitions.isEmpty {
            members.append(("$defs", GeneratedContent(properties: definitions.map { ($0.name, SchemaNodeEncoder.content(of: $0.node)) })))
        }
        return GeneratedContent(properties: members)
    }

    /// Compact JSON text of the schema.
    public var jsonString: String { content.jsonString }
}

extension GenerationSchema: Codable {
    /// Decodes the schema from Apple's JSON dialect.
    public init(from decoder: Decoder) throws {
        let content = try GeneratedContent(from: decoder)
        do {
            try self.init(content: content)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "invalid generation schema: \(error)", underlyingError: error))
        }
    }

    /// Encodes the schema in Apple's JSON dialect.
    public func encode(to encoder: Encoder) throws {
        try content.encode(to: encoder)
    }
}

/// Turns one schema JSON object into a `GenerationSchema.Node`.
enum SchemaNodeDecoder {
    static let annotationKeys = ["title", "description"]
    static let keysByType: [String: [String]] = [
        "object": ["properties", "x-order", "required", "additionalProperties"],
        "string": ["enum", "pattern"],
        "integer": ["minimum", "maximum"],
        "number": ["minimum", "maximum"],
        "boolean": [],
        "null": [],
        "array": ["items", "minItems", "maxItems"],
    ]

    /// Keywords of JSON Schema that the Foundation Models dialect cannot carry, and what to write instead.
    static let unsupportedKeys: [String: String] = [
        "default": "Foundation Models schemas have no \"default\": the model writes every property it generates. "
            + "Leave the property out of \"required\" and apply the default where the value is used, or say it in the description",
        "format": "Foundation Models schemas have no \"format\"; write a \"pattern\" instead, for example "
            + "date \"\\d{4}-\\d{2}-\\d{2}\", time \"\\d{2}:\\d{2}:\\d{2}\", "
            + "uuid \"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\"",
        "maxLength": lengthRemedy("maxLength", example: "\".{0,20}\" for at most 20 characters"),
        "minLength": lengthRemedy("minLength", example: "\".{3,}\" for at least 3 characters"),
    ]

    /// Why a string length cannot be written, and the two guides that can say it.
    private static func lengthRemedy(_ key: String, example: String) -> String {
        "Foundation Models schemas have no \"\(key)\" (the device's decoder and @Guide have no length guide for "
            + "strings); bound a string with a \"pattern\", for example \(example), or, for a list, use an array "
            + "with \"minItems\"/\"maxItems\" (@Guide(.count(…)))"
    }

    /// A property, element, choice or definition: read, or (with a collector) recorded and read as `null`.
    static func child(_ content: GeneratedContent, at path: String, _ collector: SchemaProblemCollector?) throws -> GenerationSchema.Node {
        guard let collector else { return try node(content, at: path) }
        do {
            return try node(content, at: path, collector: collector)
        } catch {
            collector.problems.append(error)
            return GenerationSchema.Node(.null)
        }
    }

    static func node(_ content: GeneratedContent, at path: String, isRoot: Bool = false,
                     collector: SchemaProblemCollector? = nil) throws -> GenerationSchema.Node {
        let reader = try ObjectReader(content, at: path, what: "a schema")
        for key in unsupportedKeys.keys.sorted() where reader.optional(key) != nil {
            throw JSONFormatError(path: reader.path(key), message: unsupportedKeys[key]!)
        }
        let title = try reader.optionalString("title", "the title")
        let description = try reader.optionalString("description", "the description")
        let rootKeys = isRoot ? ["$defs"] : []
        if let reference = reader.optional("$ref") {
            try reader.rejectUnknownKeys(["$ref"] + annotationKeys + rootKeys, in: "a $ref schema")
            let text = try ObjectReader.string(reference, at: reader.path("$ref"), "the $ref")
            return GenerationSchema.Node(.reference(try referenceName(text, at: reader.path("$ref"))), title: title, description: description)
        }
        if let choices = try anyOfChoices(reader, content) {
            try reader.rejectUnknownKeys(["anyOf"] + annotationKeys + rootKeys, in: "an anyOf schema")
            let nodes = try choices.enumerated().map { try child($0.element, at: jsonPointer(reader.path("anyOf"), String($0.offset)), collector) }
            return GenerationSchema.Node(.anyOf(nodes), title: title, description: description)
        }
        guard reader.optional("type") != nil else { throw missingType(content, at: reader.path) }
        let type = try reader.string("type", "the JSON type: \(typeWords); or use $ref or anyOf")
        guard let typeKeys = keysByType[type] else {
            throw JSONFormatError(path: reader.path("type"), message: "unknown type \"\(type)\"; use object, string, integer, number, boolean, null or array")
        }
        if type == "integer" || type == "number", let values = try reader.optionalArray("enum", "the enum values") {
            try reader.rejectUnknownKeys(["type", "enum"] + annotationKeys + rootKeys, in: "a \(type) enum")
            return GenerationSchema.Node(.anyOf(try numberChoices(values, type: type, at: reader.path("enum"))),
                                         title: title, description: description)
        }
        try reader.rejectUnknownKeys(["type"] + typeKeys + annotationKeys + rootKeys, in: "a schema of type \(type)")
        let kind: GenerationSchema.Kind
        switch type {
        case "object": kind = .object(try object(reader, collector))
        case "string":
            var choices: [String]?
            if let values = try reader.optionalArray("enum", "the enum values") {
                choices = try values.enumerated().map {
                    try ObjectReader.string($0.element, at: jsonPointer(reader.path("enum"), String($0.offset)), "an enum value")
                }
            }
            kind = .string(.init(choices: choices, pattern: try reader.optionalString("pattern", "the pattern")))
        case "integer", "number":
            let bounds = GenerationSchema.NumberBounds(minimum: try reader.optionalNumber("minimum", "the minimum"),
                                                       maximum: try reader.optionalNumber("maximum", "the maximum"),
                                                       exactMinimum: reader.optional("minimum")?.exactInteger,
                                                       exactMaximum: reader.optional("maximum")?.exactInteger)
            kind = type == "integer" ? .integer(bounds) : .number(bounds)
        case "boolean": kind = .boolean
        case "null": kind = .null
        default:
            let items = try reader.required("items", "the schema of the array's elements")
            kind = .array(.init(items: try child(items, at: reader.path("items"), collector),
                                minItems: try reader.optionalCount("minItems", "minItems"),
                                maxItems: try reader.optionalCount("maxItems", "maxItems")))
        }
        return GenerationSchema.Node(kind, title: title, description: description)
    }

    static func referenceName(_ text: String, at path: String) throws -> String {
        if text == "#" { return "#" }
        let prefix = "#/$defs/"
        guard text.hasPrefix(prefix), text.count > prefix.count else {
            throw JSONFormatError(path: path, message: "unsupported $ref \"\(text)\"; write \"#\" for the root or \"#/$defs/NAME\"")
        }
        return unescapePointerToken(text.dropFirst(prefix.count))
    }

    /// An integer or number `enum`, as the dialect carries it: an `anyOf` of single-value ranges
    /// (`minimum` = `maximum` = each value).
    static func numberChoices(_ values: [GeneratedContent], type: String, at path: String) throws -> [GenerationSchema.Node] {
        try values.enumerated().map { index, value in
            guard case .number(let number) = value.kind, number.isFinite else {
                throw JSONFormatError(path: jsonPointer(path, String(index)), message: "expected a number as an enum value of a \(type), found \(value.typeName)")
            }
            if type == "integer" && number.rounded() != number {
                throw JSONFormatError(path: jsonPointer(path, String(index)),
                                      message: "an integer enum value must be a whole number, not \(value.jsonString); use type number")
            }
            let bounds = GenerationSchema.NumberBounds(minimum: number, maximum: number, exactMinimum: value.exactInteger,
                                                       exactMaximum: value.exactInteger)
            return GenerationSchema.Node(type == "integer" ? .integer(bounds) : .number(bounds))
        }
    }

    static func object(_ reader: ObjectReader, _ collector: SchemaProblemCollector?) throws -> GenerationSchema.ObjectSchema {
        let propertiesPath = reader.path("properties")
        let additional = try reader.optionalBool("additionalProperties", "additionalProperties")
        let declared = reader.optional("properties")
        if declared == nil && additional != false || additional == true && declared?.orderedProperties?.isEmpty == true {
            throw JSONFormatError(path: reader.path, message: "a free-form object (no properties) cannot be declared in the Foundation Models "
                + "dialect: every object it generates has a fixed set of properties. List the properties (an object that takes none is "
                + "\"properties\": {}), or take the data as a string holding JSON")
        }
        var members: [(key: String, value: GeneratedContent)] = []
        if let properties = declared {
            guard let ordered = properties.orderedProperties else {
                throw JSONFormatError(path: propertiesPath, message: "expected properties as an object mapping names to schemas, found \(properties.typeName)")
            }
            members = ordered
        }
        var order = members.map(\.key)
        if let xOrder = try reader.optionalArray("x-order", "the property order") {
            let names = try xOrder.enumerated().map {
                try ObjectReader.string($0.element, at: jsonPointer(reader.path("x-order"), String($0.offset)), "a property name")
            }
            var seen = Set<String>()
            for (position, name) in names.enumerated() {
                guard seen.insert(name).inserted else {
                    throw SchemaError.duplicateProperty(schema: reader.optional("title")?.stringValue ?? "object",
                                                        property: name, path: jsonPointer(reader.path("x-order"), String(position)))
                }
                guard members.contains(where: { $0.key == name }) else {
                    throw JSONFormatError(path: jsonPointer(reader.path("x-order"), String(position)),
                                          message: "x-order names \"\(name)\", which is not in properties; add it to properties or remove it")
                }
            }
            if let left = order.firstIndex(where: { !seen.contains($0) }) {
                throw JSONFormatError(path: reader.path("x-order"),
                                      message: "x-order leaves out \"\(order[left])\": the device generates "
                    + "only the properties x-order lists, so it would never be written; add it to x-order "
                    + "(or remove x-order to generate the properties in the order they are written)")
            }
            order = names
        }
        var required = Set<String>()
        if let names = try reader.optionalArray("required", "the required property names") {
            for (position, value) in names.enumerated() {
                let itemPath = jsonPointer(reader.path("required"), String(position))
                let name = try ObjectReader.string(value, at: itemPath, "a property name")
                guard members.contains(where: { $0.key == name }) else {
                    throw JSONFormatError(path: itemPath, message: "required names \"\(name)\", which is not in properties; add it to properties or remove it")
                }
                required.insert(name)
            }
        }
        let byName = Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        let properties = try order.map { name in
            GenerationSchema.Property(name: name, node: try child(byName[name]!, at: jsonPointer(propertiesPath, name), collector),
                                      isRequired: required.contains(name))
        }
        return .init(properties: properties, additionalProperties: additional)
    }
}

/// The problems found while reading a schema in `GenerationSchema.problems(in:)`, in the order found.
final class SchemaProblemCollector {
    /// The problems so far.
    var problems: [Error] = []
}

/// Turns a `GenerationSchema.Node` into its JSON value.
enum SchemaNodeEncoder {
    static func content(of node: GenerationSchema.Node) -> GeneratedContent {
        GeneratedContent(properties: members(of: node))
    }

    static func members(of node: GenerationSchema.Node) -> [(String, GeneratedContent)] {
        var members: [(String, GeneratedContent)] = []
        if let title = node.title { members.append(("title", GeneratedContent(title))) }
        if let description = node.description { members.append(("description", GeneratedContent(description))) }
        if let type = node.typeName { members.append(("type", GeneratedContent(type))) }
        switch node.kind {
        case .object(let object):
            members.append(("properties", GeneratedContent(properties: object.properties.map { ($0.name, content(of: $0.node)) })))
            let required = object.requiredNames
            if !required.isEmpty { members.append(("required", GeneratedContent(required.map { GeneratedContent($0) }))) }
            members.append(("x-order", GeneratedContent(object.properties.map { GeneratedContent($0.name) })))
            if let additional = object.additionalProperties { members.append(("additionalProperties", GeneratedContent(additional))) }
        case .string(let string):
            if let choices = string.choices { members.append(("enum", GeneratedContent(choices.map { GeneratedContent($0) }))) }
            if let pattern = string.pattern { members.append(("pattern", GeneratedContent(pattern))) }
        case .integer(let bounds), .number(let bounds):
            if let minimum = bounds.minimum { members.append(("minimum", GenerationSchema.NumberBounds.content(minimum, exact: bounds.exactMinimum))) }
            if let maximum = bounds.maximum { members.append(("maximum", GenerationSchema.NumberBounds.content(maximum, exact: bounds.exactMaximum))) }
        case .array(let array):
            members.append(("items", content(of: array.items)))
            if let minimum = array.minItems { members.append(("minItems", GeneratedContent(minimum))) }
            if let maximum = array.maxItems { members.append(("maxItems", GeneratedContent(maximum))) }
        case .reference(let name):
            members.append(("$ref", GeneratedContent(GenerationSchema.referenceString(name))))
        case .anyOf(let choices):
            members.append(("anyOf", GeneratedContent(choices.map { content(of: $0) })))
        case .boolean, .null:
            break
        }
        return members
    }
}
