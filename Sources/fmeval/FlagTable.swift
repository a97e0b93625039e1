/// The flags of one command, in synopsis order: each flag alone, or a group of flags that exclude each
/// other. It is what `Arguments` accepts, and it writes the command's USAGE flags and flag list.
struct FlagTable: Sendable {
    /// The synopsis items: one flag, or several that exclude each other (`[--record FILE | --cassette FILE]`).
    let items: [[Flag]]

    /// A table of `flags`, each its own synopsis item.
    init(_ flags: Flag...) {
        self.init(items: flags.map { [$0] })
    }

    /// A table of `flags`, each its own synopsis item.
    init(_ flags: [Flag]) {
        self.init(items: flags.map { [$0] })
    }

    private init(items: [[Flag]]) {
        self.items = items
    }

    /// One synopsis item of `flags` that exclude each other.
    static func oneOf(_ flags: Flag...) -> FlagTable {
        FlagTable(items: [flags])
    }

    /// The flags of `first`, then those of `second`.
    static func + (first: FlagTable, second: FlagTable) -> FlagTable {
        FlagTable(items: first.items + second.items)
    }

    /// Every flag, in synopsis order.
    var flags: [Flag] { items.flatMap { $0 } }

    /// The synopsis words: `[--json]`, `[-j|--jobs N]`, `[--variant NAME]...`, `[--record FILE | --cassette FILE]`.
    var synopsis: [String] {
        items.map { group in
            let text = "[" + group.map(\.synopsis).joined(separator: " | ") + "]"
            if group.count == 1, case .repeatable = group[0].kind { return text + "..." }
            return text
        }
    }

    /// The flag list of the help: each flag, then its help from `column` (on the next line when the
    /// flag is too long), every line indented by two spaces.
    func list(column: Int = 25) -> String {
        let indent = String(repeating: " ", count: column)
        return flags.map { flag in
            let lead = "  " + flag.listed
            let lines = flag.help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let rest = lines.dropFirst().map { indent + $0 }
            let first = lead.count + 2 <= column
                ? [lead + String(repeating: " ", count: column - lead.count) + lines[0]]
                : [lead, indent + lines[0]]
            return (first + rest).joined(separator: "\n")
        }.joined(separator: "\n")
    }
}
