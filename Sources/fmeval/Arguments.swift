import FMCore

/// A small flag parser: commands ask for the flags they know, then `finish()` rejects the rest.
///
/// Flags take the forms `--name`, `--name VALUE` and `--name=VALUE`; `--` ends flag parsing. A flag may
/// have a one-letter short form: `-x` alone, or with a value as the next word or attached (`-j 4`, `-j4`);
/// short forms do not combine (`-x -j4`, not `-xj4`).
struct Arguments {
    private var remaining: [String]
    private var known: [String] = ["--help"]
    private let command: String

    /// Parses `arguments` for the command named `command` (used in error messages).
    init(_ arguments: [String], command: String) {
        self.remaining = arguments
        self.command = command
    }

    /// True when the boolean flag `name` (or its short form) is present before any `--` (it is consumed,
    /// possibly several times); after `--` the same word is a positional argument.
    mutating func flag(_ name: String, short: String? = nil) -> Bool {
        known.append(name)
        if let short { known.append(short) }
        let end = remaining.firstIndex(of: "--") ?? remaining.endIndex
        let before = remaining[..<end].filter { $0 != name && (short == nil || $0 != short) }
        let found = before.count < end
        remaining = before + remaining[end...]
        return found
    }

    /// A flag whose value is optional and attached: nil when absent, `.some(nil)` for `--name` alone,
    /// `.some(VALUE)` for `--name=VALUE` (a following word stays a positional argument).
    mutating func optionalValue(_ name: String) throws -> String?? {
        known.append(name)
        var found: String?? = nil
        var kept: [String] = []
        for (index, arg) in remaining.enumerated() {
            if remaining[..<index].contains("--") {
                kept.append(arg)
            } else if arg == name {
                found = .some(nil)
            } else if arg.hasPrefix(name + "=") {
                let value = String(arg.dropFirst(name.count + 1))
                guard !value.isEmpty else {
                    throw Fault.invalidInput("\(command): \(name)= needs a file after '='; or give \(name) alone for the default")
                }
                found = .some(value)
            } else {
                kept.append(arg)
            }
        }
        remaining = kept
        return found
    }

    /// The value of the last `name VALUE` / `name=VALUE` (or short form), or nil when absent.
    mutating func option(_ name: String, short: String? = nil) throws -> String? {
        try options(name, short: short).last
    }

    /// Every value given for a repeatable option (long or short form), in order.
    mutating func options(_ name: String, short: String? = nil) throws -> [String] {
        known.append(name)
        if let short { known.append(short) }
        var values: [String] = []
        var kept: [String] = []
        var index = 0
        var afterDashes = false
        while index < remaining.count {
            let arg = remaining[index]
            if afterDashes || arg == "--" {
                afterDashes = true
                kept.append(arg)
            } else if arg == name || (short != nil && arg == short) {
                guard index + 1 < remaining.count else {
                    throw Fault.invalidInput("\(command): \(arg) needs a value (see 'fmeval help \(command)')")
                }
                values.append(remaining[index + 1])
                index += 1
            } else if arg.hasPrefix(name + "=") {
                values.append(String(arg.dropFirst(name.count + 1)))
            } else if let short, arg.hasPrefix(short), arg.count > short.count {
                let value = String(arg.dropFirst(short.count))
                guard !value.hasPrefix("=") else {
                    throw Fault.invalidInput("\(command): write \(short) VALUE, \(short)VALUE or \(name)=VALUE, not \(arg)")
                }
                values.append(value)
            } else {
                kept.append(arg)
            }
            index += 1
        }
        remaining = kept
        return values
    }

    /// The integer value of option `name` (or its short form), validated to be at least `minimum`.
    mutating func intOption(_ name: String, short: String? = nil, minimum: Int = Int.min, maximum: Int = Int.max) throws -> Int? {
        guard let text = try option(name, short: short) else { return nil }
        let range = maximum == Int.max ? "≥ \(minimum)" : "from \(minimum) to \(maximum)"
        guard let value = Int(text), value >= minimum, value <= maximum else {
            throw Fault.invalidInput("\(command): \(name) expects an integer \(range), got '\(text)'")
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
                throw Fault.invalidInput(message + "; see 'fmeval help \(command)'")
            }
            positionals.append(arg)
        }
        return positionals
    }
}
