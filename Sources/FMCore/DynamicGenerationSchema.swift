/// A schema built at run time (Apple's `DynamicGenerationSchema`): objects, string choices, `anyOf`,
/// arrays and references by name, turned into a checked `GenerationSchema` with `GenerationSchema(root:dependencies:)`.
public struct DynamicGenerationSchema: Hashable, Sendable {
    /// The type name (objects and choices have one; it becomes the `title` and the `$defs` key).
    public var name: String?
    /// The schema this builds, with references still by type name.
    var node: GenerationSchema.Node

    /// One property of a dynamic object schema.
    public struct Property: Hashable, Sendable {
        /// The key.
        public var name: String
        /// Guide text for the property.
        public var description: String?
        /// The schema of the value.
        public var schema: DynamicGenerationSchema
        /// True when the property may be absent.
        public var isOptional: Bool

        /// Creates a property.
        public init(name: String, description: String? = nil, schema: DynamicGenerationSchema, isOptional: Bool = false) {
            self.name = name
            self.description = description
            self.schema = schema
            self.isOptional = isOptional
        }
    }

    /// An object type named `name` with properties in generation order.
    public init(name: String, description: String? = nil, properties: [Property]) {
        self.name = name
        let members = properties.map { property -> GenerationSchema.Property in
            var node = property.schema.node
            if let description = property.description { node.description = description }
            return GenerationSchema.Property(name: property.name, node: node, isRequired: !property.isOptional)
        }
        self.node = GenerationSchema.Node(.object(.init(properties: members)), title: name, description: description)
    }

    /// A string type named `name` that must be one of `choices` (an `enum`).
    public init(name: String, description: String? = nil, anyOf choices: [String]) {
        self.name = name
        self.node = GenerationSchema.Node(.string(.init(choices: choices)), title: name, description: description)
    }

    /// A type named `name` whose values match one of `choices`.
    public init(name: String, description: String? = nil, anyOf choices: [DynamicGenerationSchema]) {
        self.name = name
        self.node = GenerationSchema.Node(.anyOf(choices.map(\.node)), title: name, description: description)
    }

    /// An array of `element` with optional element counts.
    public init(arrayOf element: DynamicGenerationSchema, minimumElements: Int? = nil, maximumElements: Int? = nil) {
        self.name = nil
        self.node = GenerationSchema.Node(.array(.init(items: element.node, minItems: minimumElements, maxItems: maximumElements)))
    }

    /// A reference to the type named `name` (the root's name or a dependency's).
    public init(referenceTo name: String) {
        self.name = nil
        self.node = GenerationSchema.Node(.reference(name))
    }

    /// An anonymous schema from a node (strings with patterns, bounded numbers, booleans …).
    public init(_ node: GenerationSchema.Node) {
        self.name = nil
        self.node = node
    }

    /// A plain string.
    public static let string = DynamicGenerationSchema(GenerationSchema.Node(.string(.init())))
    /// A plain integer.
    public static let integer = DynamicGenerationSchema(GenerationSchema.Node(.integer(.init())))
    /// A plain number.
    public static let number = DynamicGenerationSchema(GenerationSchema.Node(.number(.init())))
    /// A boolean.
    public static let boolean = DynamicGenerationSchema(GenerationSchema.Node(.boolean))
}

extension GenerationSchema {
    /// Builds a checked schema from `root` and the named types it refers to.
    ///
    /// Each dependency becomes a `$defs` entry; a reference to the root's own name becomes `"#"`.
    /// Throws `SchemaError` for duplicate type names or properties, empty choices and undefined references.
    public init(root: DynamicGenerationSchema, dependencies: [DynamicGenerationSchema]) throws {
        var seen = Set<String>()
        if let name = root.name { seen.insert(name) }
        var definitions: [Definition] = []
        for (position, dependency) in dependencies.enumerated() {
            guard let name = dependency.name else {
                throw JSONFormatError(path: "/$defs", message: "dependency \(position) has no name; only named types (objects, choices, anyOf) can be referred to")
            }
            guard seen.insert(name).inserted else {
                throw SchemaError.duplicateType(type: name, path: jsonPointer("/$defs", name))
            }
            definitions.append(Definition(name: name, node: Self.rootReferences(in: dependency.node, rootName: root.name)))
        }
        try self.init(root: Self.rootReferences(in: root.node, rootName: root.name), definitions: definitions)
    }

    /// `node` with references to `rootName` rewritten to `"#"`.
    private static func rootReferences(in node: Node, rootName: String?) -> Node {
        var result = node
        switch node.kind {
        case .reference(let name) where name == rootName:
            result.kind = .reference("#")
        case .object(var object):
            object.properties = object.properties.map { property in
                var property = property
                property.node = rootReferences(in: property.node, rootName: rootName)
                return property
            }
            result.kind = .object(object)
        case .array(var array):
            array.items = rootReferences(in: array.items, rootName: rootName)
            result.kind = .array(array)
        case .anyOf(let choices):
            result.kind = .anyOf(choices.map { rootReferences(in: $0, rootName: rootName) })
        case .reference, .string, .integer, .number, .boolean, .null:
            break
        }
        return result
    }
}
