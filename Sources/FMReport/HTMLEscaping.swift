/// Escaping for HTML text and attribute values: model output and suite text always show as text.
///
/// `& < > " '` become entities, so `<script>` in a response renders literally and cannot close an
/// attribute. C0 control characters other than tab and line breaks (which HTML parsers report as
/// parse errors) become their visible control pictures, and bidi controls (U+202E …) become `[U+202E]`,
/// the same as in the JUnit XML and the terminal.
public enum HTMLEscaping {
    /// The text escaped for element content or a quoted attribute value.
    public static func escape(_ string: String) -> String {
        var output = ""
        append(string, to: &output)
        return output
    }

    /// Appends `string` escaped to `output`.
    public static func append(_ string: String, to output: inout String) {
        guard string.utf8.contains(where: needsEscape) else {
            output += string
            return
        }
        for scalar in string.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            default:
                XMLEscaping.appendVisible(scalar, to: &output)
            }
        }
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"), 0xEF, 0xE2, 0xD8: return true
        default: return byte < 0x20 && byte != 0x9 && byte != 0xA && byte != 0xD
        }
    }
}

/// A string buffer for building HTML, where every piece of data goes through `HTMLEscaping`.
public struct HTMLBuffer {
    /// The markup written so far.
    public private(set) var html: String = ""

    /// An empty buffer with room for `capacity` bytes.
    public init(capacity: Int = 1 << 16) { html.reserveCapacity(capacity) }

    /// Appends trusted markup written by fmeval itself (never data).
    public mutating func raw(_ markup: String) { html += markup }

    /// Appends data as escaped text.
    public mutating func text(_ data: String) { HTMLEscaping.append(data, to: &html) }

    /// Appends `<tag class="cls">escaped text</tag>`.
    public mutating func element(_ tag: String, cls: String? = nil, _ data: String) {
        open(tag, cls: cls)
        text(data)
        html += "</" + tag + ">"
    }

    /// Appends `<tag class="cls" attributes…>` with every attribute value escaped.
    public mutating func open(_ tag: String, cls: String? = nil, _ attributes: [(String, String)] = []) {
        html += "<" + tag
        if let cls { html += " class=\"" + cls + "\"" }
        for (name, value) in attributes {
            html += " " + name + "=\""
            HTMLEscaping.append(value, to: &html)
            html += "\""
        }
        html += ">"
    }

    /// Appends `</tag>`.
    public mutating func close(_ tag: String) { html += "</" + tag + ">" }
}
