/// A position in a source file: 1-based line and column (columns count Unicode scalars).
public struct SourceLocation: Hashable, Codable, Sendable, CustomStringConvertible {
    /// The file path as given to the loader (relative paths stay relative).
    public var file: String
    /// 1-based line number.
    public var line: Int
    /// 1-based column, in Unicode scalars.
    public var column: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, the prefix of every diagnostic.
    public var description: String { "\(file):\(line):\(column)" }
}

/// One located problem in a suite, dataset or schema file.
public struct Diagnostic: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where the problem is.
    public var location: SourceLocation
    /// What is wrong and what to do about it.
    public var message: String

    /// Creates a diagnostic.
    public init(_ location: SourceLocation, _ message: String) {
        self.location = location
        self.message = message
    }

    /// `path/to/file.yaml:LINE:COL: error: message`.
    public var description: String { "\(location): error: \(message)" }

    /// `path/to/file.yaml:LINE:COL: warning: message`, for a problem that does not stop the suite loading.
    public var warningDescription: String { "\(location): warning: \(message)" }
}

/// Several diagnostics thrown together (validation reports every problem at once).
public struct DiagnosticList: Error, Sendable, CustomStringConvertible {
    /// The problems, in source order.
    public var diagnostics: [Diagnostic]

    /// Creates a list from diagnostics.
    public init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }

    /// One diagnostic per line.
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
