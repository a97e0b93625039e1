/// The parts of a large HTML report that the page's own script turns into DOM after the first paint: the
/// details and suite-table rows of the cases that hold the run (docs/reports.md, "Large reports").
///
/// Consecutive lazy items share a chunk of at most `chunkSize`; each chunk leaves an empty placeholder
/// (`<tr id="lazy-K">` in a table, `<div id="lazy-K">` among the case details) where it belongs, so the page
/// keeps its order. Each chunk's markup, escaped exactly as static markup is, travels in a
/// `<script type="text/x-fmeval-chunk">` data block, which the browser neither runs nor renders nor parses
/// into elements. Model output in it is escaped text already (no `<` of its own); were fmeval's own markup
/// ever to hold `<!--` or `<script`, which could end the block early, that `<` is written `&lt;`.
struct HTMLLazyChunks {
    /// Most items per chunk: small enough that rendering one stays well under a frame's worth of work.
    static let chunkSize = 100

    /// The id of the data block the script reads.
    static let dataID = "fmeval-lazy"

    /// The markup of each finished chunk.
    private(set) var chunks: [String] = []
    /// The anchor (`case-N`) of each lazy case's details, with the chunk holding them.
    private(set) var anchors: [(anchor: String, chunk: Int)] = []
    private var open: HTMLBuffer?
    private var openCount = 0

    /// Writes one item through `body` into the open chunk, or into a new one whose placeholder `<tag>` goes
    /// into `page`; `anchor` is the id the item's markup carries, for `#anchor` links.
    mutating func write(placeholder tag: String, anchor: String? = nil, into page: inout HTMLBuffer,
                        _ body: (inout HTMLBuffer) -> Void) {
        if open == nil || openCount == Self.chunkSize {
            end()
            page.raw("<\(tag) id=\"lazy-\(chunks.count)\" class=\"lazy\"></\(tag)>\n")
            open = HTMLBuffer(capacity: 1 << 18)
            openCount = 0
        }
        if let anchor { anchors.append((anchor, chunks.count)) }
        body(&open!)
        openCount += 1
    }

    /// Finishes the open chunk, so the next lazy item starts a new one (call before writing an item statically).
    mutating func end() {
        guard let buffer = open else { return }
        chunks.append(buffer.html)
        open = nil
    }

    /// Appends the data blocks: `{"chunks":N,"anchors":{"case-N":K,…}}` as JSON, then each chunk's markup.
    func writeData(into page: inout HTMLBuffer) {
        page.raw("<script type=\"application/json\" id=\"\(Self.dataID)\">{\"chunks\":\(chunks.count),\"anchors\":{")
        page.raw(anchors.map { "\"\($0.anchor)\":\($0.chunk)" }.joined(separator: ","))
        page.raw("}}</script>\n")
        for (index, chunk) in chunks.enumerated() {
            page.raw("<script type=\"text/x-fmeval-chunk\" id=\"fmeval-chunk-\(index)\">")
            page.raw(Self.scriptSafe(chunk))
            page.raw("</script>\n")
        }
    }

    /// `markup` with the `<` of every `<!--`, `<script` and `</script` (any case) written `&lt;`, so it cannot
    /// end or escape the data block that holds it.
    static func scriptSafe(_ markup: String) -> String {
        let bytes = Array(markup.utf8)
        var output: [UInt8] = []
        var copied = 0
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "<") && opensScript(bytes, at: index + 1) {
                if output.isEmpty { output.reserveCapacity(bytes.count + 64) }
                output.append(contentsOf: bytes[copied..<index])
                output.append(contentsOf: "&lt;".utf8)
                copied = index + 1
            }
            index += 1
        }
        if copied == 0 { return markup }
        output.append(contentsOf: bytes[copied...])
        return String(decoding: output, as: UTF8.self)
    }

    /// True when the bytes from `start` are `!--`, `script` or `/script` (letters in any case).
    private static func opensScript(_ bytes: [UInt8], at start: Int) -> Bool {
        func matches(_ word: String, at offset: Int) -> Bool {
            let letters = Array(word.utf8)
            guard offset + letters.count <= bytes.count else { return false }
            for (position, letter) in letters.enumerated() where bytes[offset + position] | 0x20 != letter {
                return false
            }
            return true
        }
        guard start < bytes.count else { return false }
        switch bytes[start] {
        case UInt8(ascii: "!"): return start + 2 < bytes.count && bytes[start + 1] == 0x2D && bytes[start + 2] == 0x2D
        case UInt8(ascii: "s"), UInt8(ascii: "S"): return matches("script", at: start)
        case UInt8(ascii: "/"): return matches("script", at: start + 1)
        default: return false
        }
    }
}
