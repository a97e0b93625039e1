import FMCore

extension SuiteReader {
    /// Calls `body` with each entry under `cases:` in document order: those parsed with the document, then
    /// those the parser left to stream (`streamedCases`), one at a time. Returns false, calling nothing, when
    /// `cases` is not a list. A syntax error in the streamed part ends the loop and is kept in `streamError`.
    func forEachCase(in casesNode: YAMLNode, _ body: (YAMLNode) -> Void) -> Bool {
        guard let items = casesNode.sequence else { return false }
        items.forEach(body)
        guard let stream = streamedCases else { return true }
        streamedCases = nil
        do {
            while let node = try stream.next() { body(node) }
        } catch let diagnostic as Diagnostic {
            streamError = diagnostic
        } catch {
            streamError = Diagnostic(casesNode.location, "\(error)")
        }
        return true
    }
}
