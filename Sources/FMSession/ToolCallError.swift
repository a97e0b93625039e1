import FMCore

/// A tool failed while the model called it — Foundation Models' `LanguageModelSession.ToolCallError`: an
/// unknown tool name (the model's fault), an unreadable fixture, or a command that crashed, hung or printed
/// garbage (the harness's).
public struct ToolCallError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The name of the tool that failed.
    public var tool: String
    /// Why it failed (the device's `underlyingError`).
    public var message: String
    /// Whose fault it is: the harness's fixture or command (`infrastructure`), or the model's call of a tool
    /// the session never offered (`modelBehavior`).
    public var failureClass: FailureClass

    /// Creates the error for `tool`; by default the tool's own failure, infrastructure.
    public init(tool: String, message: String, failureClass: FailureClass = .infrastructure) {
        self.tool = tool
        self.message = message
        self.failureClass = failureClass
    }

    /// The model called `tool`, which the session does not define among `known`: a model failure.
    public static func undefined(_ tool: String, known: [String]) -> ToolCallError {
        let list = known.isEmpty ? "none" : known.sorted().joined(separator: ", ")
        return ToolCallError(tool: tool, message: "the model called a tool the session does not offer (tools: \(list))",
                             failureClass: .modelBehavior)
    }

    /// "tool 'NAME' failed: why".
    public var description: String { "tool '\(tool)' failed: \(message)" }
}

extension ToolCallError: ClassifiedError {
    /// `LanguageModelSession.ToolCallError`, Apple's spelling.
    public var domain: String { "LanguageModelSession.ToolCallError" }

    /// `toolCallError`.
    public var caseName: String { "toolCallError" }

    /// The description.
    public var failureMessage: String { description }
}
