extension GeneratedContent {
    /// Malformed JSON: where the parser stopped (1-based line and column) and what it expected.
    public struct ParsingError: Error, Hashable, Sendable, CustomStringConvertible {
        /// 1-based line of the offending character.
        public var line: Int
        /// 1-based column (in Unicode scalars) of the offending character.
        public var column: Int
        /// What is wrong, e.g. "expected ':' after an object key".
        public var message: String
        /// The text that failed to parse (Foundation Models' `rawContent`): the model's raw output when a
        /// session raised the error, empty when the parser was given the text directly.
        public var rawContent: String

        /// Creates a parsing error at `line`:`column` of `rawContent`.
        public init(line: Int, column: Int, message: String, rawContent: String = "") {
            self.line = line
            self.column = column
            self.message = message
            self.rawContent = rawContent
        }

        /// "line L, column C: message".
        public var description: String { "line \(line), column \(column): \(message)" }
    }

    /// A position in JSON text.
    public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
        /// 1-based line.
        public var line: Int
        /// 1-based column, in Unicode scalars.
        public var column: Int

        /// Creates a location.
        public init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }

        /// "line:column".
        public var description: String { "\(line):\(column)" }
    }

    /// Parses complete JSON text; throws `ParsingError` with the line and column of the first problem.
    public init(json: String) throws {
        var parser = JSONParser(text: json, partial: false, trackLocations: false)
        self = try parser.parseDocument()!
    }

    /// Parses complete JSON text and also returns where each value starts, keyed by JSON pointer ("" is the root).
    public static func parseWithLocations(json: String) throws -> (content: GeneratedContent, locations: [String: SourceLocation]) {
        var parser = JSONParser(text: json, partial: false, trackLocations: true)
        let content = try parser.parseDocument()!
        return (content, parser.locations)
    }

    /// Parses a prefix of JSON text, as a stream delivers it, into a partial value.
    ///
    /// Nodes still open at the end of the prefix have `isComplete == false`; a member whose key or value
    /// has not started yet is left out. Returns nil when no value has started or the text cannot be the
    /// start of a JSON value.
    public static func partial(json: String) -> GeneratedContent? {
        var parser = JSONParser(text: json, partial: true, trackLocations: false)
        return try? parser.parseDocument()
    }
}

extension GeneratedContent.ParsingError: ClassifiedError {
    /// An unparsable or cut structure is the model's output.
    public var failureClass: FailureClass { .modelBehavior }

    /// `GeneratedContent.ParsingError`.
    public var domain: String { "GeneratedContent.ParsingError" }

    /// `parsingError`.
    public var caseName: String { "parsingError" }

    /// "line L, column C: message".
    public var failureMessage: String { description }
}
