import Foundation
import FMCore
import FMEvaluate

/// What a case checks, in one line derived from its expectations, for the forum-bug catalogue:
/// `toolCalls: getCityInfo(city ∈ {London, New York, Paris})`, `contains: weather`.
public enum CatalogueChecks {
    /// The expectations as `kind: what` phrases joined by `; `.
    public static func describe(_ expectations: [Expectation]) -> String {
        expectations.map(describe).joined(separator: "; ")
    }

    /// One expectation as `kind: what`.
    public static func describe(_ expectation: Expectation) -> String {
        if let trajectory = expectation.payload(as: TrajectoryExpectation.self) {
            return "toolCalls: " + describe(trajectory)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(expectation), let json = String(data: data, encoding: .utf8),
              let content = try? GeneratedContent(json: json), let value = content[expectation.kind] else {
            return expectation.kind
        }
        let shown = compact(value)
        return shown.isEmpty ? expectation.kind : "\(expectation.kind): \(shown)"
    }

    /// A trajectory: ordered positions joined by `then`, unordered calls, disallowed ones, and the limits.
    static func describe(_ trajectory: TrajectoryExpectation) -> String {
        var parts: [String] = []
        if !trajectory.ordered.isEmpty {
            parts.append(trajectory.ordered.map { position in
                switch position {
                case .call(let call): return describe(call)
                case .anyOrder(let calls): return "{" + calls.map(describe).joined(separator: ", ") + "} in any order"
                }
            }.joined(separator: " then "))
        }
        if !trajectory.unordered.isEmpty { parts.append(trajectory.unordered.map(describe).joined(separator: ", ")) }
        if !trajectory.disallowed.isEmpty { parts.append("never " + trajectory.disallowed.map(describe).joined(separator: ", ")) }
        if !trajectory.allowsAdditionalToolCalls { parts.append(parts.isEmpty ? "no tool calls" : "no other calls") }
        if trajectory.metric == .percentagePass {
            parts.append("at least \(Int((trajectory.minimumPercentage * 100).rounded()))% matched")
        }
        if let most = trajectory.maxViolations { parts.append("at most \(most) argument-schema violation\(most == 1 ? "" : "s")") }
        for keyword in trajectory.maxViolationsPerKeyword.keys.sorted() {
            parts.append("at most \(trajectory.maxViolationsPerKeyword[keyword]!) \(keyword) violation\(trajectory.maxViolationsPerKeyword[keyword] == 1 ? "" : "s")")
        }
        return parts.isEmpty ? "any calls" : parts.joined(separator: "; ")
    }

    /// `name(arg ∈ {…}, …)`, or the bare name when no argument is checked.
    static func describe(_ call: ToolCallExpectation) -> String {
        let arguments = call.arguments.map(describe) + (call.allowsAdditionalArguments ? [] : ["nothing else"])
        return arguments.isEmpty ? call.name : "\(call.name)(\(arguments.joined(separator: ", ")))"
    }

    /// One argument matcher: `city ∈ {London, Paris}`, `count = 2`, `units present`.
    static func describe(_ matcher: ArgumentMatcher) -> String {
        let name = matcher.argumentName + (matcher.modifiers.isOptional ? "?" : "")
        switch matcher.base {
        case .exact(_, let value): return "\(name) = \(compact(value))"
        case .keyOnly: return "\(name) present"
        case .oneOf(_, let values): return "\(name) ∈ {\(values.map(compact).joined(separator: ", "))}"
        case .range(_, let minimum, let maximum):
            return [minimum.map { "\(compact($0)) ≤ " }, name, maximum.map { " ≤ \(compact($0))" }].compactMap { $0 }.joined()
        case .pattern(_, let regex): return "\(name) ~ /\(regex)/"
        case .contains(_, let text): return "\(name) contains \"\(text)\""
        case .hasPrefix(_, let text): return "\(name) starts with \"\(text)\""
        case .hasSuffix(_, let text): return "\(name) ends with \"\(text)\""
        case .naturalLanguage(_, let criteria): return "\(name): \(criteria)"
        case .length(_, let minimum, let maximum):
            return "length of \(name) in [\(minimum.map(String.init) ?? "0"), \(maximum.map(String.init) ?? "∞")]"
        case .modified(let inner, _): return describe(inner)
        }
    }

    /// A JSON value in few words: strings bare, lists joined by `, `, objects as `key value` pairs
    /// without their false, null and empty members (one remaining member shows its value alone, or
    /// `kind: value` when it is a nested expectation).
    static func compact(_ value: GeneratedContent) -> String {
        if let text = value.stringValue { return text }
        if let items = value.arrayValue { return items.map(compact).joined(separator: ", ") }
        if let members = value.orderedProperties {
            let kept = members.filter { !isEmpty($0.value) }.map { ($0.key, $0.value) }
            if kept.count == 1 {
                // A nested expectation (`not: {contains: …}`) keeps its kind.
                return ExpectationRegistry.builtIn.keywords.contains(kept[0].0) ? "\(kept[0].0): \(compact(kept[0].1))" : compact(kept[0].1)
            }
            return kept.map { $0.1.boolValue == true ? $0.0 : "\($0.0) \(compact($0.1))" }.joined(separator: ", ")
        }
        return value.jsonString
    }

    private static func isEmpty(_ value: GeneratedContent) -> Bool {
        if value.boolValue == false { return true }
        if value.isNull { return true }
        if let items = value.arrayValue { return items.isEmpty }
        if let members = value.orderedProperties { return members.isEmpty }
        return false
    }
}
