import FMCore

/// `fmeval schema check SCHEMA.json INSTANCE.json`: every violation of a schema in an instance, as JSON.
struct SchemaCheckCommand: Command {
    static let path = ["schema", "check"]
    static let summary = "Check a JSON instance against a GenerationSchema; print every violation as JSON"
    static let dialect = Flag("--dialect", .value("fmeval|device"),
                              help: "the dialect the schema is read in (default: fmeval)")
    static let usage = CommandUsage("schema check", flags: FlagTable(dialect), after: "SCHEMA.json INSTANCE.json")
    static let help = """
    \(usage.line)

    Validates INSTANCE.json against SCHEMA.json (the Foundation Models JSON-Schema dialect: title, type,
    properties + x-order, required, additionalProperties, $defs/$ref, enum, minimum/maximum,
    minItems/maxItems, pattern, anyOf) and prints

      {"valid": BOOL, "violations": [{"path", "keyword", "expected", "actual", "message"}]}

    where path is a JSON pointer into the instance and keyword is one of type, enum, required,
    additionalProperties, minimum, maximum, minItems, maxItems, pattern, anyOf. Every violation is
    reported, not just the first. Use - for either file to read standard input.

    A pattern must match the whole string (as Foundation Models' pattern guide enforces it when
    generating), not just a part of it as plain JSON Schema would; patterns outside the supported
    subset (docs/guided-generation.md) are refused when the schema is read. Integers are compared
    exactly, also beyond 2^53.

    --dialect device also refuses, at each offending value, what the on-device decoder refuses
    (Foundation Models 27's GenerationSchema decoder): an object without title, required, x-order or
    additionalProperties (in $defs too). Both dialects refuse an x-order that leaves out a property (the
    device generates only the properties x-order lists). The default dialect, fmeval, reads what fmeval can run.

    OPTIONS:
    \(usage.flags.list(column: 25))

    EXIT CODES: 0 valid · 1 violations found · 2 unreadable file, malformed JSON, invalid schema, a
    schema the chosen dialect refuses, or an unknown --dialect.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let parser = try Arguments(arguments, command: "schema check", flags: usage.flags)
        let dialect = parser.value(Self.dialect) ?? "fmeval"
        let files = parser.positionals
        guard ["fmeval", "device"].contains(dialect) else {
            throw Fault.invalidInput("schema check: --dialect \(dialect) is not a dialect; use fmeval or device")
        }
        guard files.count == 2 else {
            throw Fault.invalidInput("schema check: expected SCHEMA.json and INSTANCE.json, got \(files.count) argument\(files.count == 1 ? "" : "s"); see 'fmeval help schema check'")
        }
        let document = try loadDocument(files[0])
        let schema = try document.decodeForCommand { try GenerationSchema(content: $0) }
        if dialect == "device" {
            let refused = DeviceSchemaDialect.problems(in: document.content).map {
                JSONDocumentError(file: document.file, location: document.location(of: $0.path), pointer: $0.path, message: $0.message)
            }
            if !refused.isEmpty { throw Fault.invalidInput(refused.map(\.description).joined(separator: "\n")) }
        }
        let instance = try loadDocument(files[1]).content
        let violations = SchemaValidator.violations(of: instance, against: schema)
        let report = GeneratedContent(properties: [
            ("valid", GeneratedContent(violations.isEmpty)),
            ("violations", GeneratedContent(violations.map(\.content))),
        ])
        printJSON(report.jsonString(indent: 2))
        return violations.isEmpty ? ExitStatus.ok : ExitStatus.failed
    }
}

/// Loads a JSON file for a command; any problem becomes an invalid-input error naming file and line:column.
func loadDocument(_ path: String) throws -> JSONDocument {
    do {
        return try JSONDocument.load(path: path)
    } catch let error as JSONDocumentError {
        throw Fault.invalidInput(error.description)
    }
}

extension JSONDocument {
    /// `decode(_:)` for commands: a shape or schema problem becomes an invalid-input error.
    func decodeForCommand<Value>(_ read: (GeneratedContent) throws -> Value) throws -> Value {
        do {
            return try decode(read)
        } catch let error as JSONDocumentError {
            throw Fault.invalidInput(error.description)
        }
    }
}
