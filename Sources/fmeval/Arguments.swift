import FMCore

/// A small flag parser: commands ask for the flags they know, then `finish()` rejects the rest.
///
/// Flags take the forms `--name`, `--name VALUE` and `--name=VALUE`; `--` ends flag parsing.
struct Arguments {
    private var remaining: [String]
    private var known: [String] = ["--help"]
    private let command: String

    /// Parses `arguments` for the command named `command` (used in error messages).
    init(_ arguments: [String], command: String) {
        self.remaining = arguments
        self.command = command
    }

    /// True when the boolean flag `name` is present (it is consumed, possibly several times).
    mutating func flag(_ name: String) -> Bool {
        known.append(name)
        var found = false
        remaining.removeAll { arg in
            if arg == name { found = true; return true }
            return false
        }
        return found
    }

    /// The value of the last `name VALUE` / `name=VALUE`, or nil when absent.
    mutating func option(_ name: String) throws -> String? {
        try options(name).last
    }

    /// Every value given for a repeatable option, in order.
    mutating func options(_ name: String) throws -> [String] {
        known.append(name)
        var values: [String] = []
        var kept: [String] = []
        var index = 0
        var afterDashes = false
        while index < remaining.count {
            let arg = remaining[index]
            if afterDashes || arg == "--" {
                afterDashes = true
                kept.append(arg)
            } else if arg == name {
                guard index + 1 < remaining.count else {
                    throw CLIError.invalidInput("\(command): \(name) needs a value (see 'fmeval help \(command)')")
                }
                values.append(remaining[index + 1])
                index += 1
            } else if arg.hasPrefix(name + "=") {
                values.append(String(arg.dropFirst(name.count + 1)))
            } else {
                kept.append(arg)
            }
            index += 1
        }
        remaining = kept
        return values
    }

    /// The integer value of option `name`, validated to be at least `minimum`.
    mutating func intOption(_ name: String, minimum: Int = Int.min) throws -> Int? {
        guard let text = try option(name) else { return nil }
        guard let value = Int(text), value >= minimum else {
            throw CLIError.invalidInput("\(command): \(name) expects an integer ≥ \(minimum), got '\(text)'")
        }
        return value
    }

    /// The positional arguments; throws for any flag that no call above asked for.
    mutating func finish() throws -> [String] {
        var positionals: [String] = []
        var afterDashes = false
        for arg in remaining {
            if afterDashes { positionals.append(arg); continue }
            if arg == "--" { afterDashes = true; continue }
            if arg.hasPrefix("-") && arg.count > 1 {
                let name = String(arg.split(separator: "=", maxSplits: 1)[0])
                var message = "\(command): unknown flag \(name)"
                if let suggestion = Suggestion.closest(to: name, in: known) { message += " (did you mean \(suggestion)?)" }
                throw CLIError.invalidInput(message + "; see 'fmeval help \(command)'")
            }
            positionals.append(arg)
        }
        return positionals
    }
}
