import FMCore
import Foundation

/// Looks up values inside GeneratedContent by JSON pointer (`/a/0/b`); a string without a leading
/// slash names a top-level member.
enum JSONPointer {
    /// The value at `pointer` in `content`, or nil when there is none.
    static func resolve(_ pointer: String, in content: GeneratedContent) -> GeneratedContent? {
        guard pointer.hasPrefix("/") else { return content[pointer] }
        var current = content
        for rawToken in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let token = rawToken.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            switch current.kind {
            case .structure(let properties, _):
                guard let next = properties[token] else { return nil }
                current = next
            case .array(let elements):
                guard let index = Int(token), elements.indices.contains(index) else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }

    /// The reference tokens of `pointer` (one token, the name itself, for a top-level member name).
    static func segments(of pointer: String) -> [String] {
        guard pointer.hasPrefix("/") else { return [pointer] }
        return pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~") }
    }

    /// The pointer made of `tokens` (`/a/b`), escaping `~` and `/`.
    static func pointer(_ tokens: [String]) -> String {
        tokens.reduce("") { jsonPointer($0, $1) }
    }
}

/// Shortens text for rationales: at most `limit` characters, with an ellipsis when cut.
func abbreviate(_ text: String, limit: Int = 160) -> String {
    guard text.count > limit else { return text }
    return String(text.prefix(limit)) + "…"
}

/// A value quoted for a rationale: strings in JSON quotes, other values as compact JSON, abbreviated.
func shown(_ value: GeneratedContent) -> String {
    abbreviate(value.jsonString)
}

/// A value found, or the reason there is none (for a failing metric's rationale).
enum Lookup<Value> {
    /// The value was found.
    case found(Value)
    /// It was not; the reason says why.
    case missing(String)

    /// The found value transformed.
    func map<Other>(_ transform: (Value) -> Other) -> Lookup<Other> {
        switch self {
        case .found(let value): return .found(transform(value))
        case .missing(let reason): return .missing(reason)
        }
    }
}

/// The part of a subject's output a text-style evaluator looks at.
enum OutputTarget {
    /// The output, or the value at `path` in the structured output; the failure says why there is none.
    static func value(of subject: EvaluationSubject, path: String?) -> Lookup<GeneratedContent> {
        guard let output = subject.output else {
            let cause = subject.error.map { " (the attempt ended in \($0))" } ?? ""
            return .missing("the attempt produced no output\(cause)")
        }
        guard let path else { return .found(output) }
        let structured = subject.content ?? subject.text.flatMap { try? GeneratedContent(json: $0) }
        guard let structured else {
            return .missing("path \(path) needs structured output, but the output is text: \(shown(output))")
        }
        guard let value = JSONPointer.resolve(path, in: structured) else {
            return .missing("the output has no value at \(path): \(shown(structured))")
        }
        return .found(value)
    }

    /// The text of `value`: a string as is, anything else as compact JSON.
    static func text(of value: GeneratedContent) -> String {
        value.stringValue ?? value.jsonString
    }

    /// The text to search, or the reason there is none.
    static func text(of subject: EvaluationSubject, path: String?) -> Lookup<String> {
        value(of: subject, path: path).map { Self.text(of: $0) }
    }
}

/// Whether `actual` equals `expected` the way `equals` and `oneOf` compare: strings trimmed of
/// surrounding whitespace (and case-folded on request); text that holds JSON compared as JSON.
func outputMatches(_ actual: GeneratedContent, _ expected: GeneratedContent, ignoreCase: Bool) -> Bool {
    if let actualString = actual.stringValue {
        let trimmed = actualString.trimmingCharacters(in: .whitespacesAndNewlines)
        if let expectedString = expected.stringValue {
            let wanted = expectedString.trimmingCharacters(in: .whitespacesAndNewlines)
            return ignoreCase ? trimmed.lowercased() == wanted.lowercased() : trimmed == wanted
        }
        guard let parsed = try? GeneratedContent(json: trimmed) else { return false }
        return parsed == expected
    }
    return actual == expected
}

/// Where two JSON values differ, as `pointer: expected X, got Y` lines (at most `limit`), for rationales.
func differences(expected: GeneratedContent, actual: GeneratedContent, at path: String = "", limit: Int = 5) -> [String] {
    var found: [String] = []
    func walk(_ expected: GeneratedContent, _ actual: GeneratedContent, _ path: String) {
        guard found.count < limit, expected != actual else { return }
        let here = path.isEmpty ? "/" : path
        switch (expected.kind, actual.kind) {
        case (.structure(let wanted, let order), .structure(let got, let gotOrder)):
            let child = { (key: String) in path + "/" + key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1") }
            for key in order {
                if let value = got[key], let want = wanted[key] {
                    walk(want, value, child(key))
                } else if found.count < limit {
                    found.append("\(child(key)): missing")
                }
            }
            for key in gotOrder where wanted[key] == nil && found.count < limit {
                found.append("\(child(key)): not expected")
            }
        case (.array(let wanted), .array(let got)):
            if wanted.count != got.count { found.append("\(here): expected \(wanted.count) elements, got \(got.count)") }
            for index in 0..<min(wanted.count, got.count) { walk(wanted[index], got[index], "\(path)/\(index)") }
        default:
            found.append("\(here): expected \(shown(expected)), got \(shown(actual))")
        }
    }
    walk(expected, actual, path)
    return found
}
