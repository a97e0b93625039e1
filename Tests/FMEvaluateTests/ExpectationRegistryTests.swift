import FMCore
import Foundation
import Testing
@testable import FMEvaluate

/// The registry is the one list of expectation kinds: keywords are unique and every lookup goes through it.
@Suite struct ExpectationRegistryTests {
    @Test func everyKeywordIsRegisteredOnce() {
        let registry = ExpectationRegistry.builtIn
        let keywords = registry.keywords
        #expect(Set(keywords).count == keywords.count, "\(keywords)")
        #expect(keywords == ["equals", "oneOf", "contains", "regex", "not", "constraints", "schema", "toolCalls",
                             "error", "usage", "latency", "snapshots", "judge", "command"])
        for kind in registry.kinds {
            for keyword in [kind.keyword] + kind.synonyms {
                #expect(registry.kind(named: keyword).map { $0 == kind } == true, "\(keyword)")
            }
        }
        #expect(registry.kind(named: "Contains") == nil)
        #expect(registry.kind(named: "") == nil)
    }

    @Test func aSynonymReadsAsItsKindAndWritesItsKeyword() throws {
        let decoded = try JSONDecoder().decode(Expectation.self, from: Data(#"{"schema": {"maxViolations": 1}}"#.utf8))
        #expect(decoded.kind == "constraints")
        #expect(decoded.payload(as: ConstraintExpectation.self)?.maxViolations == 1)
        #expect(decoded.payload(as: ContainsExpectation.self) == nil)
        #expect(String(decoding: try JSONEncoder().encode(decoded), as: UTF8.self).hasPrefix(#"{"constraints":"#))
    }

    @Test func kindsOfDifferentTypesAreNeverEqual() {
        #expect(Expectation.contains(ContainsExpectation(["a"])) != .not(.contains(ContainsExpectation(["a"]))))
        #expect(Expectation.oneOf(OneOfExpectation(["a"])) != .equals(EqualsExpectation("a")))
        #expect(Expectation.not(.regex(RegexExpectation("a"))) == .not(.regex(RegexExpectation("a"))))
    }

    @Test func kindPropertiesComeFromTheKind() throws {
        #expect(Expectation.error(ErrorExpectation()).covers(errorNamed: "refusal", class: .modelBehavior))
        #expect(!Expectation.not(.error(ErrorExpectation())).covers(errorNamed: "refusal", class: .modelBehavior))
        #expect(Expectation.error(ErrorExpectation(caseName: "rateLimited")).namesRetryableError)
        #expect(Expectation.not(.constraints(ConstraintExpectation())).needsRequestedSchema)
        #expect(!Expectation.constraints(ConstraintExpectation(schema: try GenerationSchema(content: GeneratedContent(json: #"{"type": "string"}"#)))).needsRequestedSchema)
        #expect(Expectation.not(.judge(JudgeConfig(engine: "j", criteria: "c"))).judgeEngines == [JudgeEngineChoice(name: "j")])
        #expect(Expectation.not(.oneOf(OneOfExpectation([]))).problems == ["not: oneOf needs at least one value"])
        for kind in ExpectationRegistry.builtIn.kinds {
            #expect(kind.jsonSchema.properties.hasPrefix("\"\(kind.keyword)\": {"), "\(kind.keyword)")
        }
    }
}
