import FMEval
import Foundation
import Testing

/// An expectation kind written outside fmeval, with nothing but the public API: the output has at most
/// `max` words. A bare number is the shorthand for `{max: N}`.
struct MaxWords: ExpectationKind {
    static let keyword = "maxWords"
    var max: Int

    static func expand<Reader: ExpectationReader>(_ node: Reader.Node, keyword: String,
                                                  reader: Reader) -> Reader.Node? {
        node.isScalar ? node.wrapped(in: "max") : node
    }

    static var jsonSchema: ExpectationSchemaFragment {
        ExpectationSchemaFragment(properties: #""maxWords": { "anyOf": [{ "type": "integer" }, { "type": "object" }] }"#
        )
    }

    var problems: [String] { max < 1 ? ["max must be at least 1, got \(max)"] : [] }

    func evaluator(in environment: EvaluationEnvironment) -> any Evaluator { MaxWordsEvaluator(limit: max) }
}

/// Counts the words of the output text.
struct MaxWordsEvaluator: Evaluator {
    let name = "maxWords"
    let limit: Int

    func evaluate(_ subject: EvaluationSubject) -> [Metric] {
        let words = (subject.text ?? "").split(whereSeparator: \.isWhitespace).count
        let rationale = "\(words) words, at most \(limit) allowed"
        return [words <= limit ? .passing(name, rationale: rationale) : .failing(name, rationale: rationale)]
    }
}

let wordsYAML = """
suite: brevity
engine: scripted
cases:
  - id: short
    prompt: Say hi.
    expect: { maxWords: 3 }
    script: [ { text: Hello there! } ]
  - id: long
    prompt: Say hi.
    expect: [ { maxWords: { max: 2 } }, { contains: Hello } ]
    script: [ { text: "Hello there, my friend." } ]
"""

@Test func aKindRegisteredFromOutsideLoadsRunsAndScores() throws {
    let folder = try scratchFolder()
    let file = folder.appendingPathComponent("brevity.yaml")
    try wordsYAML.write(to: file, atomically: true, encoding: .utf8)
    let registry = try ExpectationRegistry.builtIn.registering(MaxWords.self)
    #expect(registry.keywords.last == "maxWords")
    let suite = try EvalSuite.load(paths: [file.path], registry: registry)
    let options = EvalOptions(resultsPath: folder.appendingPathComponent("r.json").path)
    let result = try Evaluation.run(suite, options: options)
    #expect(result.status(of: "short") == .passed)
    #expect(result.status(of: "long") == .failed)
    let metrics = result.result(of: "long")?.attempts.first?.metrics ?? []
    #expect(metrics.first { $0.name == "maxWords" }?.rationale == "4 words, at most 2 allowed", "\(metrics)")
    #expect(metrics.first { $0.name == "contains" }?.value == .passing)
}

@Test func anUnregisteredKindIsALocatedErrorAndABadPayloadIsItsKindsProblem() throws {
    let folder = try scratchFolder()
    let file = folder.appendingPathComponent("brevity.yaml")
    try wordsYAML.write(to: file, atomically: true, encoding: .utf8)
    #expect {
        try EvalSuite.load(paths: [file.path])
    } throws: { error in
        "\(error)".contains("brevity.yaml:6:") && "\(error)".contains("unknown key 'maxWords'")
    }
    let zero = wordsYAML.replacingOccurrences(of: "maxWords: 3", with: "maxWords: 0")
    try zero.write(to: file, atomically: true, encoding: .utf8)
    #expect {
        try EvalSuite.load(paths: [file.path], registry: try ExpectationRegistry.builtIn.registering(MaxWords.self))
    } throws: { error in
        "\(error)".contains("brevity.yaml:6:") && "\(error)".contains("maxWords: max must be at least 1, got 0")
    }
}

/// A keyword that would make one suite key name two kinds.
struct Contains2: ExpectationKind {
    static let keyword = "containsAll"
    static let synonyms = ["contains"]
    static var jsonSchema: ExpectationSchemaFragment { ExpectationSchemaFragment(properties: #""containsAll": {}"#) }
    func evaluator(in environment: EvaluationEnvironment) -> any Evaluator { MaxWordsEvaluator(limit: 0) }
}

@Test func aKeywordThatIsTakenIsRefused() throws {
    #expect {
        try ExpectationRegistry.builtIn.registering(Contains2.self)
    } throws: { error in
        "\(error)".contains("'contains' already names ContainsExpectation")
    }
    let once = try ExpectationRegistry.builtIn.registering(MaxWords.self)
    #expect(throws: EvalError.self) { try once.registering(MaxWords.self) }
}
