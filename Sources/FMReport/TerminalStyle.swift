import Foundation
import FMResults

/// How terminal output looks: ANSI colours or none, and the width lines are cut to (none in logs).
public struct TerminalStyle: Equatable, Sendable {
    /// `--color`: when to colour.
    public enum Choice: String, CaseIterable, Sendable {
        /// Colour when standard output is a terminal, `NO_COLOR` is unset or empty, and `TERM` is not `dumb`.
        case auto
        /// Always colour (overrides `NO_COLOR`, as https://no-color.org asks of command-line flags).
        case always
        /// Never colour.
        case never
    }

    /// A colour or emphasis, by its SGR parameter.
    public enum Paint: String, Sendable, CaseIterable {
        /// Passed.
        case green = "32"
        /// Failed.
        case red = "31"
        /// Errors, flaky and nondeterministic cases.
        case yellow = "33"
        /// Details.
        case dim = "2"
    }

    /// Every escape sequence `paint` writes: the only ones the CLI lets through to the terminal.
    public static let escapes: Set<String> = Set(Paint.allCases.map { "\u{1B}[\($0.rawValue)m" } + ["\u{1B}[0m"])

    /// Whether to write ANSI colour escapes.
    public var colors: Bool
    /// The columns a line may take (nil: never cut, as in CI logs and files).
    public var width: Int?

    /// No colour, no cutting: files, pipes and CI logs.
    public static let plain = TerminalStyle(colors: false, width: nil)

    /// A style with `colors` and lines cut to `width` columns when given.
    public init(colors: Bool, width: Int?) {
        self.colors = colors
        self.width = width
    }

    /// Whether `--color choice` colours, given the environment and whether standard output is a terminal.
    public static func colors(choice: Choice, environment: [String: String], isTerminal: Bool) -> Bool {
        switch choice {
        case .always: return true
        case .never: return false
        case .auto:
            if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
            if environment["TERM"] == "dumb" { return false }
            return isTerminal
        }
    }

    /// The terminal's width: `COLUMNS` when it is a positive number, else `terminalColumns`, else 100.
    public static func width(environment: [String: String], terminalColumns: Int?) -> Int {
        if let text = environment["COLUMNS"], let columns = Int(text), columns > 0 { return columns }
        if let terminalColumns, terminalColumns > 0 { return terminalColumns }
        return 100
    }

    /// `text` wrapped in the escape for `paint` (unchanged without colours).
    public func paint(_ text: String, _ paint: Paint) -> String {
        colors && !text.isEmpty ? "\u{1B}[\(paint.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// `text` cut to the style's width (unchanged without one).
    public func fit(_ text: String) -> String {
        width.map { TerminalStyle.fit(text, width: $0) } ?? text
    }

    /// The colour of a case's status label.
    public static func paint(for result: CaseResult) -> Paint {
        switch result.status {
        case .passed: return result.holdsRun ? .green : .yellow
        case .failed: return .red
        case .flaky: return result.gateHolds ? .yellow : .red
        case .error: return .yellow
        case .knownIssue: return .yellow
        }
    }

    /// `text` cut to at most `width` terminal columns, ending in `…` when cut.
    public static func fit(_ text: String, width: Int) -> String {
        guard width > 0 else { return "" }
        guard displayWidth(text) > width else { return text }
        var output = ""
        var used = 0
        for character in text {
            let columns = displayWidth(character)
            if used + columns > width - 1 { break }
            output.append(character)
            used += columns
        }
        return output + "…"
    }

    /// The columns `text` takes on a terminal (wide East Asian characters and emoji take two).
    public static func displayWidth(_ text: String) -> Int {
        text.reduce(0) { $0 + displayWidth($1) }
    }

    private static func displayWidth(_ character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        if scalar.properties.generalCategory == .nonspacingMark || scalar.properties.generalCategory == .enclosingMark { return 0 }
        return isWide(scalar.value) ? 2 : 1
    }

    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}

extension TerminalText {
    /// `caseLine` after `counter` (such as `[3/40] `), cut to the style's width, its status label coloured
    /// and its reason dimmed.
    public static func styledCaseLine(_ result: CaseResult, style: TerminalStyle, counter: String = "",
                                      reason: Bool = true) -> String {
        let line = style.fit(counter + caseLine(result, reason: reason))
        guard style.colors else { return line }
        var rest = Substring(line.dropFirst(min(counter.count, line.count)))
        let label = rest.prefix { $0 != " " }
        rest = rest.dropFirst(label.count)
        var text = String(line.prefix(counter.count)) + style.paint(String(label), TerminalStyle.paint(for: result))
        if let marker = rest.range(of: "  — ") {
            text += String(rest[..<marker.lowerBound]) + style.paint(String(rest[marker.lowerBound...]), .dim)
        } else {
            text += String(rest)
        }
        return text
    }

    /// `closing` with each line cut to the style's width, the failing cases' labels coloured and the
    /// verdict line green when the gate holds, red when it fails.
    public static func styledClosing(_ verdict: GateVerdict, verbosity: Verbosity = .normal,
                                     style: TerminalStyle) -> String {
        closingLines(verdict, verbosity: verbosity).map { $0.styled(style) }.joined(separator: "\n")
    }
}
