import Testing
@testable import FMEngines

/// The key is redacted from text that arrives in pieces, in any ASCII case, and nothing else changes.
@Suite struct OpenAIKeyRedactorTests {
    static let key = "sk-Canary-42"

    /// Feeds `pieces` one by one and returns what was released after each, then the flush.
    func released(_ pieces: [String], key: String? = key) -> [String] {
        var redactor = OpenAIKeyRedactor(apiKey: key)
        return pieces.map { redactor.feed($0) } + [redactor.flush()]
    }

    @Test func aKeySplitAnywhereIsRedactedWhole() {
        let text = "a sk-Canary-42 b"
        for cut in 1..<text.count {
            let pieces = [String(text.prefix(cut)), String(text.dropFirst(cut))]
            #expect(released(pieces).joined() == "a [redacted] b", "cut at \(cut)")
        }
        #expect(released(text.map(String.init)).joined() == "a [redacted] b")
    }

    @Test func anyASCIICaseMatches() {
        #expect(OpenAIKeyRedactor.redact("SK-CANARY-42 sk-canary-42 Sk-cAnArY-42", apiKey: Self.key)
                == "[redacted] [redacted] [redacted]")
    }

    @Test func onlyAPossibleStartOfTheKeyIsHeldBack() {
        #expect(released(["hello sk-Ca", "ndy"]) == ["hello ", "sk-Candy", ""])
        #expect(released(["sk-sk-Canary-42"]) == ["sk-[redacted]", ""])
        #expect(released(["ends with sk-"]) == ["ends with ", "sk-"])
        #expect(released(["é😀 東京"]) == ["é😀 東京", ""])
    }

    @Test func withoutAKeyTextPassesThrough() {
        #expect(released(["sk-Canary-42"], key: nil) == ["sk-Canary-42", ""])
        #expect(released(["x"], key: "") == ["x", ""])
    }
}
