import FMCore

/// A tool failed while the model called it — Foundation Models' `LanguageModelSession.ToolCallError`: an
/// unknown tool name, an unreadable fixture, or a command that crashed, hung or printed garbage.
public struct ToolCallError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The name of the tool that failed.
    public var tool: String
    /// Why it failed (the device's `underlyingError`).
    public var message: String

    /// Creates the error for `tool`.
    public init(tool: String, message: String) {
        self.tool = tool
        self.message = message
    }

    /// "tool 'NAME' failed: why".
    public var description: String { "tool '\(tool)' failed: \(message)" }
}

extension ToolCallError: ClassifiedError {
    /// A tool's output is the harness's fixture or command, not the model's: infrastructure.
    public var failureClass: FailureClass { .infrastructure }

    /// `LanguageModelSession.ToolCallError`, Apple's spelling.
    public var domain: String { "LanguageModelSession.ToolCallError" }

    /// `toolCallError`.
    public var caseName: String { "toolCallError" }

    /// The description.
    public var failureMessage: String { description }
}
