import FMCore

extension EngineRegistry {
    /// Help text listing every engine with its summary and options, then the reserved names
    /// (`fmeval run --help`, `fmeval respond --help`), each line indented by `indent` spaces.
    public static func helpText(indent: Int = 2) -> String {
        let pad = String(repeating: " ", count: indent)
        let width = (knownNames.map(\.count).max() ?? 0) + 2
        func padded(_ name: String) -> String { name + String(repeating: " ", count: max(1, width - name.count)) }
        var lines: [String] = []
        for descriptor in descriptors {
            lines.append(pad + padded(descriptor.name) + descriptor.summary)
            for option in descriptor.options {
                let flags = option.type.rawValue + (option.isRequired ? ", required" : "")
                let fallback = option.defaultValue.map { "; default \($0.jsonString)" } ?? ""
                lines.append(pad + "  \(option.name) (\(flags)): \(option.summary)\(fallback)")
            }
        }
        for engine in reserved {
            lines.append(pad + padded(engine.name) + "reserved for \(engine.summary); not available in this build")
        }
        return lines.joined(separator: "\n")
    }

    /// The JSON Schema (draft 2020-12) of a suite's `engine:` value: a name, or `{name, OPTION: value…}`
    /// closed over each available engine's options (reserved names take any options).
    public static var jsonSchemaDefinition: String {
        let available = descriptors.map(\.name).joined(separator: ", ")
        let reservedNames = reserved.map(\.name)
        let description = "The engine: a name, or {name, OPTION: value, ...}. Available: \(available) (default \(defaultEngine)); \(reservedNames.joined(separator: " and ")) are reserved (a run naming them exits 3)."
        var objects: [GeneratedContent] = descriptors.map { descriptor in
            var properties: [(String, GeneratedContent)] = [("name", GeneratedContent(properties: [("const", GeneratedContent(descriptor.name))]))]
            for option in descriptor.options {
                properties.append((option.name, GeneratedContent(properties: [
                    ("type", GeneratedContent(option.type.rawValue)), ("description", GeneratedContent(option.summary)),
                ] + (option.defaultValue.map { [("default", $0)] } ?? []))))
            }
            let required = ["name"] + descriptor.options.filter(\.isRequired).map(\.name)
            return GeneratedContent(properties: [
                ("type", GeneratedContent("object")), ("description", GeneratedContent("\(descriptor.name): \(descriptor.summary)")),
                ("required", GeneratedContent(required.map { GeneratedContent($0) })),
                ("additionalProperties", GeneratedContent(false)),
                ("properties", GeneratedContent(properties: properties)),
            ])
        }
        objects.append(GeneratedContent(properties: [
            ("type", GeneratedContent("object")), ("description", GeneratedContent("A reserved engine; its options are not checked in this build.")),
            ("required", GeneratedContent([GeneratedContent("name")])),
            ("properties", GeneratedContent(properties: [("name", GeneratedContent(properties: [("enum", GeneratedContent(reservedNames.map { GeneratedContent($0) }))]))])),
        ]))
        let definition = GeneratedContent(properties: [
            ("description", GeneratedContent(description)),
            ("anyOf", GeneratedContent([
                GeneratedContent(properties: [("enum", GeneratedContent(knownNames.map { GeneratedContent($0) }))]),
                GeneratedContent(properties: [("oneOf", GeneratedContent(objects))]),
            ])),
        ])
        return definition.jsonString
    }
}
