import FMCore
import Foundation
import Testing
@testable import FMSuite


/// One seeded mutation of `text`: truncation, a byte flip, an indentation change, a duplicated line
/// (duplicate keys), a deleted line or two swapped lines.
func mutate(_ text: String, using random: inout SplitMix64) -> String {
    var bytes = Array(text.utf8)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let structural = Array(":-# \t\n\"'[]{},&*!|>?%@`\\".utf8)
    switch Int.random(in: 0..<6, using: &random) {
    case 0:
        bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random)))
    case 1:
        for _ in 0..<Int.random(in: 1...3, using: &random) where !bytes.isEmpty {
            let index = Int.random(in: 0..<bytes.count, using: &random)
            bytes[index] = Bool.random(using: &random) ? structural.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random)
        }
    case 2:
        let index = Int.random(in: 0..<lines.count, using: &random)
        if Bool.random(using: &random) {
            lines[index] = String(repeating: " ", count: Int.random(in: 1...3, using: &random)) + lines[index]
        } else {
            lines[index] = String(lines[index].dropFirst(Int.random(in: 1...4, using: &random)))
        }
        return lines.joined(separator: "\n")
    case 3:
        let index = Int.random(in: 0..<lines.count, using: &random)
        lines.insert(lines[index], at: Int.random(in: index...lines.count, using: &random))
        return lines.joined(separator: "\n")
    case 4:
        lines.remove(at: Int.random(in: 0..<lines.count, using: &random))
        return lines.joined(separator: "\n")
    default:
        let a = Int.random(in: 0..<lines.count, using: &random), b = Int.random(in: 0..<lines.count, using: &random)
        lines.swapAt(a, b)
        return lines.joined(separator: "\n")
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// Whether a diagnostic names a file and a real line:column in the canonical format.
func isLocated(_ diagnostic: Diagnostic, lineCount: [String: Int]) -> Bool {
    let location = diagnostic.location
    guard !location.file.isEmpty, location.line >= 1, location.column >= 1, !diagnostic.message.isEmpty else { return false }
    if let count = lineCount[location.file], location.line > count + 1 { return false }
    return diagnostic.description.hasPrefix("\(location.file):\(location.line):\(location.column): error: ")
}

@Test func fuzzedSuitesNeverCrashAndEveryErrorIsLocated() throws {
    let suites = try SuiteLoader.suiteFiles(in: [suitePackageRoot.appendingPathComponent("suites").path]).files
        .map { ($0, try String(contentsOfFile: $0, encoding: .utf8)) }
    try #require(suites.count >= 3)
    var random = SplitMix64(seed: 0xF00D_5EED)
    var inputs = 0, failing = 0, unlocated: [String] = []
    for round in 0..<700 {
        for (file, original) in suites {
            var text = mutate(original, using: &random)
            if round % 5 == 0 { text = mutate(text, using: &random) }
            inputs += 1
            let (_, diagnostics) = SuiteLoader.load(text: text, file: file)
            if !diagnostics.isEmpty { failing += 1 }
            let lineCount = [file: text.split(separator: "\n", omittingEmptySubsequences: false).count]
            for diagnostic in diagnostics where !isLocated(diagnostic, lineCount: lineCount) {
                unlocated.append("\(diagnostic) ← input \(inputs)")
            }
        }
    }
    #expect(inputs >= 2_000)
    #expect(failing > inputs / 4, "the mutations should break many inputs (\(failing) of \(inputs))")
    #expect(unlocated.isEmpty, "\(unlocated.prefix(5))")
}

@Test func fuzzedJSONNeverCrashesAndErrorsAreLocated() throws {
    let files = ["fixtures/schemas/ticket.json", "fixtures/datasets/sentiment.jsonl"]
    var random = SplitMix64(seed: 42)
    var inputs = 0
    for path in files {
        let original = try String(contentsOf: suitePackageRoot.appendingPathComponent(path), encoding: .utf8)
        for _ in 0..<300 {
            let text = mutate(original, using: &random)
            inputs += 1
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let documents = path.hasSuffix(".jsonl") ? lines.enumerated().map { ($0.element, $0.offset) } : [(text, 0)]
            for (document, offset) in documents where !document.isEmpty {
                do {
                    _ = try JSONNodeReader.parse(document, file: path, lineOffset: offset)
                } catch let diagnostic as Diagnostic {
                    #expect(isLocated(diagnostic, lineCount: [path: lines.count]), "\(diagnostic)")
                }
            }
        }
    }
    #expect(inputs == 600)
}
