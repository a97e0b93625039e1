/// One command-line flag, declared once: its command's `FlagTable` parses it and writes its help and synopsis.
struct Flag: Sendable {
    /// What the flag takes on the command line.
    enum Kind: Sendable, Equatable {
        /// Nothing: `--name` is present or not.
        case boolean
        /// One value, as `--name VALUE`, `--name=VALUE`, `-x VALUE` or `-xVALUE` (the last one given wins).
        case value(String)
        /// A value that may be given several times; every one is kept, in order.
        case repeatable(String)
        /// A value that is optional and attached: `--name` alone or `--name=VALUE`.
        case optionalValue(String)
    }

    /// The long form, `--name`.
    let name: String
    /// The one-letter short form, `-x`, if any.
    let short: String?
    /// What it takes.
    let kind: Kind
    /// Its help in the command's flag list; a long one is broken into lines where the text has `\n`.
    let help: String

    /// A flag named `name` (with `--`), of `kind`, described by `help`.
    init(_ name: String, short: String? = nil, _ kind: Kind = .boolean, help: String) {
        self.name = name
        self.short = short
        self.kind = kind
        self.help = help
    }

    /// The same flag with the help `text` (a command's own default in it).
    func described(_ text: String) -> Flag {
        Flag(name, short: short, kind, help: text)
    }

    /// The value's name in usage and help (`FILE`, `N`), nil for a boolean flag.
    var metavar: String? {
        switch kind {
        case .boolean: return nil
        case .value(let name), .repeatable(let name), .optionalValue(let name): return name
        }
    }

    /// The flag as the help's flag list names it: `-j, --jobs N`, `--last-failed[=FILE]`.
    var listed: String {
        (short.map { "\($0), " } ?? "") + spelled(name)
    }

    /// The flag as a synopsis names it: `-j|--jobs N`, `--last-failed[=FILE]`.
    var synopsis: String {
        (short.map { "\($0)|" } ?? "") + spelled(name)
    }

    private func spelled(_ name: String) -> String {
        switch kind {
        case .boolean: return name
        case .value(let value), .repeatable(let value): return "\(name) \(value)"
        case .optionalValue(let value): return "\(name)[=\(value)]"
        }
    }
}
