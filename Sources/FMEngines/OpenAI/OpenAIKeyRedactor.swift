/// Replaces the API key with `[redacted]` in text that arrives in pieces (streamed deltas), matching
/// ASCII letters case-insensitively and scalar by scalar, so that an echo split across events or
/// chunks, or sent in another case, is caught as a whole. It holds back the tail of what it was fed
/// while that tail could be the start of the key, and releases it once it cannot (or at `flush`).
public struct OpenAIKeyRedactor: Sendable {
    /// What replaces each occurrence of the key.
    public static let marker = "[redacted]"

    private let key: [UInt32]
    private var held: [Unicode.Scalar] = []

    /// A redactor for `apiKey`; with no key (or an empty one) it passes text through unchanged.
    public init(apiKey: String?) {
        key = (apiKey ?? "").unicodeScalars.map { Self.folded($0.value) }
    }

    /// `text` with every occurrence of `apiKey` (in any ASCII case) replaced by `[redacted]`.
    public static func redact(_ text: String, apiKey: String?) -> String {
        var redactor = OpenAIKeyRedactor(apiKey: apiKey)
        return redactor.feed(text) + redactor.flush()
    }

    /// Takes the next piece and returns what can be released now, redacted.
    public mutating func feed(_ piece: String) -> String {
        guard !key.isEmpty else { return piece }
        held.append(contentsOf: piece.unicodeScalars)
        var released = String.UnicodeScalarView()
        var index = 0
        while index < held.count {
            let match = matchLength(at: index)
            if match == key.count {
                released.append(contentsOf: Self.marker.unicodeScalars)
                index += key.count
            } else if match == held.count - index {
                break
            } else {
                released.append(held[index])
                index += 1
            }
        }
        held.removeFirst(index)
        return String(released)
    }

    /// Releases whatever is held back (the stream ended: it cannot grow into the key any more).
    public mutating func flush() -> String {
        var rest = String.UnicodeScalarView()
        rest.append(contentsOf: held)
        held = []
        return String(rest)
    }

    /// How many scalars of the key match `held` from `index` (stopping at the first difference).
    private func matchLength(at index: Int) -> Int {
        var length = 0
        while length < key.count, index + length < held.count, Self.folded(held[index + length].value) == key[length] {
            length += 1
        }
        return length
    }

    /// ASCII upper case folded to lower case; every other scalar unchanged.
    private static func folded(_ value: UInt32) -> UInt32 {
        (65...90).contains(value) ? value + 32 : value
    }
}
