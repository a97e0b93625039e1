import FMCore
import FMGrammar
import FMSuite
import Foundation

/// One grammar `fmeval bench masks` times, and what another engine needs to time the same thing: the
/// JSON Schema it compiles (nil when the grammar has none, e.g. tools whose schemas refer to `$defs`) and
/// the documents both replay.
struct MaskWorkload {
    /// The row's name.
    var name: String
    /// The JSON Schema text the same documents satisfy, for another engine.
    var schemaJSON: String?
    /// fmeval's grammar.
    var grammar: Grammar
    /// Documents replayed token by token (compact JSON).
    var documents: [String]
    /// Seconds fmeval took to compile the grammar.
    var compileSeconds: Double
    /// Whether a document may be refused (a corpus instance written in another property order, say)
    /// rather than proving a grammar bug.
    var refusable = false
}

/// Where the mask benchmark's grammars come from: schema files, the suites' schemas and tool sets, and
/// a corpus of JSON Schema files with valid instances (JSONSchemaBench's format, `{schema, tests}`).
enum MaskWorkloads {
    /// Apple's reference schemas (reference/apple-fm-sdk), when that directory exists.
    static var referenceSchemaPaths: [String] {
        let names = ["age", "cat", "hedgehog", "newsletter", "person", "petClub", "shelter"]
        return names.map { "reference/apple-fm-sdk/\($0).json" }.filter { FileManager.default.fileExists(atPath: $0) }
    }

    /// A workload per schema file, replaying `count` example documents.
    static func schemaFiles(_ paths: [String], documents count: Int) throws -> [MaskWorkload] {
        try paths.map { path in
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw Fault.invalidInput("bench masks: cannot read schema file \(path); check the path")
            }
            let schema: GenerationSchema
            do { schema = try GenerationSchema(json: text) } catch {
                throw Fault.invalidInput("bench masks: \(path): \(error)")
            }
            return try workload(FilePaths.lastComponent(of: path), schema: schema, documents: count)
        }
    }

    /// A workload per distinct `generating` schema and per distinct tool set of the suites under `paths`.
    static func suites(_ paths: [String], documents count: Int) throws -> [MaskWorkload] {
        let loaded = SuiteLoader.load(paths: paths)
        if let first = loaded.diagnostics.first {
            throw Fault.invalidInput("bench masks: \(first.description) (and \(loaded.diagnostics.count - 1) more)")
        }
        var seen = Set<String>()
        var workloads: [MaskWorkload] = []
        for item in loaded.expandedCases where item.recorded == nil {
            if let schema = item.generating, seen.insert(schema.jsonString).inserted {
                workloads.append(try workload("\(item.suite) schema", schema: schema, documents: count))
            }
            let tools = item.tools.map {
                ToolDefinition(name: $0.name, description: $0.description, parameters: $0.arguments)
            }
            let key = tools.map { $0.name + $0.parameters.jsonString }.joined(separator: "\n")
            if !tools.isEmpty, seen.insert(key).inserted {
                workloads.append(try toolWorkload("\(item.suite) tools", tools: tools, documents: count))
            }
        }
        return workloads
    }

    /// The corpus's schemas fmeval reads (the Foundation Models dialect), each replaying its valid
    /// instances; `refused` counts the others by the first words of why.
    static func corpus(_ directory: String) throws -> (workloads: [MaskWorkload], refused: [String: Int]) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
            throw Fault.invalidInput("bench masks: --corpus \(directory) is not a readable folder")
        }
        var workloads: [MaskWorkload] = []
        var refused: [String: Int] = [:]
        for name in names.filter({ $0.hasSuffix(".json") }).sorted() {
            let path = FilePaths.join(directory, name)
            guard let text = try? String(contentsOfFile: path, encoding: .utf8),
                  let file = try? GeneratedContent(json: text), let schemaContent = file["schema"] else {
                throw Fault.invalidInput("bench masks: \(path) is not a {schema, tests} JSON file")
            }
            let documents = (file["tests"]?.arrayValue ?? []).filter { $0["valid"] == GeneratedContent(true) }
                .compactMap { $0["data"]?.jsonString }
            do {
                let schema = try GenerationSchema(json: schemaContent.jsonString)
                let (grammar, seconds) = try timed { try Grammar.json(schema: schema) }
                workloads.append(MaskWorkload(name: name, schemaJSON: schemaContent.jsonString, grammar: grammar,
                                              documents: documents, compileSeconds: seconds, refusable: true))
            } catch {
                let reason = "\(error)".split(separator: ";").first.map(String.init) ?? "\(error)"
                refused[reason, default: 0] += 1
            }
        }
        return (workloads, refused)
    }

    /// The example tool sets: the travel assistant's city tool, and a three-tool assistant.
    static func exampleToolSets(documents count: Int) throws -> [MaskWorkload] {
        let city = try GenerationSchema(json: """
            {"type":"object","additionalProperties":false,"x-order":["city"],"required":["city"],
             "properties":{"city":{"type":"string","enum":["London","New York","Paris"]}}}
            """)
        let convert = try GenerationSchema(json: """
            {"type":"object","additionalProperties":false,"x-order":["amount","from","to"],
             "required":["amount","from","to"],
             "properties":{"amount":{"type":"number","minimum":0,"maximum":1000000},
              "from":{"type":"string","enum":["EUR","GBP","USD"]},"to":{"type":"string","enum":["EUR","GBP","USD"]}}}
            """)
        let flights = try GenerationSchema(json: """
            {"type":"object","additionalProperties":false,"x-order":["origin","destination","passengers"],
             "required":["origin","destination"],
             "properties":{"origin":{"type":"string","pattern":"^[A-Z]{3}$"},
              "destination":{"type":"string","pattern":"^[A-Z]{3}$"},
              "passengers":{"type":"integer","minimum":1,"maximum":9}}}
            """)
        let cityTool = ToolDefinition(name: "getCityInfo", description: "Get information about a city.",
                                      parameters: city)
        return [
            try toolWorkload("tool:getCityInfo", tools: [cityTool], documents: count),
            try toolWorkload("tools:3", tools: [
                cityTool, ToolDefinition(name: "convertCurrency", description: "Convert money.", parameters: convert),
                ToolDefinition(name: "searchFlights", description: "Find flights.", parameters: flights),
            ], documents: count),
        ]
    }

    /// `schema`'s grammar and `count` example documents.
    private static func workload(_ name: String, schema: GenerationSchema,
                                 documents count: Int) throws -> MaskWorkload {
        var examples = ExampleDocuments(schema: schema, seed: 1)
        let documents = (0..<count).map { _ in examples.next().jsonString }
        let (grammar, seconds) = try timed { try Grammar.json(schema: schema) }
        return MaskWorkload(name: name, schemaJSON: schema.jsonString, grammar: grammar, documents: documents,
                            compileSeconds: seconds)
    }

    /// The grammar of one call of any of `tools`, `count` example calls (the tools in turn), and the same
    /// calls as a JSON Schema (an `anyOf` of `{name, arguments}` objects) unless a tool's schema refers to
    /// its own `$defs`, which nesting would break.
    private static func toolWorkload(_ name: String, tools: [ToolDefinition],
                                     documents count: Int) throws -> MaskWorkload {
        let documents = (0..<count).map { index -> String in
            let tool = tools[index % tools.count]
            var examples = ExampleDocuments(schema: tool.parameters, seed: UInt64(index))
            return GeneratedContent(properties: [("name", GeneratedContent(tool.name)), ("arguments", examples.next())])
                .jsonString
        }
        let (grammar, seconds) = try timed { try Grammar.toolCall(tools: tools) }
        let nested = tools.contains { $0.parameters.jsonString.contains("\"$ref\"") }
        let calls = tools.map { tool in
            GeneratedContent(properties: [
                ("type", "object"), ("additionalProperties", false), ("required", ["name", "arguments"]),
                ("properties", GeneratedContent(properties: [
                    ("name", GeneratedContent(properties: [("const", GeneratedContent(tool.name))])),
                    ("arguments", tool.parameters.content),
                ])),
            ])
        }
        let schema = nested ? nil : GeneratedContent(properties: [("anyOf", GeneratedContent(calls))]).jsonString
        return MaskWorkload(name: name, schemaJSON: schema, grammar: grammar, documents: documents,
                            compileSeconds: seconds)
    }

    /// Runs `body` and returns its result and the seconds it took.
    static func timed<T>(_ body: () throws -> T) rethrows -> (T, Double) {
        let start = DispatchTime.now().uptimeNanoseconds
        let value = try body()
        return (value, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
}
