/// Appends one reference token to a JSON pointer, escaping `~` and `/`.
public func jsonPointer(_ base: String, _ token: String) -> String {
    var escaped = ""
    for character in token {
        switch character {
        case "~": escaped += "~0"
        case "/": escaped += "~1"
        default: escaped.append(character)
        }
    }
    return base + "/" + escaped
}

/// Undoes the escaping of one JSON pointer reference token (`~1` → `/`, `~0` → `~`).
func unescapePointerToken(_ token: Substring) -> String {
    var result = ""
    var pendingTilde = false
    for character in token {
        if pendingTilde {
            result.append(character == "1" ? "/" : character == "0" ? "~" : character)
            pendingTilde = false
        } else if character == "~" {
            pendingTilde = true
        } else {
            result.append(character)
        }
    }
    if pendingTilde { result.append("~") }
    return result
}
