import Foundation
import Testing
@testable import FMSuite

@Test func minimalSuiteLoadsWithDefaults() throws {
    let (suite, diagnostics) = loadSuite(baseSuite)
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    let expanded = try #require(suite).expanded()
    #expect(expanded.count == 1)
    let first = try #require(expanded.first)
    #expect(first.id == "base/one")
    #expect(first.engine == "embedded")
    #expect(first.repeatCount == 1)
    #expect(first.settings == RunSettings())
    #expect(first.options.sampling == .greedy)
    #expect(first.tools.map(\.name) == ["lookup"])
    #expect(first.location == SourceLocation(file: "s.yaml", line: 11, column: 5))
}

/// Every error kind the validator reports, each at its line:column.
@Test(arguments: [
    ("suite: x\ncasez: []\n", 2, 1, "unknown key 'casez'; did you mean 'cases'?"),
    ("suite: x\ncases:\n  - id: a\n    promt: hi\n", 4, 5, "did you mean 'prompt'?"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    repeat: many\n", 5, 13, "repeat must be an integer"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    repeat: 0\n", 5, 13, "repeat must be at least 1"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    tags: 3\n", 5, 11, "must be a string"),
    ("cases:\n  - id: a\n    prompt: hi\n", 1, 1, "missing required key 'suite'"),
    ("suite: x\n", 1, 1, "needs 'cases' or a 'dataset'"),
    ("suite: x\ncases:\n  - prompt: hi\n", 3, 5, "needs an 'id'"),
    ("suite: x\ncases:\n  - id: a\n", 3, 5, "needs 'prompt'"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n  - id: a\n    prompt: ho\n", 5, 5, "duplicate case id 'a'"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    expect:\n      - regex: '(['\n", 6, 16, "does not compile"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    expect: { contans: x }\n", 5, 15, "did you mean 'contains'?"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    expect: { toolCalls: { ordered: [nope] } }\n", 5, 38, "does not define"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    variants: [fast]\n", 3, 5, "names variant 'fast'"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    generating: { enum: [] }\n", 5, 25, "at least one value"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    generating: strng\n", 5, 17, "did you mean 'string'?"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    generating: { schema: { type: object, properties: { a: { $ref: '#/$defs/Nope' } } } }\n", 5, 62, "undefined"),
    ("suite: x\noptions: { temprature: 1 }\ncases:\n  - id: a\n    prompt: hi\n", 2, 12, "did you mean 'temperature'?"),
    ("suite: x\noptions: { toolCallingMode: sometimes }\ncases:\n  - id: a\n    prompt: hi\n", 2, 29, "unknown toolCallingMode"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    gate: { minPassRate: 2 }\n", 5, 11, "between 0 and 1"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    gate: { minPasses: 3 }\n", 5, 11, "can never hold"),
    ("suite: x\nengine: scripted\ncases:\n  - id: a\n    prompt: hi\n", 4, 5, "has no 'script:'"),
    ("suite: x\nengine: scripted\ncases:\n  - id: a\n    prompt: hi\n    script: [ { text: a, error: refusal } ]\n", 6, 13, "exactly one of"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    expect: { toolCalls: { ordered: [ { name: t, arguments: { q: { exakt: 1 } } } ] } }\n", 5, 68, "did you mean 'exact'?"),
    ("suite: x\ntools:\n  - name: t\n    output: x\n    arguments: nowhere.json\ncases:\n  - id: a\n    prompt: hi\n", 5, 16, "not found"),
    ("suite: x\ntools:\n  - name: t\ncases:\n  - id: a\n    prompt: hi\n", 3, 5, "needs 'output'"),
    ("suite: x\ndataset: data.csv\ncases: []\n", 2, 10, "not found"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    expect: { usage: {} }\n", 5, 22, "usage needs at least one"),
    ("[1, 2]\n", 1, 1, "a suite must be a mapping"),
    ("suite: x\nmodel: ./models/none.gguf\ncases:\n  - id: a\n    prompt: hi\n", 2, 8, "model file './models/none.gguf' not found"),
    ("suite: x\nengine: scripted\ncases:\n  - id: a\n    turns: [one, two]\n    script: { turns: [ [ { text: a } ] ] }\n", 6, 13, "script has 1 turn list but the case has 2 turns"),
    ("suite: x\nengine: scripted\ncases:\n  - id: a\n    prompt: hi\n    script:\n      - text: ok\n      - txet: no\n", 8, 9, "unknown key 'txet'; did you mean 'text'?"),
    ("suite: x\nengine: scripted\ncases:\n  - id: a\n    prompt: hi\n    script:\n      - text: 5\n", 7, 15, "expected a string"),
    ("suite: x\nengine: scripted\ncases:\n  - id: a\n    prompt: hi\n    script: [ { toolCalls: [ { name: ghost } ] } ]\n", 6, 13, "calls tool 'ghost'"),
] as [(String, Int, Int, String)])
func validationErrorsAreLocated(text: String, line: Int, column: Int, message: String) throws {
    let found = try expectLocatedDiagnostic(text, message, line: line, column: column)
    #expect(found.description.hasPrefix("s.yaml:\(line):\(column): error: "))
}

@Test func everyProblemIsReportedAtOnce() {
    let text = """
    suite: many
    engin: embedded
    cases:
      - id: a
        promt: hi
      - id: a
        prompt: hi
        repeat: -1
        expect: [ { regex: "(" }, { equal: x } ]
    """
    let diagnostics = loadSuite(text).diagnostics
    let messages = diagnostics.map(\.message).joined(separator: "\n")
    for fragment in ["'engin'", "'promt'", "needs 'prompt'", "duplicate case id", "at least 1", "does not compile", "did you mean 'equals'?"] {
        #expect(messages.contains(fragment), "missing \(fragment) in:\n\(messages)")
    }
    let lines = diagnostics.map(\.location.line)
    #expect(lines == lines.sorted(), "diagnostics should come in source order")
}

@Test func expectationShorthandsDecodeToTypedExpectations() throws {
    let text = """
    suite: short
    tools:
      - name: weather
        arguments: { type: object, properties: { city: { type: string } }, required: [city] }
        output: sunny
    defaults:
      expect:
        - usage: { maxOutputTokens: 64 }
    cases:
      - id: a
        prompt: hi
        expect:
          equals: Paris
          oneOf: [Paris, London]
          contains: [sun, warm]
          regex: "^[A-Z]"
          not: { contains: rain }
          error: refusal
          snapshots: 0
          command: [python3, check.py]
          toolCalls:
            ordered:
              - name: weather
                arguments: { city: Paris }
              - anyOrder: [ { name: weather, arguments: { city: { hasPrefix: Lon } } } ]
            disallowed: [ weather ]
    """
    let (suite, diagnostics) = loadSuite(text)
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    let expectations = try #require(suite?.expanded().first?.expectations)
    #expect(expectations.map(\.kind) == ["usage", "equals", "oneOf", "contains", "regex", "not", "error", "snapshots", "command", "toolCalls"])
    let json = String(decoding: try JSONEncoder().encode(expectations), as: UTF8.self)
    for fragment in [#""substrings":["sun","warm"]"#, #""caseName":"refusal""#, #""argv":["python3","check.py"]"#,
                     #""argument":"city""#, #""exact":"Paris""#, #""hasPrefix":"Lon""#, #""minimum":0"#] {
        #expect(json.contains(fragment), "missing \(fragment) in \(json)")
    }
}

@Test func variantsDefaultsAndTemplatesExpand() throws {
    let text = """
    suite: vars
    instructions: Base.
    options: { maximumResponseTokens: 32, contextSize: 2048 }
    variants:
      - name: plain
      - name: framed
        instructions: Framed.
        prompt: "[{{ topic }}] {{prompt}} ({{id}})"
        options: { stream: true, temperature: 0.5 }
        engine: replay
    defaults:
      repeat: 3
      gate: { minPasses: 2 }
      tags: [all]
    cases:
      - id: c1
        prompt: Hi
        vars: { topic: greet }
        tags: [mine, all]
        options: { maximumResponseTokens: 8 }
      - id: c2
        turns: [One, Two]
        vars: { topic: chat }
        variants: [framed]
        repeat: 5
    """
    let (suite, diagnostics) = loadSuite(text)
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    let cases = try #require(suite).expanded()
    #expect(cases.map(\.id) == ["vars/c1@plain", "vars/c1@framed", "vars/c2@framed"])
    #expect(cases[0].prompt == "Hi" && cases[0].instructions == "Base.")
    #expect(cases[0].tags == ["all", "mine"])
    #expect(cases[0].options.maximumResponseTokens == 8 && cases[0].settings.contextSize == 2048 && !cases[0].settings.stream)
    #expect(cases[1].prompt == "[greet] Hi (c1)" && cases[1].instructions == "Framed." && cases[1].engine == "replay")
    #expect(cases[1].settings.stream && cases[1].options.temperature == 0.5 && cases[1].options.maximumResponseTokens == 8)
    #expect(cases[2].turns == ["[chat] One (c2)", "[chat] Two (c2)"] && cases[2].prompt == nil)
    #expect(cases[0].repeatCount == 3 && cases[2].repeatCount == 5 && cases[0].gate?.minPasses == 2)
}

@Test func templatePlaceholdersMustHaveVars() {
    let text = "suite: t\nvariants:\n  - name: v\n    prompt: '{{missing}} {{prompt}}'\ncases:\n  - id: a\n    prompt: hi\n"
    let diagnostics = loadSuite(text).diagnostics
    #expect(diagnostics.contains { $0.message.contains("{{missing}}") && $0.location.line == 6 })
}

@Test func pathsResolveRelativeToTheSuiteFile() throws {
    let folder = try makeFolder([
        "suites/deep/s.yaml": """
        suite: paths
        generating: { schema: ../../schemas/answer.json }
        tools:
          - name: t
            arguments: ../../schemas/args.yaml
            outputs:
              - when: { q: a }
                output: { file: ../../fixtures/a.txt }
              - output: { json: { ok: true } }
        dataset: ../../data/cases.jsonl
        cases:
          - id: inline
            prompt: hi
            expect: { schema: ../../schemas/answer.json }
        """,
        "schemas/answer.json": #"{"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]}"#,
        "schemas/args.yaml": "type: object\nproperties:\n  q: { type: string }\nrequired: [q]\n",
        "fixtures/a.txt": "A text",
        "data/cases.jsonl": "{\"id\": \"d1\", \"prompt\": \"one\"}\n\n{\"id\": \"d2\", \"prompt\": \"two\", \"expect\": {\"equals\": {\"answer\": \"x\"}}}\n",
    ])
    let result = SuiteLoader.load(paths: [folder.appendingPathComponent("suites").path])
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
    let cases = result.expandedCases
    try #require(cases.map(\.caseID) == ["inline", "d1", "d2"])
    #expect(cases[0].generating != nil)
    let output = try #require(cases[0].tools.first?.output)
    #expect(output.resolve(arguments: ["q": "a"]).map { if case .file(_, let text) = $0 { return text } else { return "" } } == "A text")
    #expect(output.resolve(arguments: ["q": "b"]) == .structure(["ok": true]))
    #expect(cases[2].location.line == 3)
}

@Test func badDatasetLinesAreReportedAndGoodLinesKept() throws {
    let folder = try makeFolder([
        "s.yaml": "suite: data\ndataset: d.jsonl\n",
        "d.jsonl": """
        {"id": "ok1", "prompt": "a"}
        {"id": "broken", "prompt": }
        {"id": "ok2", "prompt": "b", "tags": ["x"]}
        {"id": "typo", "promt": "c"}
        {"id": "ok3", "prompt": "d"}
        """,
    ])
    let reader = SuiteReader(file: folder.appendingPathComponent("s.yaml").path, registry: .builtIn)
    let root = try YAMLParser.parse("suite: data\ndataset: d.jsonl\n", file: "s.yaml")
    let suite = try #require(reader.suite(root, file: "s.yaml"))
    #expect(suite.cases.map(\.id) == ["ok1", "ok2", "typo", "ok3"])
    let lines = reader.diagnostics.map { ($0.location.line, $0.location.column) }
    #expect(reader.diagnostics.count == 3, "\(reader.diagnostics)")
    #expect(lines.contains { $0 == (2, 28) })
    #expect(reader.diagnostics.contains { $0.location.line == 4 && $0.message.contains("did you mean 'prompt'?") })
    #expect(reader.diagnostics.allSatisfy { $0.location.file.hasSuffix("d.jsonl") })
}

@Test func jsonSuitesUseTheSameValidation() {
    let text = #"{"suite": "j", "cases": [{"id": "a", "prompt": "hi", "expect": [{"contians": "x"}]}]}"#
    let diagnostics = loadSuite(text, file: "s.json").diagnostics
    #expect(diagnostics.count == 1)
    #expect(diagnostics.first?.description == "s.json:1:66: error: unknown key 'contians'; did you mean 'contains'? (an expectation kind)")
}

@Test func theBenchmarkFolderHoldsOnlyValidSuites() {
    // `fmeval bench suite` and .ci/bench-vs-llama.sh load every suite file under benchmarks/ by default, so
    // other JSON (a schema corpus) belongs elsewhere (reference/).
    let result = SuiteLoader.load(paths: [suitePackageRoot.appendingPathComponent("benchmarks").path])
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics.prefix(3))")
    #expect(result.suites.map(\.name).sorted()
            == ["bench-extraction", "bench-reviews", "bench-tickets", "bench-travel"])
}

@Test func exampleSuitesValidate() {
    let result = SuiteLoader.load(paths: [suitePackageRoot.appendingPathComponent("suites").path])
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
    #expect(result.suites.count >= 3)
    // The examples run the real model, or score recorded transcripts, or (forum reports only Apple's model
    // shows) play Apple's model through a script and say so.
    #expect(result.suites.allSatisfy {
        $0.engine.name == "embedded" || $0.engine.name == RecordedTranscript.engineName
            || ($0.engine.name == "scripted" && $0.origin?.reproducedWith == .scripted)
    })
    let kinds = Set(result.expandedCases.flatMap { $0.expectations.map(\.kind) })
    #expect(kinds.isSuperset(of: ["equals", "oneOf", "constraints", "toolCalls", "not"]))
}

@Test func constraintsWithoutAnySchemaAreReported() {
    let text = "suite: c\ncases:\n  - id: free\n    prompt: hi\n    expect: { constraints: { maxViolations: 0 } }\n"
    let diagnostics = loadSuite(text).diagnostics
    #expect(diagnostics.count == 1)
    #expect(diagnostics.first?.location.line == 3)
    #expect(diagnostics.first?.message.contains("add 'generating:'") == true)
}

/// Every complete suite example in docs/suite-format.md validates (as if saved in suites/).
@Test func documentationExamplesValidate() throws {
    let doc = try String(contentsOf: suitePackageRoot.appendingPathComponent("docs/suite-format.md"), encoding: .utf8)
    var examples: [String] = []
    var current: [String]? = nil
    for line in doc.split(separator: "\n", omittingEmptySubsequences: false) {
        if line == "```yaml" { current = [] } else if line == "```" {
            if let block = current, block.first?.hasPrefix("suite:") == true { examples.append(block.joined(separator: "\n")) }
            current = nil
        } else if current != nil { current?.append(String(line)) }
    }
    #expect(examples.count >= 3)
    for (index, example) in examples.enumerated() {
        let file = suitePackageRoot.appendingPathComponent("suites/doc-example-\(index).yaml").path
        let (suite, diagnostics) = SuiteLoader.load(text: example, file: file)
        #expect(diagnostics.isEmpty, "example \(index): \(diagnostics)")
        #expect(suite?.expanded().isEmpty == false)
    }
}
