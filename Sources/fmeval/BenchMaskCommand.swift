import Dispatch
import FMCore
import FMEmbedded
import FMGrammar
import Foundation

/// `fmeval bench masks [--json] [--model FILE] [--documents N] [SCHEMA.json...]`: the cost of one
/// grammar-constrained decoding step (filling the token mask) over the model's real vocabulary.
struct BenchMaskCommand: Command {
    static let path = ["bench", "masks"]
    static let summary = "Measure grammar-constrained decoding: µs per token-mask step for schemas and tool calls"
    static let json = Flag("--json", help: "print the figures as one JSON object")
    static let model = Flag("--model", .value("FILE"),
                            help: "the GGUF whose vocabulary to use (default: the default model)")
    static let documents = Flag("--documents", .value("N"), help: "example documents replayed per grammar (default 8)")
    static let usage = CommandUsage("bench masks", flags: FlagTable(json, model, documents), after: "[SCHEMA.json...]")
    static let help = """
    \(usage.line)

    Compiles each schema (default: the seven reference schemas in reference/apple-fm-sdk,
    when that directory exists) and two example tool-call grammars, then replays N example documents
    per grammar (default 8) token by token over the model's vocabulary, timing every mask fill.
    "cold" steps include filling per-state token tables on first use; "warm" steps are a second
    pass with tables filled (the steady state of a long eval run). Prints median and p99 µs per
    step; --json prints {"grammars": [{name, states, compileMilliseconds, tableMilliseconds, steps,
    coldMedianMicroseconds, coldP99Microseconds, medianMicroseconds, p99Microseconds}]}.

    OPTIONS:
    \(usage.flags.list(column: 19))

    EXIT CODES: 0 ok · 2 bad flag or schema file · 3 the default model could not be fetched.
    """

    /// One grammar to measure and the documents to replay through it.
    private struct Workload {
        var name: String
        var grammar: Grammar
        var documents: [String]
        var compileSeconds: Double
    }

    static func run(_ arguments: [String]) throws -> Int32 {
        let parser = try Arguments(arguments, command: "bench masks", flags: usage.flags)
        let json = parser.flag(Self.json)
        let modelPath = parser.value(model)
        let documentCount = try parser.int(documents, minimum: 1) ?? 8
        var schemaPaths = parser.positionals
        if schemaPaths.isEmpty {
            let directory = "reference/apple-fm-sdk"
            let names = ["age", "cat", "hedgehog", "newsletter", "person", "petClub", "shelter"]
            schemaPaths = names.map { "\(directory)/\($0).json" }.filter { FileManager.default.fileExists(atPath: $0) }
        }
        let tokenizer = try openTokenizer(try openModel(modelPath), userSupplied: modelPath != nil)
        let vocabulary = TokenVocabulary(tokens: tokenizer.allTokenBytes, endTokenIDs: Array(tokenizer.stopIDs).sorted(),
                                         specialTokenIDs: tokenizer.specialTokenIDs)
        var workloads: [Workload] = []
        for path in schemaPaths {
            let schema = try loadSchema(path)
            var examples = ExampleDocuments(schema: schema, seed: 1)
            let documents = (0..<documentCount).map { _ in examples.next().jsonString }
            let (grammar, seconds) = try timed { try Grammar.json(schema: schema) }
            workloads.append(Workload(name: FilePaths.lastComponent(of: path), grammar: grammar,
                                      documents: documents, compileSeconds: seconds))
        }
        for (name, tools) in try exampleToolSets() {
            var documents: [String] = []
            for index in 0..<documentCount {
                let tool = tools[index % tools.count]
                var examples = ExampleDocuments(schema: tool.parameters, seed: UInt64(index))
                let call = GeneratedContent(properties: [("name", GeneratedContent(tool.name)), ("arguments", examples.next())])
                documents.append(call.jsonString)
            }
            let (grammar, seconds) = try timed { try Grammar.toolCall(tools: tools) }
            workloads.append(Workload(name: name, grammar: grammar, documents: documents, compileSeconds: seconds))
        }
        var rows: [GeneratedContent] = []
        if !json { print("grammar                 states  compile ms  tables ms  steps  cold med/p99 µs  warm med/p99 µs") }
        for workload in workloads {
            let row = try measure(workload, vocabulary: vocabulary, tokenizer: tokenizer)
            rows.append(row)
            if !json { print(format(row)) }
        }
        if json { printJSON(GeneratedContent(properties: [("grammars", GeneratedContent(rows))]).jsonString) }
        return ExitStatus.ok
    }

    /// Reads and checks one schema file.
    private static func loadSchema(_ path: String) throws -> GenerationSchema {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw Fault.invalidInput("bench masks: cannot read schema file \(path); check the path")
        }
        do {
            return try GenerationSchema(json: text)
        } catch {
            throw Fault.invalidInput("bench masks: \(path): \(error)")
        }
    }

    /// The example tool sets: the travel assistant's city tool, and a three-tool assistant.
    private static func exampleToolSets() throws -> [(String, [ToolDefinition])] {
        let city = try GenerationSchema(json: """
            {"type":"object","additionalProperties":false,"x-order":["city"],"required":["city"],
             "properties":{"city":{"type":"string","enum":["London","New York","Paris"]}}}
            """)
        let convert = try GenerationSchema(json: """
            {"type":"object","additionalProperties":false,"x-order":["amount","from","to"],"required":["amount","from","to"],
             "properties":{"amount":{"type":"number","minimum":0,"maximum":1000000},
              "from":{"type":"string","enum":["EUR","GBP","USD"]},"to":{"type":"string","enum":["EUR","GBP","USD"]}}}
            """)
        let flights = try GenerationSchema(json: """
            {"type":"object","additionalProperties":false,"x-order":["origin","destination","passengers"],
             "required":["origin","destination"],
             "properties":{"origin":{"type":"string","pattern":"^[A-Z]{3}$"},"destination":{"type":"string","pattern":"^[A-Z]{3}$"},
              "passengers":{"type":"integer","minimum":1,"maximum":9}}}
            """)
        let cityTool = ToolDefinition(name: "getCityInfo", description: "Get information about a city.", parameters: city)
        return [
            ("tool:getCityInfo", [cityTool]),
            ("tools:3", [cityTool,
                         ToolDefinition(name: "convertCurrency", description: "Convert money.", parameters: convert),
                         ToolDefinition(name: "searchFlights", description: "Find flights.", parameters: flights)]),
        ]
    }

    /// Runs `body` and returns its result and the seconds it took.
    private static func timed<T>(_ body: () throws -> T) rethrows -> (T, Double) {
        let start = DispatchTime.now().uptimeNanoseconds
        let value = try body()
        return (value, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    /// Replays the workload's documents twice (cold, then warm) and summarizes the step times.
    private static func measure(_ workload: Workload, vocabulary: TokenVocabulary, tokenizer: Tokenizer) throws -> GeneratedContent {
        let table = TokenTable(grammar: workload.grammar, vocabulary: vocabulary)
        let matcher = TokenMatcher(table: table)
        var mask = [UInt64](repeating: 0, count: vocabulary.maskWordCount)
        var cold: [Double] = [], warm: [Double] = []
        let tokenized = workload.documents.map { tokenizer.tokenize($0) }
        for pass in 0..<2 {
            for (document, tokens) in zip(workload.documents, tokenized) {
                matcher.reset()
                for id in tokens + [vocabulary.endTokenIDs.first ?? 0] {
                    let start = DispatchTime.now().uptimeNanoseconds
                    mask.withUnsafeMutableBufferPointer { matcher.fillNextTokenMask($0.baseAddress!) }
                    let micros = Double(DispatchTime.now().uptimeNanoseconds - start) / 1000
                    if pass == 0 { cold.append(micros) } else { warm.append(micros) }
                    guard mask[id >> 6] & (1 << UInt64(id & 63)) != 0, matcher.accept(id) else {
                        throw Fault.infrastructure("bench masks: \(workload.name): token \(id) of \(document) was masked "
                                                   + "out; this is a grammar bug, please report it")
                    }
                }
            }
        }
        let (_, tableSeconds) = timed { TokenTable(grammar: workload.grammar, vocabulary: vocabulary).precomputeAll() }
        return GeneratedContent(properties: [
            ("name", GeneratedContent(workload.name)),
            ("states", GeneratedContent(workload.grammar.stateCount)),
            ("compileMilliseconds", GeneratedContent(rounded(workload.compileSeconds * 1000))),
            ("tableMilliseconds", GeneratedContent(rounded(tableSeconds * 1000))),
            ("steps", GeneratedContent(warm.count)),
            ("coldMedianMicroseconds", GeneratedContent(rounded(percentile(cold, 0.5)))),
            ("coldP99Microseconds", GeneratedContent(rounded(percentile(cold, 0.99)))),
            ("medianMicroseconds", GeneratedContent(rounded(percentile(warm, 0.5)))),
            ("p99Microseconds", GeneratedContent(rounded(percentile(warm, 0.99)))),
        ])
    }

    /// The `fraction` quantile of `values` (nearest rank).
    private static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)]
    }

    private static func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }

    /// One text row of the table.
    private static func format(_ row: GeneratedContent) -> String {
        func number(_ key: String) -> String { row[key]?.jsonString ?? "-" }
        let name = (row["name"]?.stringValue ?? "").padding(toLength: 22, withPad: " ", startingAt: 0)
        return "\(name)  \(number("states").leftPad(6))  \(number("compileMilliseconds").leftPad(10))  "
            + "\(number("tableMilliseconds").leftPad(9))  \(number("steps").leftPad(5))  "
            + "\((number("coldMedianMicroseconds") + "/" + number("coldP99Microseconds")).leftPad(15))  "
            + "\((number("medianMicroseconds") + "/" + number("p99Microseconds")).leftPad(15))"
    }
}

extension String {
    /// The string right-aligned in `width` columns.
    fileprivate func leftPad(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
