import Foundation
import Testing
@testable import FMCore

/// Every character class a hostile string can use against a terminal.
let hostileText = "a\u{1B}[1A\u{1B}[2Kb\u{1B}]0;title\u{07}c\u{00}d\rX\u{7F}\u{9B}31m\u{202E}fdp.exe\u{2066}e\u{061C}\tf\ng"

@Test func noControlCharacterReachesTheTerminal() {
    let shown = TerminalSafe.text(hostileText)
    let allowed: Set<UInt32> = [0x0A, 0x09]
    for scalar in shown.unicodeScalars {
        #expect(scalar.value >= 0x20 && scalar.value != 0x7F && !TerminalSafe.isHidden(scalar) || allowed.contains(scalar.value),
                "U+\(String(scalar.value, radix: 16)) got through in \(shown)")
    }
    #expect(shown == "a␛[1A␛[2Kb␛]0;title␇c␀d␍X␡[U+009B]31m[U+202E]fdp.exe[U+2066]e[U+061C]\tf\ng")
    #expect(TerminalSafe.text("plain text, ünïcødé, 模型 🙂") == "plain text, ünïcødé, 模型 🙂")
}

@Test func onlyTheListedColoursPass() {
    let keep: Set<String> = ["\u{1B}[31m", "\u{1B}[0m"]
    #expect(TerminalSafe.text("\u{1B}[31mred\u{1B}[0m \u{1B}[8mhidden\u{1B}[0m \u{1B}[1A", keeping: keep)
        == "\u{1B}[31mred\u{1B}[0m ␛[8mhidden\u{1B}[0m ␛[1A")
}

@Test func jsonStaysTheSameJSON() throws {
    let document = GeneratedContent(properties: [("text", GeneratedContent(hostileText))]).jsonString
    let safe = TerminalSafe.json(document)
    for scalar in safe.unicodeScalars {
        #expect(scalar.value >= 0x20 && scalar.value != 0x7F && !TerminalSafe.isHidden(scalar) || scalar.value == 0x0A,
                "U+\(String(scalar.value, radix: 16)) got through")
    }
    #expect(try GeneratedContent(json: safe) == GeneratedContent(json: document))
    #expect(try GeneratedContent(json: safe)["text"]?.stringValue == hostileText)
}
