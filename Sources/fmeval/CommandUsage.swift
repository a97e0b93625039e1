/// A command's synopsis: the operands before its flags, its `FlagTable`, and the operands after.
struct CommandUsage: Sendable {
    /// The command's words, e.g. `schema check`.
    let command: String
    /// Operands written before the flags, e.g. `[PATH...]`.
    let before: String
    /// The flags.
    let flags: FlagTable
    /// Operands written after the flags, e.g. `PROMPT`.
    let after: String

    /// The synopsis of `fmeval COMMAND` with `flags` between the operands `before` and `after`.
    init(_ command: String, _ before: String = "", flags: FlagTable = FlagTable(), after: String = "") {
        self.command = command
        self.before = before
        self.flags = flags
        self.after = after
    }

    /// The synopsis wrapped at `width` columns, continuation lines aligned after the command:
    /// `fmeval run [PATH...] [--engine NAME] …` (with `lead` before it, e.g. `USAGE: `).
    func synopsis(lead: String = "", width: Int = 118) -> String {
        let start = lead + "fmeval " + command
        let words = [before].filter { !$0.isEmpty } + flags.synopsis + [after].filter { !$0.isEmpty }
        let indent = String(repeating: " ", count: start.count + 1)
        var lines: [String] = []
        var line = start
        for word in words {
            if line.count + 1 + word.count > width && line != start {
                lines.append(line)
                line = indent + word
            } else {
                line += " " + word
            }
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// The USAGE line of the command's help.
    var line: String { synopsis(lead: "USAGE: ") }
}
