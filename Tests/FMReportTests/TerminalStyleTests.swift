import Testing
import FMEvaluate
@testable import FMReport
@testable import FMResults

@Test func colourFollowsTheFlagNoColorTermAndTheTerminal() {
    let colors = TerminalStyle.colors
    #expect(colors(.auto, [:], true))
    #expect(!colors(.auto, [:], false), "never colour into a file or pipe in auto")
    #expect(!colors(.auto, ["NO_COLOR": "1"], true))
    #expect(!colors(.auto, ["NO_COLOR": "anything"], true))
    #expect(colors(.auto, ["NO_COLOR": ""], true), "an empty NO_COLOR does not disable colour")
    #expect(!colors(.auto, ["TERM": "dumb"], true))
    #expect(colors(.auto, ["TERM": "xterm-256color"], true))
    #expect(colors(.always, ["NO_COLOR": "1", "TERM": "dumb"], false), "the flag overrides NO_COLOR")
    #expect(!colors(.never, [:], true))
}

@Test func widthComesFromColumnsThenTheTerminalThenOneHundred() {
    #expect(TerminalStyle.width(environment: ["COLUMNS": "72"], terminalColumns: 200) == 72)
    #expect(TerminalStyle.width(environment: ["COLUMNS": "wide"], terminalColumns: 132) == 132)
    #expect(TerminalStyle.width(environment: ["COLUMNS": "0"], terminalColumns: nil) == 100)
    #expect(TerminalStyle.width(environment: [:], terminalColumns: 0) == 100)
}

@Test func fitCutsByTerminalColumnsAndMarksTheCut() {
    #expect(TerminalStyle.fit("short", width: 10) == "short")
    #expect(TerminalStyle.fit("exactly10!", width: 10) == "exactly10!")
    #expect(TerminalStyle.fit("one column too long", width: 10) == "one colum…")
    #expect(TerminalStyle.displayWidth("東京タワー") == 10, "East Asian wide characters take two columns")
    let cut = TerminalStyle.fit("東京タワーの高さ", width: 8)
    #expect(cut == "東京タ…")
    #expect(TerminalStyle.displayWidth(cut) <= 8)
    #expect(TerminalStyle.displayWidth("e\u{301}") == 1, "a combining accent takes no column")
    #expect(TerminalStyle.fit("anything", width: 0) == "")
}

@Test func styledCaseLinesColourTheLabelAndDimTheReason() {
    let color = TerminalStyle(colors: true, width: nil)
    let failing = TerminalText.styledCaseLine(sampleCase("s", "bad", [.failed], text: "Rome"), style: color, counter: "[2/3] ")
    #expect(failing.hasPrefix("[2/3] \u{1B}[31mFAIL\u{1B}[0m  s/bad  0/1  0.03 s\u{1B}[2m  — toolCalls.allPass"))
    #expect(failing.hasSuffix("\u{1B}[0m"))
    let passing = TerminalText.styledCaseLine(sampleCase("s", "ok", [.passed]), style: color)
    #expect(passing == "\u{1B}[32mPASS\u{1B}[0m  s/ok  1/1  0.03 s")
    let erroring = TerminalText.styledCaseLine(sampleCase("s", "boom", [.error]), style: color)
    #expect(erroring.hasPrefix("\u{1B}[33mERROR\u{1B}[0m s/boom"))
    let flaky = TerminalText.styledCaseLine(sampleCase("s", "wobbly", [.passed, .failed], gate: CaseGate(minPassRate: 0.5)), style: color)
    #expect(flaky.hasPrefix("\u{1B}[33mFLAKY\u{1B}[0m"))
    let plain = TerminalText.styledCaseLine(sampleCase("s", "bad", [.failed], text: "Rome"), style: .plain)
    #expect(plain == TerminalText.caseLine(sampleCase("s", "bad", [.failed], text: "Rome")), "no escapes and no cut without a style")
    let narrow = TerminalText.styledCaseLine(sampleCase("s", "bad", [.failed], text: "Rome"), style: TerminalStyle(colors: false, width: 30))
    #expect(narrow == "FAIL  s/bad  0/1  0.03 s  — t…")
}

@Test func styledClosingColoursVerdictsAndCutsLinesOnlyToATerminalWidth() {
    let color = TerminalStyle(colors: true, width: nil)
    let green = GateVerdict(results: RunResult(run: sampleInfo(), cases: [sampleCase("s", "ok", [.passed])]))
    #expect(TerminalText.styledClosing(green, style: color).hasSuffix("\u{1B}[32mAll gates hold.\u{1B}[0m"))
    let cases = [sampleCase("s", "bad", [.failed], text: String(repeating: "Rome ", count: 60)),
                 sampleCase("s", "boom", [.error])]
    let red = GateVerdict(results: RunResult(run: sampleInfo(), cases: cases))
    let text = TerminalText.styledClosing(red, style: color)
    #expect(text.contains("  \u{1B}[31mFAIL\u{1B}[0m s/bad\u{1B}[2m — "))
    #expect(text.contains("  \u{1B}[33mERROR\u{1B}[0m s/boom"))
    #expect(text.hasSuffix("\u{1B}[31m" + red.line + "\u{1B}[0m"))
    #expect(TerminalText.styledClosing(red, style: .plain) == TerminalText.closing(red), "logs are never cut")
    #expect(TerminalText.closing(red).split(separator: "\n").contains { $0.count > 200 })
    let narrow = TerminalText.styledClosing(red, style: TerminalStyle(colors: false, width: 20))
    #expect(narrow.split(separator: "\n").allSatisfy { TerminalStyle.displayWidth(String($0)) <= 20 })
    let before = RunResult(run: sampleInfo(), cases: [sampleCase("s", "bad", [.passed])])
    let comparison = BaselineComparison(baseline: before, current: red.results)
    let regressed = TerminalText.styledClosing(GateVerdict(results: red.results, baseline: comparison), style: color)
    #expect(regressed.contains("  \u{1B}[31mREGRESSED\u{1B}[0m s/bad\u{1B}[2m — "))
}
