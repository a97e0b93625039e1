import Foundation
import FMCore
import FMResults
import FMReport
import FMStdio

/// Standard output as a terminal: whether it is one, its width, and unbuffered writes for the live line.
enum Terminal {
    /// Whether standard output is a terminal.
    static var isTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// The terminal's columns from `TIOCGWINSZ`, or nil when standard output is not a terminal.
    static func columns() -> Int? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Writes `text` to standard output now (through stdio, so it stays in order with `print`).
    static func write(_ text: String) {
        fputs(text, fms_standard_output())
        fflush(fms_standard_output())
    }

    /// The style for `--color choice`: colours as `TerminalStyle.colors` decides; lines cut to the
    /// terminal's width only in `live` mode (logs keep whole lines; the reports always hold the full text).
    static func style(choice: TerminalStyle.Choice, mode: LiveProgress.Mode,
                      environment: [String: String] = ProcessInfo.processInfo.environment) -> TerminalStyle {
        let colors = TerminalStyle.colors(choice: choice, environment: environment, isTerminal: isTerminal)
        let width = mode == .live ? TerminalStyle.width(environment: environment, terminalColumns: columns()) : nil
        return TerminalStyle(colors: colors, width: width)
    }
}

/// Standard output for people, shadowing `Swift.print` in this module so that every command's text
/// passes `TerminalSafe.text` (suite, model, server and file text alike; fmeval's own colours kept).
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    let text = items.map { "\($0)" }.joined(separator: separator)
    Swift.print(TerminalSafe.text(text, keeping: TerminalStyle.escapes), terminator: terminator)
}

/// Standard output for a JSON document: `TerminalSafe.json`, so it stays the same JSON.
func printJSON(_ json: String) {
    Swift.print(TerminalSafe.json(json))
}
