import Foundation
import FMCore

/// A tool offered to the model, and what the session answers when the model calls it.
public struct SessionTool: Sendable, Hashable {
    /// Name, description and arguments schema, as the model sees them.
    public var definition: ToolDefinition
    /// What a call returns (FMCore's one tool-output type, as the suite declared it).
    public var output: ToolOutput

    /// Creates a tool.
    public init(definition: ToolDefinition, output: ToolOutput) {
        self.definition = definition
        self.output = output
    }
}

/// A tool's answer to one call: text, or structured content (appended as a structure segment).
enum ToolAnswer {
    /// Text (canned, a fixture file's, or a command's stdout).
    case text(String)
    /// Structured content.
    case structure(GeneratedContent)
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

    /// The answer to `call`, or a `ToolCallError` saying why there is none.
    func output(for call: ToolCall) throws -> ToolAnswer {
        guard let tool = tools[call.name] else { throw ToolCallError.undefined(call.name, known: Array(tools.keys)) }
        return try output(from: tool.output, for: call)
    }

    private func output(from source: ToolOutput, for call: ToolCall) throws -> ToolAnswer {
        switch source.resolve(arguments: call.arguments) {
        case .text(let text)?, .file(_, let text)?:
            return .text(text)
        case .structure(let content)?:
            return .structure(content)
        case .command(let command)?:
            return .text(try run(command, call: call))
        case .byArguments?, nil:
            throw ToolCallError(tool: call.name, message: "no output rule matches arguments \(call.arguments.jsonString); "
                + "add a matching rule or one without 'when'")
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
