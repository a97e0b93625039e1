import FMResults

extension CaseResult {
    /// The case's `source` (`file:line`) split into its file and line; nil without one or without a line.
    var sourcePosition: (file: String, line: Int)? {
        guard let source, let colon = source.lastIndex(of: ":"),
              let line = Int(source[source.index(after: colon)...]) else { return nil }
        return (String(source[..<colon]), line)
    }
}
