import Foundation
import Testing
@testable import FMReport

/// Model output chosen to break naive XML writers.
let hostileOutputs: [String] = [
    "plain",
    "ends a CDATA ]]> here, and <![CDATA[ opens one",
    "<script>alert('x')</script> & \"quotes\" 'apos'",
    "controls: \u{0}\u{1}\u{7}\u{8}\u{B}\u{C}\u{1B}[31mred\u{1B}[0m\u{1F}",
    "non-characters: \u{FFFE}\u{FFFF} and DEL \u{7F}, C1 \u{85}",
    XMLEscaping.decodeLossy([0x61, 0xFF, 0xC0, 0x80, 0xED, 0xA0, 0x80, 0x62] as [UInt8]),
    "emoji 👩‍👩‍👧 and astral 𝔘 and RTL \u{202E}txet",
    "tabs\tand\r\nline breaks\n",
    "&amp; already escaped &#0; &#x1B;",
]

@Test func textEscapingReplacesMarkupAndForbiddenCharacters() {
    #expect(XMLEscaping.text("a<b>&c") == "a&lt;b&gt;&amp;c")
    #expect(XMLEscaping.text("x]]>y") == "x]]&gt;y")
    #expect(XMLEscaping.text("\u{1B}[0m") == "\u{241B}[0m")
    #expect(XMLEscaping.text("\u{0}") == "\u{2400}")
    #expect(XMLEscaping.text("\u{FFFE}\u{FFFF}") == "\u{FFFD}\u{FFFD}")
    #expect(XMLEscaping.text("keep\t\n\r") == "keep\t\n\r")
    #expect(XMLEscaping.text("ünïcødé 𝔘") == "ünïcødé 𝔘")
}

@Test func attributeEscapingKeepsWhitespaceAsReferences() {
    #expect(XMLEscaping.attribute("a\"b'c") == "a&quot;b&apos;c")
    #expect(XMLEscaping.attribute("l1\nl2\tx\r") == "l1&#10;l2&#9;x&#13;")
    #expect(XMLEscaping.attribute("\u{8}") == "\u{2408}")
}

@Test func tokenCollapsesWhitespaceAndFallsBackWhenEmpty() {
    #expect(XMLEscaping.token("  a \n\t b  ", fallback: "x") == "a b")
    #expect(XMLEscaping.token(" \n ", fallback: "unnamed") == "unnamed")
}

@Test func invalidUTF8BecomesReplacementCharacters() {
    let text = XMLEscaping.decodeLossy([0x61, 0xFF, 0x62] as [UInt8])
    #expect(text == "a\u{FFFD}b")
}

@Test func everyEscapedScalarIsAllowedInXML() {
    for output in hostileOutputs {
        let escaped = XMLEscaping.text(output) + XMLEscaping.attribute(output)
        #expect(escaped.unicodeScalars.allSatisfy(XMLEscaping.isAllowed), "\(output.debugDescription)")
        #expect(!XMLEscaping.text(output).contains("]]>"))
        #expect(!XMLEscaping.text(output).contains("<"))
    }
}

@Test(.enabled(if: xmllintRunnable)) func writerOutputIsWellFormedForHostileText() throws {
    var writer = XMLWriter()
    writer.open("root", [("name", hostileOutputs.joined(separator: "|"))])
    for output in hostileOutputs {
        writer.element("item", [("value", output)], text: output)
    }
    let document = writer.finish()
    let result = try xmllintWellFormed(document)
    #expect(result.status == 0, "\(result.output)")
}

@Test(.enabled(if: xmllintRunnable)) func xmllintRejectsBrokenXML() throws {
    let result = try xmllintWellFormed("<?xml version=\"1.0\"?>\n<root>\u{1B}</root>\n")
    #expect(result.status != 0)
}
