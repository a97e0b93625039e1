import Foundation
import Testing
import FMCore
@testable import FMSuite

@Test func engineNameStaysAScalarWithItsLocation() throws {
    let (suite, diagnostics) = loadSuite("suite: x\nengine: scripted\ncases:\n  - id: a\n    prompt: hi\n    script: [ { text: ok } ]\n")
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    let engine = try #require(suite).engine
    #expect(engine.name == "scripted" && engine.options.isEmpty)
    #expect(engine.location == SourceLocation(file: "s.yaml", line: 2, column: 9))
}

@Test func engineMappingKeepsOptionsAndWhereEachWasWritten() throws {
    let text = """
    suite: x
    engine:
      name: openai
      baseURL: http://localhost:8080/v1
      timeout: 30
      extra: { seed: 1 }
    cases:
      - id: a
        prompt: hi
    """
    let (suite, diagnostics) = loadSuite(text)
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    let engine = try #require(suite).engine
    #expect(engine.name == "openai")
    #expect(engine.options["baseURL"]?.stringValue == "http://localhost:8080/v1")
    #expect(engine.options["timeout"]?.intValue == 30)
    #expect(engine.options["extra"]?["seed"]?.intValue == 1)
    #expect(engine.optionLocations["timeout"] == SourceLocation(file: "s.yaml", line: 5, column: 3))
    let expanded = try #require(suite).expanded()
    #expect(expanded.first?.engine == "openai" && expanded.first?.engineSpec.options.count == 3)
}

@Test func aVariantOnTheSameEngineLaysItsOptionsOverTheSuites() throws {
    let text = """
    suite: x
    engine: { name: openai, baseURL: http://a, model: m1 }
    variants:
      - { name: same, engine: { name: openai, model: m2 } }
      - { name: other, engine: scripted }
      - { name: plain }
    cases:
      - { id: a, prompt: hi, script: [ { text: ok } ] }
    """
    let (suite, diagnostics) = loadSuite(text)
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    let cases = try #require(suite).expanded()
    let byVariant = Dictionary(uniqueKeysWithValues: cases.map { ($0.variant ?? "", $0.engineSpec) })
    #expect(byVariant["same"]?.options["model"]?.stringValue == "m2")
    #expect(byVariant["same"]?.options["baseURL"]?.stringValue == "http://a")
    #expect(byVariant["same"]?.optionLocations["model"]?.line == 4)
    #expect(byVariant["other"]?.name == "scripted" && byVariant["other"]?.options.isEmpty == true)
    #expect(byVariant["plain"]?.options["model"]?.stringValue == "m1")
}

@Test func engineOptionsAppearInTheExpansionOnlyWhenGiven() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let plain = try #require(loadSuite("suite: x\ncases:\n  - { id: a, prompt: hi }\n").suite).expanded()
    #expect(!String(decoding: try encoder.encode(plain), as: UTF8.self).contains("engineOptions"))
    let open = try #require(loadSuite("suite: x\nengine: { name: openai, timeout: 5 }\ncases:\n  - { id: a, prompt: hi }\n").suite).expanded()
    #expect(String(decoding: try encoder.encode(open), as: UTF8.self).contains(#""engineOptions":{"timeout":5}"#))
}

@Test(arguments: [
    ("suite: x\nengine: { baseURL: http://a }\ncases:\n  - { id: a, prompt: hi }\n", 2, 9, "an engine mapping needs a 'name'"),
    ("suite: x\nengine: { name: 3 }\ncases:\n  - { id: a, prompt: hi }\n", 2, 17, "engine name must be a string"),
    ("suite: x\nengine: [embedded]\ncases:\n  - { id: a, prompt: hi }\n", 2, 9, "engine must be a name or a mapping"),
    ("suite: x\nengine: { name: embedded, model: ./missing.gguf }\ncases:\n  - { id: a, prompt: hi }\n", 2, 34, "missing.gguf"),
])
func malformedEngineMappingsAreLocated(text: String, line: Int, column: Int, message: String) throws {
    try expectLocatedDiagnostic(text, message, line: line, column: column)
}
