import Foundation
import TestSupport
import Testing
import FMCore
import FMEvaluate
@testable import FMSuite

/// True when missing tools must fail the tests (`CI=true`, or `FMEVAL_REQUIRE_TOOLS=1` as `.ci/run` sets).
private let toolsRequired = ProcessInfo.processInfo.environment["CI"]?.lowercased() == "true"
    || ProcessInfo.processInfo.environment["FMEVAL_REQUIRE_TOOLS"] == "1"

/// `python3` on `$PATH`, when it can import jsonschema (the reference validator).
private let jsonschemaPython: URL? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":") {
        let url = URL(fileURLWithPath: String(folder)).appendingPathComponent("python3")
        guard FileManager.default.isExecutableFile(atPath: url.path) else { continue }
        let probe = Process()
        probe.executableURL = url
        probe.arguments = ["-c", "import jsonschema"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { continue }
        probe.waitUntilExit()
        return probe.terminationStatus == 0 ? url : nil
    }
    return nil
}()

/// A stand-in for the engine registry's `engine:` definition (FMSuite cannot see FMEngines; the CLI
/// tests check the real one through `fmeval schema suite`).
private let anyEngine = #"{ "type": ["string", "object"] }"#

/// Runs the schema test when python-jsonschema is here, or in CI (where its absence is a failure).
private let jsonschemaRunnable = jsonschemaPython != nil || toolsRequired

/// Checks the schema against the draft 2020-12 meta-schema, then prints `NAME<TAB>PATH: MESSAGE` for
/// every error of every instance in the JSON file given as argv[1] (`{"schema", "instances": [{name, instance}]}`).
private let validatorScript = """
import json, sys, jsonschema
payload = json.load(open(sys.argv[1], encoding="utf-8"))
jsonschema.Draft202012Validator.check_schema(payload["schema"])
validator = jsonschema.Draft202012Validator(payload["schema"])
for item in payload["instances"]:
    for error in validator.iter_errors(item["instance"]):
        print(item["name"] + "\\t/" + "/".join(str(p) for p in error.absolute_path) + ": " + error.message[:300])
print("checked", len(payload["instances"]))
"""

/// The schema errors python-jsonschema finds in each named JSON instance, by name; nil when python is missing.
private func schemaErrors(_ instances: [(name: String, json: String)], sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> [String: [String]]? {
    guard let python = jsonschemaPython else {
        Issue.record("python3 with jsonschema is missing: pip install jsonschema pyyaml (.ci/run does)", sourceLocation: sourceLocation)
        return nil
    }
    let items = instances.map { "{\"name\": \(GeneratedContent($0.name).jsonString), \"instance\": \($0.json)}" }
    let payload = "{\"schema\": \(SuiteJSONSchema.text(engine: anyEngine)), \"instances\": [\(items.joined(separator: ",\n"))]}"
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-schema-\(UUID().uuidString).json")
    try Data(payload.utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let process = Process()
    process.executableURL = python
    process.arguments = ["-c", validatorScript, file.path]
    let out = Pipe()
    process.standardOutput = out
    process.standardError = out
    try process.run()
    let text = String(decoding: readToEnd(out.fileHandleForReading), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0, text.contains("checked \(instances.count)") else {
        Issue.record("the validator failed (is the schema itself valid?): \(text)", sourceLocation: sourceLocation)
        return nil
    }
    var errors: [String: [String]] = [:]
    for line in text.split(separator: "\n") where line.contains("\t") {
        let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
        errors[parts[0], default: []].append(parts[1])
    }
    return errors
}

/// YAML text as JSON, converted by FMSuite's own parser (so the schema sees what the reader sees).
private func json(ofYAML text: String, file: String) throws -> String {
    try NodeDecoding.content(of: YAMLParser.parse(text, file: file)).jsonString
}

/// Every example in docs/suite-format.md as a complete suite: whole suites as written, fragments of top-level
/// keys with a name added, case-level fragments (`expect:`) inside a case, and JSON dataset lines as cases.
private func documentedSuites() throws -> [(name: String, json: String)] {
    let doc = try String(contentsOf: suitePackageRoot.appendingPathComponent("docs/suite-format.md"), encoding: .utf8)
    var found: [(name: String, json: String)] = []
    let blocks = doc.components(separatedBy: "```").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
    for (number, block) in blocks.enumerated() {
        let language = block.prefix { $0 != "\n" }
        let body = String(block.drop { $0 != "\n" })
        let name = "docs/suite-format.md block \(number + 1)"
        if language == "json" {
            // Dataset lines (one case per line); other JSON, such as editor settings, is not a suite.
            for line in body.split(separator: "\n") where line.hasPrefix("{\"id\"") {
                found.append((name, "{\"suite\": \"doc\", \"cases\": [\(line)]}"))
            }
            continue
        }
        guard language == "yaml" else { continue }
        // "# or" separates alternative spellings of one key within a block.
        for (part, chunk) in body.components(separatedBy: "\n# or\n").enumerated() {
            let content = try NodeDecoding.content(of: YAMLParser.parse(chunk, file: name))
            guard let keys = content.orderedKeysIfObject else { continue }
            let label = "\(name).\(part + 1)"
            if keys.contains("suite") {
                found.append((label, content.jsonString))
            } else if Set(keys).isSubset(of: SuiteReader.suiteKeys) {
                let cases = keys.contains("cases") || keys.contains("dataset") ? "" : ", \"cases\": []"
                found.append((label, "{\"suite\": \"doc\"\(cases), " + content.jsonString.dropFirst()))
            } else if Set(keys).isSubset(of: SuiteReader.caseKeys) {
                found.append((label, "{\"suite\": \"doc\", \"cases\": [{\"id\": \"doc\", \"prompt\": \"p\", " + content.jsonString.dropFirst() + "]}"))
            } else {
                Issue.record("\(label) is neither a suite nor a fragment of one: keys \(keys)")
            }
        }
    }
    return found
}

private extension GeneratedContent {
    /// The keys of an object, in order; nil for other values.
    var orderedKeysIfObject: [String]? {
        if case .structure(_, let keys) = kind { return keys }
        return nil
    }
}

@Test(.enabled(if: jsonschemaRunnable)) func everyExampleSuiteAndDocExampleValidatesAgainstTheSchema() throws {
    let folder = suitePackageRoot.appendingPathComponent("suites")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") }.sorted()
    #expect(files.count >= 5, "the example suites: \(files)")
    var instances = try files.map { name in
        ("suites/\(name)", try json(ofYAML: String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8), file: name))
    }
    let datasets = suitePackageRoot.appendingPathComponent("fixtures/datasets")
    for name in try FileManager.default.contentsOfDirectory(atPath: datasets.path) where name.hasSuffix(".jsonl") {
        for line in try String(contentsOf: datasets.appendingPathComponent(name), encoding: .utf8).split(separator: "\n") {
            instances.append(("fixtures/datasets/\(name)", "{\"suite\": \"dataset\", \"cases\": [\(line)]}"))
        }
    }
    let documented = try documentedSuites()
    #expect(documented.count >= 12, "docs/suite-format.md examples found: \(documented.map(\.name))")
    instances += documented
    guard let errors = try schemaErrors(instances) else { return }
    #expect(errors.isEmpty, "\(errors.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.joined(separator: "; "))" }.joined(separator: "\n"))")
}

@Test(.enabled(if: jsonschemaRunnable)) func misspelledKeysFailTheSchema() throws {
    let valid = """
    suite: s
    options: { sampling: greedy, maximumResponseTokens: 8 }
    cases:
      - id: a
        prompt: Hi
        knownIssue: { reason: flaky on small models, url: "https://example.com/issues/1" }
        expect:
          - contains: { substrings: [hello], ignoreCase: true }
          - toolCalls: { ordered: [ { name: lookup, arguments: { q: { hasPrefix: x } } } ] }
    """
    let broken: [(String, String)] = [
        ("top-level", valid.replacingOccurrences(of: "options:", with: "option:")),
        ("case key", valid.replacingOccurrences(of: "prompt: Hi", with: "promt: Hi")),
        ("option", valid.replacingOccurrences(of: "maximumResponseTokens", with: "maxResponseTokens")),
        ("expectation kind", valid.replacingOccurrences(of: "- contains:", with: "- contain:")),
        ("expectation key", valid.replacingOccurrences(of: "ignoreCase", with: "ignorecase")),
        ("trajectory key", valid.replacingOccurrences(of: "ordered:", with: "orderd:")),
        ("known issue key", valid.replacingOccurrences(of: "reason:", with: "reasons:")),
        ("wrong type", valid.replacingOccurrences(of: "maximumResponseTokens: 8", with: "maximumResponseTokens: eight")),
        ("missing prompt", valid.replacingOccurrences(of: "    prompt: Hi\n", with: "")),
    ]
    var instances = [("valid", try json(ofYAML: valid, file: "valid.yaml"))]
    for (name, text) in broken {
        #expect(text != valid, "\(name): the replacement did not apply")
        instances.append((name, try json(ofYAML: text, file: "\(name).yaml")))
    }
    guard let errors = try schemaErrors(instances) else { return }
    #expect(errors["valid"] == nil, "\(errors["valid"] ?? [])")
    for (name, _) in broken { #expect(errors[name] != nil, "the schema accepts a suite with a bad \(name)") }
    #expect(errors["top-level"]?.contains { $0.contains("'option' was unexpected") } == true, "\(errors["top-level"] ?? [])")
}

@Test func schemaNamesEveryKeyTheReaderAccepts() throws {
    let schema = try GeneratedContent(json: SuiteJSONSchema.text(engine: anyEngine))
    func keys(_ pointer: String) -> Set<String> {
        var node: GeneratedContent? = schema
        for part in pointer.split(separator: "/") {
            if let index = Int(part) { node = node?.arrayValue?[index] } else { node = node?[String(part)] }
        }
        return Set(node?.orderedKeysIfObject ?? [])
    }
    #expect(schema["$schema"]?.stringValue == "https://json-schema.org/draft/2020-12/schema")
    #expect(Set(SuiteReader.suiteKeys).isSubset(of: keys("properties")), "\(Set(SuiteReader.suiteKeys).subtracting(keys("properties")))")
    #expect(Set(SuiteReader.caseKeys).isSubset(of: keys("$defs/case/properties")))
    #expect(Set(ExpectationRegistry.builtIn.keywords) == keys("$defs/expectations/properties"))
    #expect(Set(RunSettings.keys + ["sampling", "temperature", "maximumResponseTokens", "toolCallingMode"]) == keys("$defs/options/properties"))
    #expect(Set(ArgumentMatcher.keywords + ArgumentMatcher.modifierKeys) == keys("$defs/argumentMatcher/anyOf/0/properties"))
    for def in ["", "$defs/case/", "$defs/variant/"] { #expect(keys(def + "properties").contains("knownIssue"), "\(def)") }
}

@Test func theSchemaListsExactlyTheRegistrysKeywordsInOrder() throws {
    let schema = try GeneratedContent(json: SuiteJSONSchema.text(engine: anyEngine))
    let properties = try #require(schema["$defs"]?["expectations"]?["properties"]?.orderedKeysIfObject)
    #expect(properties == ExpectationRegistry.builtIn.keywords)
    for kind in ExpectationRegistry.builtIn.kinds {
        #expect(SuiteJSONSchema.text(engine: anyEngine).contains(kind.jsonSchema.properties.replacingOccurrences(of: "\n", with: "\n        ")), "\(kind.keyword)")
    }
}

/// A kind a library user adds: a stand-in with its own keyword and schema fragment.
private struct ShoutExpectation: ExpectationKind {
    static let keyword = "shout"
    static var jsonSchema: ExpectationSchemaFragment {
        ExpectationSchemaFragment(properties: #""shout": { "type": "boolean" }"#,
                                  definitions: #""shoutNote": { "type": "string" }"#)
    }
    func evaluator(in environment: EvaluationEnvironment) -> any Evaluator {
        ContainsEvaluator(ContainsExpectation(["!"]))
    }
}

@Test func aRegisteredKindIsInTheSchemaOfItsRegistryOnly() throws {
    let registry = try ExpectationRegistry.builtIn.registering(ShoutExpectation.self)
    let schema = try GeneratedContent(json: SuiteJSONSchema.text(engine: anyEngine, registry: registry))
    let properties = try #require(schema["$defs"]?["expectations"]?["properties"]?.orderedKeysIfObject)
    #expect(properties == ExpectationRegistry.builtIn.keywords + ["shout"])
    #expect(schema["$defs"]?["shoutNote"]?["type"]?.stringValue == "string")
    #expect(!SuiteJSONSchema.text(engine: anyEngine).contains("shout"))
}
