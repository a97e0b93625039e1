import FMCore

/// `fmeval help [COMMAND...]`: the command list, or one command's help.
struct HelpCommand: Command {
    static let path = ["help"]
    static let summary = "Show the command list, or help for one command"
    static let synopsisFlag = Flag("--synopsis",
                                   help: "print every command's synopsis, as README.md's Commands section shows it")
    static let usage = CommandUsage("help", flags: FlagTable(synopsisFlag), after: "[COMMAND...]")
    static let help = """
    \(usage.line)

    Without a command, lists every command. With one (e.g. `fmeval help schema check`), prints its help.

    OPTIONS:
    \(usage.flags.list(column: 16))
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, command: "help", flags: usage.flags)
        let arguments = parsed.positionals
        if parsed.flag(synopsisFlag) {
            print(synopsis)
            return ExitStatus.ok
        }
        if arguments.isEmpty {
            print(overview)
            return ExitStatus.ok
        }
        guard let command = findCommand(arguments)?.command else {
            if arguments.count == 1, let text = groupHelp(arguments[0]) {
                print(text)
                return ExitStatus.ok
            }
            throw Fault.invalidInput("help: no command '\(arguments.joined(separator: " "))'; run 'fmeval --help' for the list")
        }
        print(command.help)
        return ExitStatus.ok
    }

    /// Every command's synopsis, one after another: README.md's Commands block is this text.
    static var synopsis: String {
        allCommands.map { $0.usage.synopsis() }.joined(separator: "\n")
    }

    /// The text of `fmeval --help`.
    static var overview: String {
        let width = allCommands.map { $0.path.joined(separator: " ").count }.max() ?? 0
        let lines = allCommands.map { command -> String in
            let name = command.path.joined(separator: " ")
            return "  " + name + String(repeating: " ", count: width - name.count + 2) + command.summary
        }
        return """
        fmeval: evaluation harness and regression test runner for Foundation Models features

        USAGE: fmeval COMMAND [ARGUMENTS...]

        COMMANDS:
        \(lines.joined(separator: "\n"))

        Exit codes: 0 all gates hold · 1 a gate failed · 2 invalid input · 3 infrastructure error.
        Run 'fmeval help COMMAND' for one command's flags.
        """
    }
}

/// The command whose path is the longest prefix of `words`, with the words after it.
func findCommand(_ words: [String]) -> (command: Command.Type, rest: [String])? {
    let matches = allCommands.filter { words.starts(with: $0.path) }
    guard let best = matches.max(by: { $0.path.count < $1.path.count }) else { return nil }
    return (best, Array(words.dropFirst(best.path.count)))
}

/// The commands whose path starts with `word` and has more words (`schema` → `schema check`, …).
func commandGroup(_ word: String) -> [Command.Type] {
    allCommands.filter { $0.path.count > 1 && $0.path[0] == word }
}

/// The help of a command group such as `schema`: its subcommands with their summaries; nil when `word` is no group.
func groupHelp(_ word: String) -> String? {
    let members = commandGroup(word)
    if members.isEmpty { return nil }
    let width = members.map { $0.path.joined(separator: " ").count }.max() ?? 0
    let lines = members.map { command -> String in
        let name = command.path.joined(separator: " ")
        return "  " + name + String(repeating: " ", count: width - name.count + 2) + command.summary
    }
    return """
    USAGE: fmeval \(word) SUBCOMMAND [ARGUMENTS...]

    SUBCOMMANDS:
    \(lines.joined(separator: "\n"))

    Run 'fmeval help \(word) SUBCOMMAND' for one subcommand's flags.
    """
}
