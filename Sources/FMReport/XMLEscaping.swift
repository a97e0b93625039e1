import FMCore

/// Escaping that keeps an XML 1.0 document well-formed whatever the model printed.
///
/// XML 1.0 forbids most C0 control characters even as character references, and the
/// non-characters U+FFFE/U+FFFF. Those are replaced by their visible Unicode "control picture"
/// (U+2400 + code, e.g. ESC → ␛) or by U+FFFD, so the reader still sees that something was there.
/// `]]>` cannot end anything because every `>` in text is written as `&gt;`. Swift strings hold only
/// valid Unicode scalars: invalid UTF-8 and lone surrogates become U+FFFD when the text is decoded
/// (see `decodeLossy(_:)` and `JSONRepair`).
public enum XMLEscaping {
    /// The text, escaped for use as element content.
    public static func text(_ string: String) -> String {
        var output = ""
        appendText(string, to: &output)
        return output
    }

    /// The text, escaped for use inside a double-quoted attribute value (tabs and line breaks kept as references).
    public static func attribute(_ string: String) -> String {
        var output = ""
        appendAttribute(string, to: &output)
        return output
    }

    /// The text as an `xs:token` attribute: whitespace runs collapsed, trimmed, `fallback` when empty.
    public static func token(_ string: String, fallback: String) -> String {
        let words = string.split(whereSeparator: { $0.isWhitespace || $0.isNewline })
        let collapsed = words.joined(separator: " ")
        return collapsed.isEmpty ? fallback : collapsed
    }

    /// Decodes bytes as UTF-8, replacing every invalid sequence with U+FFFD.
    public static func decodeLossy<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `string` escaped as element content to `output`.
    public static func appendText(_ string: String, to output: inout String) {
        guard string.utf8.contains(where: needsTextEscape) else {
            output += string
            return
        }
        for scalar in string.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            default: appendScalar(scalar, to: &output)
            }
        }
    }

    /// Appends `string` escaped as a double-quoted attribute value to `output`.
    public static func appendAttribute(_ string: String, to output: inout String) {
        guard string.utf8.contains(where: needsAttributeEscape) else {
            output += string
            return
        }
        for scalar in string.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&apos;"
            case "\t": output += "&#9;"
            case "\n": output += "&#10;"
            case "\r": output += "&#13;"
            default: appendScalar(scalar, to: &output)
            }
        }
    }

    /// True when `scalar` may appear in an XML 1.0 document.
    public static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD: return true
        case 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    /// The visible stand-in for a scalar XML 1.0 cannot carry.
    static func replacement(for scalar: Unicode.Scalar) -> Unicode.Scalar {
        if scalar.value < 0x20, let picture = Unicode.Scalar(0x2400 + scalar.value) { return picture }
        return "\u{FFFD}"
    }

    /// Whether `scalar` is a bidirectional formatting control (embeddings, overrides, isolates and marks),
    /// which would silently reorder the text around it.
    public static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        // TerminalSafe's hidden set is the C1 controls and exactly these bidi controls.
        scalar.value > 0x9F && TerminalSafe.isHidden(scalar)
    }

    /// Appends `scalar` as shown to a reader: itself, its control picture or U+FFFD when XML cannot
    /// carry it, and `[U+202E]` for a bidi control.
    public static func appendVisible(_ scalar: Unicode.Scalar, to output: inout String) {
        if isBidiControl(scalar) {
            output += "[U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4) + "]"
        } else {
            output.unicodeScalars.append(isAllowed(scalar) ? scalar : replacement(for: scalar))
        }
    }

    private static func appendScalar(_ scalar: Unicode.Scalar, to output: inout String) {
        appendVisible(scalar, to: &output)
    }

    /// Bytes that force the slow path for element content: markup characters, C0 controls, the lead
    /// byte 0xEF of U+FFFE/U+FFFF, and the lead bytes 0xE2 and 0xD8 of the bidi controls (the slow path
    /// then checks the scalar itself).
    static func needsTextEscape(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte < 0x20
            || byte == 0xEF || byte == 0xE2 || byte == 0xD8
    }

    private static func needsAttributeEscape(_ byte: UInt8) -> Bool {
        needsTextEscape(byte) || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
    }
}

extension String {
    /// The text with leading zeros up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
