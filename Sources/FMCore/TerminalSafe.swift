/// Makes text from a suite, a model, a server or a file safe to show on a terminal: nothing in it can
/// move the cursor, erase a line, set the window title, ring the bell or reorder what is shown.
///
/// `text` keeps line breaks and tabs; every other C0 control (ESC, BEL, NUL, CR, …) becomes its Unicode
/// control picture (ESC → `␛`), DEL becomes `␡`, and C1 controls (U+0080–U+009F, which some terminals
/// read as ESC sequences) and bidi controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C)
/// become `[U+XXXX]`. `json` does the same to a JSON document while keeping it the same JSON: the
/// characters that need it are written as `\uXXXX` escapes (JSON text has them only inside strings).
public enum TerminalSafe {
    /// `text` as shown on a terminal; `keeping` lists exact escape sequences fmeval itself wrote (its
    /// colours, `ESC[31m`) that pass unchanged.
    public static func text(_ text: String, keeping: Set<String> = []) -> String {
        guard needsWork(text) else { return text }
        var output = ""
        output.reserveCapacity(text.utf8.count + 16)
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\u{1B}", let kept = keptSequence(scalars, at: index, keeping: keeping) {
                output += kept
                index += kept.unicodeScalars.count
                continue
            }
            switch scalar.value {
            case 0x0A, 0x09: output.unicodeScalars.append(scalar)
            case 0x00 ..< 0x20: output.unicodeScalars.append(Unicode.Scalar(0x2400 + scalar.value)!)
            case 0x7F: output += "\u{2421}"
            default:
                if isHidden(scalar) { output += "[U+" + hex(scalar.value) + "]" } else { output.unicodeScalars.append(scalar) }
            }
            index += 1
        }
        return output
    }

    /// The JSON document `json` with DEL, C1 and bidi controls (and any raw C0 control other than line
    /// breaks and tabs) written as `\uXXXX`, so it parses to the same value.
    public static func json(_ json: String) -> String {
        guard needsWork(json) else { return json }
        var output = ""
        output.reserveCapacity(json.utf8.count + 16)
        for scalar in json.unicodeScalars {
            let value = scalar.value
            if value == 0x0A || value == 0x09 || !(value < 0x20 || value == 0x7F || isHidden(scalar)) {
                output.unicodeScalars.append(scalar)
            } else {
                output += "\\u" + hex(value)
            }
        }
        return output
    }

    /// Whether `scalar` is a C1 control or a bidi control.
    public static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x80 ... 0x9F, 0x202A ... 0x202E, 0x2066 ... 0x2069, 0x200E, 0x200F, 0x061C: return true
        default: return false
        }
    }

    private static func needsWork(_ text: String) -> Bool {
        text.utf8.contains { $0 < 0x20 && $0 != 0x0A && $0 != 0x09 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xD8 || $0 == 0xE2 }
    }

    private static func keptSequence(_ scalars: [Unicode.Scalar], at index: Int, keeping: Set<String>) -> String? {
        guard !keeping.isEmpty else { return nil }
        var end = index + 1
        guard end < scalars.count, scalars[end] == "[" else { return nil }
        end += 1
        while end < scalars.count, end - index < 16, ("0"..."9").contains(scalars[end]) || scalars[end] == ";" { end += 1 }
        guard end < scalars.count, scalars[end] == "m" else { return nil }
        var sequence = ""
        sequence.unicodeScalars.append(contentsOf: scalars[index ... end])
        return keeping.contains(sequence) ? sequence : nil
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
