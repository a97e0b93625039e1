import Foundation
import Testing
@testable import FMCore

/// True in CI (`CI=true` or `FMEVAL_REQUIRE_TOOLS=1`, as `.ci/run` sets): a missing reference tool then fails the test.
private let toolsRequired = ProcessInfo.processInfo.environment["CI"]?.lowercased() == "true"
    || ProcessInfo.processInfo.environment["FMEVAL_REQUIRE_TOOLS"] == "1"

/// `python3` on `$PATH` when it can import jsonschema; nil otherwise.
private let pythonWithJSONSchema: URL? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    guard let python = path.split(separator: ":").map({ URL(fileURLWithPath: String($0)).appendingPathComponent("python3") })
        .first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else { return nil }
    let process = Process()
    process.executableURL = python
    process.arguments = ["-c", "import jsonschema"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    process.waitUntilExit()
    return process.terminationStatus == 0 ? python : nil
}()

/// The reference side: python-jsonschema (Draft 2020-12) over a JSONL file of {"schema", "text"} lines, one
/// process for all. Patterns are wrapped as `(?a)\A(?:…)\Z`: the dialect's whole-string, ASCII-class reading.
private let referenceScript = #"""
import json, sys
from jsonschema import Draft202012Validator, validators as schema_validators

# fmeval keeps a number's written form: a decimal such as 2.0 or 1e2 is not an integer (JSON Schema
# would accept it). Python's json reads exactly those texts as floats, so an integer is an int here.
Validator = schema_validators.extend(Draft202012Validator, type_checker=Draft202012Validator.TYPE_CHECKER.redefine(
    "integer", lambda checker, value: isinstance(value, int) and not isinstance(value, bool)))

def whole(node):
    if isinstance(node, list):
        return [whole(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: whole(value) for key, value in node.items()}
    if node.get("type") == "string" and isinstance(node.get("pattern"), str):
        out["pattern"] = "(?a)\\A(?:" + node["pattern"] + ")\\Z"
    return out

def pointer(parts):
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in parts)

validators = {}
with open(sys.argv[1], encoding="utf-8") as lines, open(sys.argv[2], "w", encoding="utf-8") as out:
    for line in lines:
        case = json.loads(line)
        try:
            instance = json.loads(case["text"])
        except ValueError as error:
            out.write(json.dumps({"parsed": False, "line": error.lineno, "column": error.colno}) + "\n")
            continue
        key = json.dumps(case["schema"], sort_keys=True)
        if key not in validators:
            validators[key] = Validator(whole(case["schema"]))
        errors = sorted({pointer(error.absolute_path) + " " + error.validator for error in validators[key].iter_errors(instance)})
        out.write(json.dumps({"parsed": True, "errors": errors}) + "\n")
"""#

/// `fmeval schema check`'s logic against python-jsonschema on a few thousand seeded, generated pairs:
/// the same parse verdict on every text (malformed ones located by line:column), the same validity verdict
/// and the same failing (path, keyword) pairs on every parsed instance.
@Test(.enabled(if: pythonWithJSONSchema != nil || toolsRequired, "python3 with jsonschema is not installed (pip install jsonschema)"))
func schemaCheckAgreesWithPythonJSONSchema() throws {
    guard let python = pythonWithJSONSchema else {
        Issue.record("python3 with the jsonschema package is missing: pip install jsonschema (.ci/run does)")
        return
    }
    var generator = DifferentialGenerator(seed: 13)
    let pairs = (0..<3000).map { _ in generator.pair() }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-differential-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("cases.jsonl"), output = folder.appendingPathComponent("verdicts.jsonl")
    let script = folder.appendingPathComponent("reference.py")
    try Data(referenceScript.utf8).write(to: script)
    try Data(pairs.map { #"{"schema":\#($0.schema),"text":\#(GeneratedContent.quoted($0.instance))}"# + "\n" }.joined().utf8).write(to: input)

    let start = Date()
    let process = Process()
    process.executableURL = python
    process.arguments = [script.path, input.path, output.path]
    try process.run()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "python-jsonschema exited with \(process.terminationStatus)")
    let verdicts = try String(contentsOf: output, encoding: .utf8).split(separator: "\n").map { try GeneratedContent(json: String($0)) }
    try #require(verdicts.count == pairs.count)
    print("python-jsonschema: \(pairs.count) pairs in \(String(format: "%.2f", Date().timeIntervalSince(start))) s")

    var counts = (valid: 0, invalid: 0, malformed: 0, sameSpot: 0, duplicateKeys: 0)
    var disagreements: [String] = []
    for (pair, verdict) in zip(pairs, verdicts) {
        let schema = try GenerationSchema(json: pair.schema)
        let lines = pair.instance.split(separator: "\n", omittingEmptySubsequences: false)
        let document: JSONDocument
        do {
            document = try JSONDocument(text: pair.instance, file: "instance.json")
        } catch let error as JSONDocumentError {
            guard let location = error.location, location.line >= 1, location.line <= lines.count, location.column >= 1,
                  location.column <= lines[location.line - 1].unicodeScalars.count + 1 else {
                disagreements.append("unlocated rejection \(error) of \(pair.instance)")
                continue
            }
            if verdict["parsed"]?.boolValue == true {
                // The dialect refuses duplicate keys, which Python's json keeps (the last one wins).
                if error.message.contains("duplicate object key") { counts.duplicateKeys += 1; continue }
                disagreements.append("we reject, Python parses: \(error) in \(pair.instance)")
            }
            counts.malformed += 1
            if verdict["line"]?.intValue == location.line && verdict["column"]?.intValue == location.column { counts.sameSpot += 1 }
            continue
        }
        guard verdict["parsed"]?.boolValue == true, let expected = verdict["errors"]?.arrayValue?.compactMap(\.stringValue) else {
            disagreements.append("we parse, Python rejects at \(verdict): \(pair.instance)")
            continue
        }
        let found = SchemaValidator.violations(of: document.content, against: schema)
        let ours = comparable(found)
        let theirs = comparableReference(expected)
        if found.isEmpty { counts.valid += 1 } else { counts.invalid += 1 }
        if ours != theirs || found.isEmpty != expected.isEmpty {
            disagreements.append("schema \(pair.schema)\ninstance \(pair.instance)\nours \(ours.sorted())\ntheirs \(theirs.sorted())")
        }
    }
    print("differential: \(counts.valid) valid, \(counts.invalid) invalid, \(counts.malformed) malformed (\(counts.sameSpot) at Python's line:column), \(counts.duplicateKeys) duplicate keys")
    #expect(disagreements.isEmpty, "\(disagreements.count) disagreements; first: \(disagreements.prefix(3).joined(separator: "\n---\n"))")
    #expect(counts.valid > 300 && counts.invalid > 300 && counts.malformed > 100, "the generator must exercise every verdict: \(counts)")
}

/// Our violations as "path keyword", with `required` and `additionalProperties` at the object (as Python reports them).
private func comparable(_ violations: [Violation]) -> Set<String> {
    Set(violations.map { violation in
        switch violation.keyword {
        case .required, .additionalProperties:
            return String(violation.path[..<(violation.path.lastIndex(of: "/") ?? violation.path.startIndex)]) + " " + violation.keyword.rawValue
        default:
            return violation.path + " " + violation.keyword.rawValue
        }
    })
}

/// Python's errors, less `enum` where the type is already wrong (the dialect's enum applies to strings only).
private func comparableReference(_ errors: [String]) -> Set<String> {
    let typeErrors = Set(errors.filter { $0.hasSuffix(" type") }.map { String($0.dropLast(" type".count)) })
    return Set(errors.filter { !($0.hasSuffix(" enum") && typeErrors.contains(String($0.dropLast(" enum".count)))) })
}
