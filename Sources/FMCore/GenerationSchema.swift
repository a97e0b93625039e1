/// A Foundation Models generation schema: the JSON-Schema dialect Apple's framework writes
/// (`title`, `x-order`, `required`, `additionalProperties`, `$defs`/`$ref`, `enum`, `anyOf`, bounds, `pattern`).
///
/// A root node plus named definitions (`$defs`, in order). Construction checks the schema and throws
/// `SchemaError`; use `resolve(_:)` to follow references while walking it.
public struct GenerationSchema: Hashable, Sendable {
    /// The schema of the generated value.
    public private(set) var root: Node
    /// Named schemas that `$ref` nodes point to, in order.
    public private(set) var definitions: [Definition]
    /// Position of each definition by name.
    private var definitionIndex: [String: Int]

    /// A checked schema; throws `SchemaError` for duplicate definitions or properties, empty choices,
    /// undefined references or invalid patterns.
    public init(root: Node, definitions: [Definition] = []) throws {
        self.root = root
        self.definitions = definitions
        self.definitionIndex = [:]
        for (position, definition) in definitions.enumerated() {
            if definitionIndex[definition.name] != nil {
                throw SchemaError.duplicateType(type: definition.name, path: jsonPointer("/$defs", definition.name))
            }
            definitionIndex[definition.name] = position
        }
        try SchemaChecker(schema: self).check()
    }

    /// A schema built without checks; `problems(in:)` checks it and reports every problem at once.
    init(unchecked root: Node, definitions: [Definition]) {
        self.root = root
        self.definitions = definitions
        self.definitionIndex = [:]
        for (position, definition) in definitions.enumerated() where definitionIndex[definition.name] == nil {
            definitionIndex[definition.name] = position
        }
    }

    /// One named schema in `$defs`.
    public struct Definition: Hashable, Sendable {
        /// The name `$ref` uses (`#/$defs/NAME`).
        public var name: String
        /// The schema.
        public var node: Node

        /// Creates a definition.
        public init(name: String, node: Node) {
            self.name = name
            self.node = node
        }
    }

    /// A schema node: its kind plus the annotations any node may carry.
    public struct Node: Hashable, Sendable {
        /// What values the node accepts.
        public var kind: Kind
        /// `title`: the type name Apple writes for generable types.
        public var title: String?
        /// `description`: the guide text shown to the model.
        public var description: String?

        /// Creates a node.
        public init(_ kind: Kind, title: String? = nil, description: String? = nil) {
            self.kind = kind
            self.title = title
            self.description = description
        }
    }

    /// The kinds of schema node.
    public indirect enum Kind: Hashable, Sendable {
        /// `type: object` with properties in `x-order`.
        case object(ObjectSchema)
        /// `type: string`, optionally with `enum` or `pattern`.
        case string(StringSchema)
        /// `type: integer` with optional bounds.
        case integer(NumberBounds)
        /// `type: number` with optional bounds.
        case number(NumberBounds)
        /// `type: boolean`.
        case boolean
        /// `type: null`.
        case null
        /// `type: array` with `items` and optional counts.
        case array(ArraySchema)
        /// `$ref`: a definition name, or `"#"` for the root.
        case reference(String)
        /// `anyOf`: a value matching at least one of the choices.
        case anyOf([Node])
    }

    /// An object's properties and rules.
    public struct ObjectSchema: Hashable, Sendable {
        /// Properties in generation order (`x-order`).
        public var properties: [Property]
        /// `additionalProperties`; nil when the schema does not say (JSON Schema then allows extras).
        public var additionalProperties: Bool?

        /// Creates an object schema; Apple's schemas forbid extra properties.
        public init(properties: [Property], additionalProperties: Bool? = false) {
            self.properties = properties
            self.additionalProperties = additionalProperties
        }

        /// The property named `name`.
        public func property(named name: String) -> Property? { properties.first { $0.name == name } }
        /// Names of the required properties, in `x-order`.
        public var requiredNames: [String] { properties.filter(\.isRequired).map(\.name) }
    }

    /// One property of an object.
    public struct Property: Hashable, Sendable {
        /// The key.
        public var name: String
        /// The schema of the value.
        public var node: Node
        /// False for an optional property (one absent from `required`).
        public var isRequired: Bool

        /// Creates a property.
        public init(name: String, node: Node, isRequired: Bool = true) {
            self.name = name
            self.node = node
            self.isRequired = isRequired
        }
    }

    /// A string's constraints.
    public struct StringSchema: Hashable, Sendable {
        /// `enum`: the only values allowed, when set.
        public var choices: [String]?
        /// `pattern`: a regular expression the whole string must match, when set.
        public var pattern: String?

        /// Creates string constraints.
        public init(choices: [String]? = nil, pattern: String? = nil) {
            self.choices = choices
            self.pattern = pattern
        }
    }

    /// Inclusive bounds of a number or integer.
    public struct NumberBounds: Hashable, Sendable {
        /// `minimum`, inclusive.
        public var minimum: Double?
        /// `maximum`, inclusive.
        public var maximum: Double?
        /// The exact `minimum` when it was written as an integer a `Double` cannot hold (beyond ±2^53).
        public var exactMinimum: ExactInteger?
        /// The exact `maximum` when it was written as an integer a `Double` cannot hold (beyond ±2^53).
        public var exactMaximum: ExactInteger?

        /// Creates bounds.
        public init(minimum: Double? = nil, maximum: Double? = nil, exactMinimum: ExactInteger? = nil, exactMaximum: ExactInteger? = nil) {
            self.minimum = minimum
            self.maximum = maximum
            self.exactMinimum = exactMinimum
            self.exactMaximum = exactMaximum
        }

        /// The JSON value of a bound, with its exact digits when it has them.
        public static func content(_ bound: Double, exact: ExactInteger?) -> GeneratedContent {
            var content = GeneratedContent(bound)
            content.exactInteger = exact
            return content
        }
    }

    /// An array's element schema and counts.
    public struct ArraySchema: Hashable, Sendable {
        /// `items`: the schema of every element.
        public var items: Node
        /// `minItems`, inclusive.
        public var minItems: Int?
        /// `maxItems`, inclusive.
        public var maxItems: Int?

        /// Creates an array schema.
        public init(items: Node, minItems: Int? = nil, maxItems: Int? = nil) {
            self.items = items
            self.minItems = minItems
            self.maxItems = maxItems
        }
    }

    /// The definition named `name` (`"#"` is the root).
    public func definition(named name: String) -> Node? {
        if name == "#" { return root }
        return definitionIndex[name].map { definitions[$0].node }
    }

    /// `node` with references followed until a non-reference node; nil for an undefined or circular reference.
    public func resolve(_ node: Node) -> Node? {
        var current = node
        var seen = Set<String>()
        while case .reference(let name) = current.kind {
            guard seen.insert(name).inserted, let target = definition(named: name) else { return nil }
            current = target
        }
        return current
    }

    /// The name a `$ref` to `name` is written with: `#` or `#/$defs/NAME`.
    public static func referenceString(_ name: String) -> String {
        name == "#" ? "#" : "#/$defs/" + name
    }
}

extension GenerationSchema.Node {
    /// The JSON Schema `type` word of this node (`reference`/`anyOf` have none).
    public var typeName: String? {
        switch kind {
        case .object: return "object"
        case .string: return "string"
        case .integer: return "integer"
        case .number: return "number"
        case .boolean: return "boolean"
        case .null: return "null"
        case .array: return "array"
        case .reference, .anyOf: return nil
        }
    }
}
