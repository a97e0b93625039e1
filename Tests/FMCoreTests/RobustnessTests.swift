import Testing
@testable import FMCore


/// Characters that tend to break JSON structure when inserted.
private let noise: [Character] = ["{", "}", "[", "]", ",", ":", "\"", "\\", "-", "0", "9", "e", ".", "t", "n", " ", "\n", "é", "😀", "#", "$", "u"]

@Test(arguments: referenceSchemaNames + ["test_transcript", "test_transcript_full"])
func mutatedReferenceFilesNeverTrap(name: String) throws {
    let original = Array(try referenceText(name))
    var random = SplitMix64(seed: UInt64(name.utf8.reduce(7) { $0 &* 31 &+ UInt64($1) }))
    var parsed = 0
    for _ in 0..<400 {
        var text = original
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let position = Int.random(in: 0..<text.count, using: &random)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: text.remove(at: position)
            case 1: text.insert(noise.randomElement(using: &random)!, at: position)
            default: text[position] = noise.randomElement(using: &random)!
            }
        }
        let mutated = String(text)
        _ = GeneratedContent.partial(json: mutated)
        guard let content = try? GeneratedContent(json: mutated) else { continue }
        parsed += 1
        if let schema = try? GenerationSchema(content: content) {
            _ = SchemaValidator.violations(of: content, against: schema)
            _ = try GenerationSchema(content: schema.content)
        }
        if let transcript = try? Transcript(content: content) {
            _ = transcript.structuredTranscript.content.jsonString
        }
    }
    #expect(parsed > 0, "no mutation of \(name) stayed valid JSON; the test exercises only the parser")
}
