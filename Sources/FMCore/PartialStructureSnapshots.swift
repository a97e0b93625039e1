/// The partial structures of a growing JSON text, as a stream shows them: a snapshot each time the
/// parsed structure changes. The text is parsed after every delta while it is short, then each time it
/// has grown by an eighth, so a whole stream costs time linear in its length (a parse of the whole text
/// per delta would be quadratic: a hostile server's multi-megabyte answer in one-byte events).
public struct PartialStructureSnapshots: Sendable {
    /// The text length in bytes up to which every delta is parsed.
    public static let everyDeltaBytes = 16 * 1024

    private var parsedLength = 0
    private var last: GeneratedContent?

    /// A stream that has shown nothing yet.
    public init() {}

    /// The structure once the text grew to `length` UTF-8 bytes (`text` is built only when it is
    /// parsed), or nil when it is not parsed at this length, not yet a structure, or unchanged.
    public mutating func next(length: Int, text: () -> String) -> GeneratedContent? {
        guard length <= Self.everyDeltaBytes || length - parsedLength >= parsedLength / 8 else { return nil }
        parsedLength = length
        guard let snapshot = GeneratedContent.partial(json: text()),
              snapshot != last || snapshot.isComplete != last?.isComplete else { return nil }
        last = snapshot
        return snapshot
    }

    /// `next(length:text:)` for a text at hand.
    public mutating func next(_ text: String) -> GeneratedContent? {
        next(length: text.utf8.count) { text }
    }
}
