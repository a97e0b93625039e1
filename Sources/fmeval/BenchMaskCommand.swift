import Dispatch
import FMCore
import FMEmbedded
import FMGrammar
import Foundation

/// `fmeval bench masks [--json] [--model FILE] [--documents N] [--suites PATH]... [--corpus DIR] [--export DIR]
/// [SCHEMA.json...]`: the cost of one grammar-constrained decoding step (filling the token mask) over the
/// model's real vocabulary.
struct BenchMaskCommand: Command {
    static let path = ["bench", "masks"]
    static let summary = "Measure grammar-constrained decoding: µs per token-mask step for schemas and tool calls"
    static let json = Flag("--json", help: "print the figures as one JSON object")
    static let model = Flag("--model", .value("FILE"),
                            help: "the GGUF whose vocabulary to use (default: the default model)")
    static let documents = Flag("--documents", .value("N"), help: "example documents replayed per grammar (default 8)")
    static let suites = Flag("--suites", .repeatable("PATH"), help: """
        also every distinct `generating` schema and tool set of the suites under PATH
        """)
    static let corpus = Flag("--corpus", .value("DIR"), help: """
        also every schema in DIR's JSON files ({schema, tests}, JSONSchemaBench's form)
        that fmeval reads, replaying its valid instances
        """)
    static let export = Flag("--export", .value("DIR"), help: """
        write DIR/vocabulary.json (token bytes, end and special ids) and DIR/workloads.json
        (each grammar's JSON Schema, its documents as token ids, fmeval's step times) for
        another engine to replay (.ci/bench-masks-vs-llguidance.sh)
        """)
    static let usage = CommandUsage("bench masks", flags: FlagTable(json, model, documents, suites, corpus, export),
                                    after: "[SCHEMA.json...]")
    static let help = """
    \(usage.line)

    Compiles each schema (default: the seven reference schemas in reference/apple-fm-sdk,
    when that directory exists) and two example tool-call grammars, then replays N example documents
    per grammar (default 8) token by token over the model's vocabulary, timing every mask fill.
    "cold" steps include filling per-state token tables on first use; "warm" steps are a second
    pass with tables filled (the steady state of a long eval run); "first mask" is the grammar's
    compile time plus its first cold step. A corpus instance the grammar refuses (another property
    order, say) is left out and counted. Prints median and p99 µs per step; --json prints {"grammars":
    [{name, states, compileMilliseconds, tableMilliseconds, steps, documents, refusedDocuments,
    firstMaskMicroseconds, coldMedianMicroseconds, coldP99Microseconds, medianMicroseconds,
    p99Microseconds}], "corpusRefused": {REASON: COUNT}}.

    OPTIONS:
    \(usage.flags.list(column: 19))

    EXIT CODES: 0 ok · 2 bad flag, schema file, suite or corpus · 3 the default model could not be fetched
    or --export could not be written.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let parser = try Arguments(arguments, command: "bench masks", flags: usage.flags)
        let json = parser.flag(Self.json)
        let modelPath = parser.value(model)
        let documentCount = try parser.int(documents, minimum: 1) ?? 8
        let schemaPaths = parser.positionals.isEmpty ? MaskWorkloads.referenceSchemaPaths : parser.positionals
        let modelFile = try openModel(modelPath)
        let tokenizer = try openTokenizer(modelFile, userSupplied: modelPath != nil)
        let vocabulary = TokenVocabulary(tokens: tokenizer.allTokenBytes, endTokenIDs: Array(tokenizer.stopIDs).sorted(),
                                         specialTokenIDs: tokenizer.specialTokenIDs)
        var workloads = try MaskWorkloads.schemaFiles(schemaPaths, documents: documentCount)
            + MaskWorkloads.exampleToolSets(documents: documentCount)
        let suitePaths = parser.values(suites)
        if !suitePaths.isEmpty { workloads += try MaskWorkloads.suites(suitePaths, documents: documentCount) }
        var corpusRefused: [String: Int] = [:]
        if let directory = parser.value(corpus) {
            let found = try MaskWorkloads.corpus(directory)
            workloads += found.workloads
            corpusRefused = found.refused
        }
        var rows: [GeneratedContent] = []
        var replays: [GeneratedContent] = []
        if !json { print("grammar                 states  compile ms  tables ms  steps  cold med/p99 µs  warm med/p99 µs") }
        for workload in workloads {
            let (row, replay) = try measure(workload, vocabulary: vocabulary, tokenizer: tokenizer)
            rows.append(row)
            replays.append(replay)
            if !json { print(format(row)) }
        }
        let refused = GeneratedContent(properties: corpusRefused.keys.sorted().map { ($0, GeneratedContent(corpusRefused[$0]!)) })
        if json {
            printJSON(GeneratedContent(properties: [("grammars", GeneratedContent(rows)), ("corpusRefused", refused)])
                .jsonString)
        } else if !corpusRefused.isEmpty {
            print("corpus schemas fmeval does not read: \(corpusRefused.values.reduce(0, +))")
        }
        if let directory = parser.value(export) {
            try BenchMaskExport.write(to: directory, vocabulary: vocabulary, tokenizer: tokenizer, model: modelFile,
                                      workloads: zip(workloads, replays).map { ($0.schemaJSON, $1) })
        }
        return ExitStatus.ok
    }

    /// Replays the workload's documents twice (cold, then warm) and summarizes the step times; returns the
    /// row and the replay (`name`, `documents` as token ids ending in an end token, `compileMicroseconds`,
    /// `coldMicroseconds` per step) for export. A document the grammar refuses is left out (counted) when
    /// the workload allows it (`refusable`); otherwise that is a grammar bug.
    private static func measure(_ workload: MaskWorkload, vocabulary: TokenVocabulary,
                                tokenizer: Tokenizer) throws -> (GeneratedContent, GeneratedContent) {
        let table = TokenTable(grammar: workload.grammar, vocabulary: vocabulary)
        let matcher = TokenMatcher(table: table)
        var mask = [UInt64](repeating: 0, count: vocabulary.maskWordCount)
        var cold: [Double] = [], warm: [Double] = []
        let end = vocabulary.endTokenIDs.first ?? 0
        var accepted: [[Int]] = []
        var refused = 0
        let tokenized = workload.documents.map { tokenizer.tokenize($0) + [end] }
        for pass in 0..<2 {
            for tokens in pass == 0 ? tokenized : accepted {
                matcher.reset()
                var times: [Double] = []
                var ok = true
                for id in tokens {
                    let start = DispatchTime.now().uptimeNanoseconds
                    mask.withUnsafeMutableBufferPointer { matcher.fillNextTokenMask($0.baseAddress!) }
                    times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1000)
                    guard mask[id >> 6] & (1 << UInt64(id & 63)) != 0, matcher.accept(id) else {
                        guard workload.refusable else {
                            let document = String(decoding: tokenizer.detokenize(tokens), as: UTF8.self)
                            throw Fault.infrastructure("bench masks: \(workload.name): token \(id) of \(document) was "
                                                       + "masked out; this is a grammar bug, please report it")
                        }
                        ok = false
                        break
                    }
                }
                if pass == 0 {
                    cold += times
                    if ok { accepted.append(tokens) } else { refused += 1 }
                } else {
                    warm += times
                }
            }
        }
        let (_, tableSeconds) = MaskWorkloads.timed {
            TokenTable(grammar: workload.grammar, vocabulary: vocabulary).precomputeAll()
        }
        let firstMask = workload.compileSeconds * 1e6 + (cold.first ?? 0)
        let row = GeneratedContent(properties: [
            ("name", GeneratedContent(workload.name)),
            ("states", GeneratedContent(workload.grammar.stateCount)),
            ("compileMilliseconds", GeneratedContent(rounded(workload.compileSeconds * 1000))),
            ("tableMilliseconds", GeneratedContent(rounded(tableSeconds * 1000))),
            ("steps", GeneratedContent(warm.count)),
            ("documents", GeneratedContent(accepted.count)),
            ("refusedDocuments", GeneratedContent(refused)),
            ("firstMaskMicroseconds", GeneratedContent(rounded(firstMask))),
            ("coldMedianMicroseconds", GeneratedContent(rounded(percentile(cold, 0.5)))),
            ("coldP99Microseconds", GeneratedContent(rounded(percentile(cold, 0.99)))),
            ("medianMicroseconds", GeneratedContent(rounded(percentile(warm, 0.5)))),
            ("p99Microseconds", GeneratedContent(rounded(percentile(warm, 0.99)))),
        ])
        let replay = GeneratedContent(properties: [
            ("name", GeneratedContent(workload.name)),
            ("documents", GeneratedContent(accepted.map { GeneratedContent($0.map { GeneratedContent($0) }) })),
            ("compileMicroseconds", GeneratedContent(rounded(workload.compileSeconds * 1e6))),
            ("coldMicroseconds", GeneratedContent(cold.map { GeneratedContent(rounded($0)) })),
        ])
        return (row, replay)
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
