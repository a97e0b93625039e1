import Foundation
import Testing
@testable import FMSuite

/// Case ids key the results, the journal, `--resume` and the history: two cases of one load never share one.
@Suite struct CaseIDCollisionTests {
    private func load(_ files: [String: String]) throws -> SuiteLoadResult {
        let folder = try makeFolder(files)
        defer { try? FileManager.default.removeItem(at: folder) }
        return SuiteLoader.load(paths: [folder.path])
    }

    private func suite(_ name: String, cases: [String], variants: [String] = []) -> String {
        let variantList = variants.isEmpty ? "" : "variants:\n" + variants.map { "  - name: \($0)\n" }.joined()
        return "suite: \"\(name)\"\nengine: scripted\n\(variantList)cases:\n"
            + cases.map { "  - { id: \"\($0)\", prompt: hi, script: [ { text: ok } ] }\n" }.joined()
    }

    @Test func twoSuitesOfOneNameAreALocatedErrorNamingBothPlaces() throws {
        let result = try load(["a.yaml": suite("s", cases: ["x"]), "b.yaml": suite("s", cases: ["y", "x"])])
        let collision = try #require(result.diagnostics.first, "\(result.diagnostics)")
        #expect(result.diagnostics.count == 1)
        #expect(collision.location.file.hasSuffix("b.yaml") && collision.location.line == 5 && collision.location.column == 5)
        #expect(collision.message.contains("case id 's/x' is also the id of the case at "))
        #expect(collision.message.contains("a.yaml:4:5"), "\(collision.message)")
    }

    @Test func slashesInSuiteAndCaseNamesCannotSpellOneIdTwice() throws {
        let result = try load(["a.yaml": suite("s", cases: ["x/y"]), "b.yaml": suite("s/x", cases: ["y"])])
        #expect(result.diagnostics.map(\.message).contains { $0.contains("case id 's/x/y' is also the id") },
                "\(result.diagnostics)")
    }

    @Test func nfcAndNfdSpellingsAreOneId() throws {
        let nfc = "caf\u{E9}", nfd = "cafe\u{301}"
        let result = try load(["a.yaml": suite(nfc, cases: ["x"]), "b.yaml": suite(nfd, cases: ["x"])])
        #expect(result.diagnostics.count == 1, "\(result.diagnostics)")
    }

    @Test func aVariantCannotSpellTheIdOfAnotherCase() throws {
        let result = try load(["a.yaml": suite("s", cases: ["c"], variants: ["v"]), "b.yaml": suite("s", cases: ["c@v"])])
        #expect(result.diagnostics.map(\.message).contains { $0.contains("case id 's/c@v' is also the id") },
                "\(result.diagnostics)")
    }

    @Test func distinctIdsLoadWithoutErrors() throws {
        let result = try load(["a.yaml": suite("s", cases: ["x"]), "b.yaml": suite("t", cases: ["x"])])
        #expect(result.diagnostics.isEmpty && result.expandedCases.count == 2)
    }
}
