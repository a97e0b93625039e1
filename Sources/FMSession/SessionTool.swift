import Foundation
import FMCore

/// A tool offered to the model, and where the session gets its output when the model calls it.
public struct SessionTool: Sendable, Hashable {
    /// Name, description and arguments schema, as the model sees them.
    public var definition: ToolDefinition
    /// Where the output comes from.
    public var output: ToolOutputSource

    /// Creates a tool.
    public init(definition: ToolDefinition, output: ToolOutputSource) {
        self.definition = definition
        self.output = output
    }
}

/// Where a tool's output comes from.
public indirect enum ToolOutputSource: Sendable, Hashable {
    /// The same canned text for every call.
    case text(String)
    /// The output of the first rule whose `when` arguments all equal the call's (a rule without `when` always applies).
    case byArguments([ArgumentRule])
    /// The contents of a fixture file (relative to the session's base directory), read at each call.
    case file(String)
    /// A command: run with the call's arguments as JSON on stdin; its stdout is the output.
    /// Exit status ≠ 0, a timeout or output that is not UTF-8 text is a tool failure.
    case command(ToolCommand)
}

/// One `byArguments` rule: when every given argument equals the call's, `output` answers.
public struct ArgumentRule: Sendable, Hashable {
    /// The arguments to match (a subset of the call's arguments object); nil matches every call.
    public var when: GeneratedContent?
    /// The output for a match.
    public var output: ToolOutputSource

    /// Creates a rule.
    public init(when: GeneratedContent?, output: ToolOutputSource) {
        self.when = when
        self.output = output
    }

    /// Whether every member of `when` appears with an equal value in `call`.
    public func matches(_ call: GeneratedContent) -> Bool {
        guard let when else { return true }
        guard let wanted = when.orderedProperties else { return when == call }
        return wanted.allSatisfy { call[$0.key] == $0.value }
    }
}

/// A command-backed tool: the program and its arguments, and how long it may run.
public struct ToolCommand: Sendable, Hashable {
    /// The default time limit, in seconds.
    public static let defaultTimeout = 10.0

    /// The program and its arguments (a relative program path is resolved against the base directory).
    public var argv: [String]
    /// Seconds before the command is killed and the call fails.
    public var timeoutSeconds: Double

    /// The line appended to a tool output cut at the limit: what the model and the results see.
    public static func truncationNote(kept: Int, of total: Int) -> String {
        "[fmeval: tool output truncated: \(kept) of \(total) bytes kept; raise toolOutputLimit in the suite to keep more]"
    }

    /// Creates a command tool.
    public init(argv: [String], timeoutSeconds: Double = ToolCommand.defaultTimeout) {
        self.argv = argv
        self.timeoutSeconds = timeoutSeconds
    }
}

/// Produces tool outputs for a session.
struct ToolRunner {
    let tools: [String: SessionTool]
    let baseDirectory: String?
    let commands: CommandPolicy
    let environment: [String: String]
    let redactor: SecretRedactor

    init(tools: [SessionTool], baseDirectory: String?, commands: CommandPolicy = CommandPolicy()) {
        var byName: [String: SessionTool] = [:]
        for tool in tools { byName[tool.definition.name] = tool }
        self.tools = byName
        self.baseDirectory = baseDirectory
        self.commands = commands
        environment = commands.environment()
        redactor = commands.redactor()
    }

    /// The output text for `call`, or a `ToolCallError` saying why there is none.
    func output(for call: ToolCall) throws -> String {
        guard let tool = tools[call.name] else { throw ToolCallError.undefined(call.name, known: Array(tools.keys)) }
        return try output(from: tool.output, for: call)
    }

    private func output(from source: ToolOutputSource, for call: ToolCall) throws -> String {
        switch source {
        case .text(let text):
            return text
        case .byArguments(let rules):
            guard let rule = rules.first(where: { $0.matches(call.arguments) }) else {
                throw ToolCallError(tool: call.name,
                    message: "no output rule matches arguments \(call.arguments.jsonString); add a matching rule or one without 'when'")
            }
            return try output(from: rule.output, for: call)
        case .file(let path):
            let file = resolve(path)
            if let problem = RegularFile.problem(file) {
                throw ToolCallError(tool: call.name, message: "the fixture file \(file) \(problem)")
            }
            guard let data = FileManager.default.contents(atPath: file) else {
                throw ToolCallError(tool: call.name, message: "cannot read fixture file \(file)")
            }
            guard let text = String(data: data, encoding: .utf8) else {
                throw ToolCallError(tool: call.name, message: "fixture file \(file) is not UTF-8 text")
            }
            return text
        case .command(let command):
            return try run(command, call: call)
        }
    }

    private func resolve(_ path: String) -> String {
        FilePaths.join(baseDirectory ?? "", path)
    }

    private func run(_ command: ToolCommand, call: ToolCall) throws -> String {
        guard let program = command.argv.first else {
            throw ToolCallError(tool: call.name, message: "the command is empty")
        }
        let input = Data((call.arguments.jsonString + "\n").utf8)
        let result: CommandResult
        do {
            let executable = program.contains("/") ? resolve(program) : program
            var variables = environment
            variables["FMEVAL_TOOL_NAME"] = call.name
            result = try CommandRunner.run([executable] + command.argv.dropFirst(), stdin: input,
                                           timeoutSeconds: command.timeoutSeconds, directory: baseDirectory,
                                           environment: variables, outputLimit: commands.toolOutputLimit, redactor: redactor)
        } catch let error as CommandRunner.Failure {
            throw ToolCallError(tool: call.name, message: error.description)
        }
        if result.timedOut {
            throw ToolCallError(tool: call.name,
                message: "command \(program) did not finish within \(command.timeoutSeconds) s and was killed")
        }
        guard result.status == 0 else {
            throw ToolCallError(tool: call.name,
                message: "command \(program) exited with status \(result.status)\(result.stderrTail.isEmpty ? "" : ": " + result.stderrTail)")
        }
        guard let text = String(data: result.stdout, encoding: .utf8), !text.unicodeScalars.contains(where: { $0.value == 0 }) else {
            throw ToolCallError(tool: call.name, message: "command \(program) printed output that is not UTF-8 text")
        }
        let output = text.hasSuffix("\n") ? String(text.dropLast()) : text
        guard result.stdoutTruncated else { return output }
        return output + "\n" + ToolCommand.truncationNote(kept: result.stdout.count, of: result.stdoutBytes)
    }
}
