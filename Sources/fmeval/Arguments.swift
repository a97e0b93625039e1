import FMCore

/// A command's arguments parsed against its `FlagTable`: any flag not in the table is an error.
///
/// Flags take the forms `--name`, `--name VALUE` and `--name=VALUE`; `--` ends flag parsing. A flag may
/// have a one-letter short form: `-x` alone, or with a value as the next word or attached (`-j 4`, `-j4`);
/// short forms do not combine (`-x -j4`, not `-xj4`).
struct Arguments {
    /// The positional arguments, in order (every word after `--` among them).
    private(set) var positionals: [String] = []
    private var given: [String: [String?]] = [:]
    private let table: FlagTable
    private let command: String

    /// Parses `arguments` of the command named `command` (used in error messages) against `table`;
    /// throws an exit-2 error for an unknown flag or a missing value.
    init(_ arguments: [String], command: String, flags table: FlagTable) throws {
        self.table = table
        self.command = command
        var index = 0
        while index < arguments.count {
            let arg = arguments[index]
            index += 1
            if arg == "--" {
                positionals += arguments[index...]
                break
            }
            guard arg.hasPrefix("-") && arg.count > 1 else {
                positionals.append(arg)
                continue
            }
            let parts = arg.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            if let flag = table.flags.first(where: { $0.name == parts[0] }) {
                let attached = parts.count > 1 ? parts[1] : nil
                try take(flag, spelled: arg, attached: attached, next: arguments, at: &index)
            } else if let flag = table.flags.first(where: { $0.short == arg }) {
                try take(flag, spelled: arg, attached: nil, next: arguments, at: &index)
            } else if let flag = table.flags.first(where: { $0.metavar != nil && $0.short.map(arg.hasPrefix) == true }),
                      let short = flag.short {
                let value = String(arg.dropFirst(short.count))
                guard !value.hasPrefix("=") else {
                    throw Fault.invalidInput(
                        "\(command): write \(short) VALUE, \(short)VALUE or \(flag.name)=VALUE, not \(arg)")
                }
                given[flag.name, default: []].append(value)
            } else {
                var message = "\(command): unknown flag \(parts[0])"
                let known = ["--help"] + table.flags.flatMap { [$0.name] + ($0.short.map { [$0] } ?? []) }
                if let suggestion = Suggestion.closest(to: parts[0], in: known) {
                    message += " (did you mean \(suggestion)?)"
                }
                throw Fault.invalidInput(message + "; see 'fmeval help \(command)'")
            }
        }
    }

    private mutating func take(_ flag: Flag, spelled arg: String, attached: String?, next arguments: [String],
                               at index: inout Int) throws {
        switch flag.kind {
        case .boolean:
            guard attached == nil else {
                throw Fault.invalidInput("\(command): \(flag.name) takes no value; see 'fmeval help \(command)'")
            }
            given[flag.name, default: []].append(nil)
        case .optionalValue:
            if attached?.isEmpty == true {
                throw Fault.invalidInput(
                    "\(command): \(flag.name)= needs a file after '='; or give \(flag.name) alone for the default")
            }
            given[flag.name, default: []].append(attached)
        case .value, .repeatable:
            if let attached {
                given[flag.name, default: []].append(attached)
                return
            }
            guard index < arguments.count else {
                throw Fault.invalidInput("\(command): \(arg) needs a value (see 'fmeval help \(command)')")
            }
            given[flag.name, default: []].append(arguments[index])
            index += 1
        }
    }

    private func occurrences(_ flag: Flag) -> [String?] {
        precondition(table.flags.contains { $0.name == flag.name }, "\(command): \(flag.name) is not in its flag table")
        return given[flag.name] ?? []
    }

    /// True when the flag was given (once or more), whatever its kind.
    func flag(_ flag: Flag) -> Bool {
        !occurrences(flag).isEmpty
    }

    /// The value of the last `--name VALUE` (or short form), or nil when absent.
    func value(_ flag: Flag) -> String? {
        values(flag).last
    }

    /// Every value given for the flag, in order.
    func values(_ flag: Flag) -> [String] {
        occurrences(flag).compactMap { $0 }
    }

    /// A flag of kind `optionalValue`: nil when absent, `.some(nil)` for `--name` alone, `.some(VALUE)` for
    /// `--name=VALUE` (the last one given wins).
    func optionalValue(_ flag: Flag) -> String?? {
        occurrences(flag).last
    }

    /// The integer value of the flag, validated to be from `minimum` to `maximum`.
    func int(_ flag: Flag, minimum: Int = Int.min, maximum: Int = Int.max) throws -> Int? {
        guard let text = value(flag) else { return nil }
        let range = maximum == Int.max ? "≥ \(minimum)" : "from \(minimum) to \(maximum)"
        guard let value = Int(text), value >= minimum, value <= maximum else {
            throw Fault.invalidInput("\(command): \(flag.name) expects an integer \(range), got '\(text)'")
        }
        return value
    }
}
