import FMCore
import FMEvaluate

extension SuiteReader {
    /// `expect:` — a list of one-key mappings, or one mapping with a key per expectation.
    func expectations(_ node: YAMLNode, _ what: String) -> [Expectation] {
        var entries: [YAMLNode.Entry] = []
        if let items = node.sequence {
            for item in items {
                guard let pairs = item.mapping, !pairs.isEmpty else {
                    report(item, "each item of \(what) must be a mapping naming an expectation kind (\(registry.keywords.joined(separator: ", ")))")
                    continue
                }
                entries += pairs
            }
        } else if let pairs = node.mapping {
            entries = pairs
        } else if !node.isNull {
            report(node, "\(what) must be a list or mapping of expectations, not \(node.kindName)")
        }
        return entries.compactMap { expectation($0) }
    }

    /// An expectation written as `kind: scalar` (`equals: positive`), the shape a dataset repeats on every line.
    struct ScalarExpectation: Hashable {
        let keyword: String
        let text: String
        let plain: Bool
    }

    /// `expectation(_:)` for a scalar payload read before, when reading it had no effect but its value (no
    /// problem, warning or reference to check later): read once, reused on every line that writes it.
    func expectation(_ entry: YAMLNode.Entry) -> Expectation? {
        guard let scalar = entry.value.scalar else { return readExpectation(entry) }
        let key = ScalarExpectation(keyword: entry.name, text: scalar.text, plain: scalar.style == .plain)
        if let known = scalarExpectations[key] { return known }
        let effects = (diagnostics.count, warnings.count, toolReferences.count, argumentReferences.count,
                       unreadable.count, deviceRefusals.count)
        let read = readExpectation(entry)
        if let read, effects == (diagnostics.count, warnings.count, toolReferences.count, argumentReferences.count,
                                 unreadable.count, deviceRefusals.count) {
            scalarExpectations[key] = read
        }
        return read
    }

    private func readExpectation(_ entry: YAMLNode.Entry) -> Expectation? {
        guard let payload = expandedPayload(entry) else { return nil }
        let wrapped = YAMLNode(.mapping([YAMLNode.Entry(key: entry.key, value: payload)]), at: entry.key.location)
        guard let expectation = decode(Expectation.self, wrapped) else { return nil }
        let problems = expectation.problems
        for problem in problems { report(entry.value, "\(entry.name): \(problem)") }
        let named = payload.scalar ?? payload.mapping?.first { $0.name == "caseName" }?.value.scalar
        if entry.name == ErrorExpectation.keyword, let name = named?.text, let warning = ErrorTaxonomy.deprecation(of: name) {
            warnings.append(Diagnostic(entry.value.location, "\(entry.name): \(warning)"))
        }
        return problems.isEmpty ? expectation : nil
    }

    /// The payload of `{kind: payload}` with the kind's shorthand expanded; nil once the problem
    /// (an unknown kind, with a did-you-mean over the registry's keywords) is reported.
    func expandedPayload(_ entry: YAMLNode.Entry) -> YAMLNode? {
        guard let kind = registry.kind(named: entry.name) else {
            diagnostics.append(Diagnostic(entry.key.location,
                                          unknownKeyMessage(entry.name, known: registry.keywords) + " (an expectation kind)"))
            return nil
        }
        return kind.expand(entry.value, keyword: entry.name, reader: self)
    }

    func keyNode(_ name: String, at location: SourceLocation) -> YAMLNode {
        YAMLNode(.scalar(YAMLScalar(text: name, style: .plain)), at: location)
    }

    /// A `toolCalls` payload with suite shorthands expanded: a tool name alone for a call, and
    /// `arguments` as a mapping `{argument: matcher}` where a bare value means `exact`.
    func trajectory(_ value: YAMLNode) -> YAMLNode {
        guard var entries = value.mapping else { return value }
        for index in entries.indices where ["ordered", "unordered", "disallowed"].contains(entries[index].name) {
            guard let items = entries[index].value.sequence else { continue }
            let rewritten = items.map { item -> YAMLNode in
                if let group = item["anyOrder"], let calls = group.sequence, item.mapping?.count == 1 {
                    let entry = YAMLNode.Entry(key: item.mapping![0].key, value: YAMLNode(.sequence(calls.map(toolCall)), at: group.location))
                    return YAMLNode(.mapping([entry]), at: item.location)
                }
                return toolCall(item)
            }
            entries[index].value = YAMLNode(.sequence(rewritten), at: entries[index].value.location)
        }
        return YAMLNode(.mapping(entries), at: value.location)
    }

    func toolCall(_ item: YAMLNode) -> YAMLNode {
        if case .string(let name)? = item.scalar?.value {
            toolReferences.append((name, item))
            return YAMLNode(.mapping([YAMLNode.Entry(key: keyNode("name", at: item.location), value: item)]), at: item.location)
        }
        guard var entries = item.mapping else { return item }
        if let nameNode = item["name"], case .string(let name)? = nameNode.scalar?.value { toolReferences.append((name, nameNode)) }
        if let index = entries.firstIndex(where: { $0.name == "arguments" }), let arguments = entries[index].value.mapping {
            if case .string(let tool)? = item["name"]?.scalar?.value {
                argumentReferences += arguments.map { (tool, $0.name, $0.key) }
            }
            let matchers = arguments.map { argument -> YAMLNode in
                let nameEntry = YAMLNode.Entry(key: keyNode("argument", at: argument.key.location), value: argument.key)
                let matcherKeys = ArgumentMatcher.keywords + ArgumentMatcher.modifierKeys
                if let pairs = argument.value.mapping, pairs.contains(where: { ArgumentMatcher.keywords.contains($0.name) }),
                   pairs.allSatisfy({ matcherKeys.contains($0.name) }) {
                    return YAMLNode(.mapping([nameEntry] + pairs), at: argument.key.location)
                }
                if let pairs = argument.value.mapping, !pairs.contains(where: { ArgumentMatcher.keywords.contains($0.name) }) {
                    let modifiers = pairs.map(\.name).filter { ArgumentMatcher.modifierKeys.contains($0) }
                    if !modifiers.isEmpty {
                        report(argument.value, "argument '\(argument.name)': \(modifiers.joined(separator: ", ")) needs a matcher beside it (\(ArgumentMatcher.keywords.joined(separator: ", "))); to expect an object with \(modifiers.count == 1 ? "this key" : "these keys"), write it under exact:")
                        let placeholder = YAMLNode.Entry(key: keyNode("keyOnly", at: argument.value.location), value: YAMLNode(.scalar(YAMLScalar(text: "true", style: .plain)), at: argument.value.location))
                        return YAMLNode(.mapping([nameEntry, placeholder]), at: argument.key.location)
                    }
                }
                if let pairs = argument.value.mapping, let bad = pairs.first(where: { !matcherKeys.contains($0.name) }),
                   Suggestion.closest(to: bad.name, in: matcherKeys) != nil {
                    diagnostics.append(Diagnostic(bad.key.location, unknownKeyMessage(bad.name, known: matcherKeys) + " (an argument matcher)"))
                    let placeholder = YAMLNode.Entry(key: keyNode("keyOnly", at: bad.key.location), value: YAMLNode(.scalar(YAMLScalar(text: "true", style: .plain)), at: bad.key.location))
                    return YAMLNode(.mapping([nameEntry, placeholder]), at: argument.key.location)
                }
                let exact = YAMLNode.Entry(key: keyNode("exact", at: argument.value.location), value: argument.value)
                return YAMLNode(.mapping([nameEntry, exact]), at: argument.key.location)
            }
            entries[index].value = YAMLNode(.sequence(matchers), at: entries[index].value.location)
        }
        return YAMLNode(.mapping(entries), at: item.location)
    }
}
