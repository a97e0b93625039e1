import FMCore
import FMEvaluate

extension SuiteReader {
    /// `expect:` — a list of one-key mappings, or one mapping with a key per expectation.
    func expectations(_ node: YAMLNode, _ what: String) -> [Expectation] {
        var entries: [YAMLNode.Entry] = []
        if let items = node.sequence {
            for item in items {
                guard let pairs = item.mapping, !pairs.isEmpty else {
                    report(item, "each item of \(what) must be a mapping naming an expectation kind (\(Expectation.kinds.joined(separator: ", ")))")
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

    func expectation(_ entry: YAMLNode.Entry) -> Expectation? {
        guard Expectation.kinds.contains(entry.name) else {
            diagnostics.append(Diagnostic(entry.key.location, unknownKeyMessage(entry.name, known: Expectation.kinds) + " (an expectation kind)"))
            return nil
        }
        guard let payload = desugar(kind: entry.name, entry.value) else { return nil }
        let wrapped = YAMLNode(.mapping([YAMLNode.Entry(key: entry.key, value: payload)]), at: entry.key.location)
        guard let expectation = decode(Expectation.self, wrapped) else { return nil }
        let problems = expectation.problems
        for problem in problems { report(entry.value, "\(entry.name): \(problem)") }
        return problems.isEmpty ? expectation : nil
    }

    /// Rewrites suite shorthands into the Codable shape of each expectation kind.
    func desugar(kind: String, _ value: YAMLNode) -> YAMLNode? {
        func wrap(_ key: String, _ node: YAMLNode) -> YAMLNode {
            YAMLNode(.mapping([YAMLNode.Entry(key: keyNode(key, at: node.location), value: node)]), at: node.location)
        }
        func hasOnly(_ keys: Set<String>, requiring required: String) -> Bool {
            guard let names = value.mapping?.map(\.name) else { return false }
            return names.contains(required) && Set(names).isSubset(of: keys)
        }
        let textKeys: Set<String> = ["path", "ignoreCase"]
        switch kind {
        case "equals":
            return hasOnly(textKeys.union(["value"]), requiring: "value") ? value : wrap("value", value)
        case "oneOf":
            return value.sequence != nil ? wrap("values", value) : value
        case "contains":
            if value.scalar != nil { return wrap("substrings", YAMLNode(.sequence([value]), at: value.location)) }
            return value.sequence != nil ? wrap("substrings", value) : value
        case "regex":
            return value.scalar != nil ? wrap("pattern", value) : value
        case "error":
            if value.isNull { return YAMLNode(.mapping([]), at: value.location) }
            return value.scalar != nil ? wrap("caseName", value) : value
        case "command":
            return value.sequence != nil ? wrap("argv", value) : value
        case "snapshots":
            guard value.scalar != nil, !value.isNull else { return value }
            return YAMLNode(.mapping([YAMLNode.Entry(key: keyNode("minimum", at: value.location), value: value),
                                      YAMLNode.Entry(key: keyNode("maximum", at: value.location), value: value)]), at: value.location)
        case "schema", "constraints":
            return constraintPayload(kind: kind, value)
        case "not":
            guard let pairs = value.mapping, pairs.count == 1, let inner = pairs.first else {
                report(value, "not needs exactly one expectation inside, e.g. not: {contains: forbidden}")
                return nil
            }
            guard Expectation.kinds.contains(inner.name) else {
                diagnostics.append(Diagnostic(inner.key.location, unknownKeyMessage(inner.name, known: Expectation.kinds) + " (an expectation kind)"))
                return nil
            }
            guard let payload = desugar(kind: inner.name, inner.value) else { return nil }
            return YAMLNode(.mapping([YAMLNode.Entry(key: inner.key, value: payload)]), at: value.location)
        case "toolCalls":
            return trajectory(value)
        default:
            return value
        }
    }

    func keyNode(_ name: String, at location: SourceLocation) -> YAMLNode {
        YAMLNode(.scalar(YAMLScalar(text: name, style: .plain)), at: location)
    }

    /// `constraints`/`schema` payloads; a schema given as a path is replaced by the file's nodes.
    func constraintPayload(kind: String, _ value: YAMLNode) -> YAMLNode? {
        if value.isNull { return YAMLNode(.mapping([]), at: value.location) }
        let budgetKeys: Set<String> = ["schema", "maxViolations", "maxViolationsPerKeyword"]
        var payload = value
        if kind == "schema" {
            if value.scalar != nil {
                payload = YAMLNode(.mapping([YAMLNode.Entry(key: keyNode("schema", at: value.location), value: value)]), at: value.location)
            } else if let names = value.mapping?.map(\.name), !Set(names).isSubset(of: budgetKeys) {
                payload = YAMLNode(.mapping([YAMLNode.Entry(key: keyNode("schema", at: value.location), value: value)]), at: value.location)
            }
        }
        guard var entries = payload.mapping else { return payload }
        if let index = entries.firstIndex(where: { $0.name == "schema" }), case .string(let path)? = entries[index].value.scalar?.value {
            guard let file = parseFile(path, at: entries[index].value, what: "\(kind) schema") else { return nil }
            guard schema(file, "\(kind) schema") != nil else { return nil }
            entries[index].value = file
        } else if let index = entries.firstIndex(where: { $0.name == "schema" }) {
            guard schema(entries[index].value, "\(kind) schema") != nil else { return nil }
        }
        return YAMLNode(.mapping(entries), at: payload.location)
    }

    /// A `toolCalls` payload with suite shorthands expanded: a tool name alone for a call, and
    /// `arguments` as a mapping `{argument: matcher}` where a bare value means `exact`.
    func trajectory(_ value: YAMLNode) -> YAMLNode? {
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
            let matchers = arguments.map { argument -> YAMLNode in
                let nameEntry = YAMLNode.Entry(key: keyNode("argument", at: argument.key.location), value: argument.key)
                if let pairs = argument.value.mapping, pairs.count >= 1, pairs.allSatisfy({ ArgumentMatcher.keywords.contains($0.name) }) {
                    return YAMLNode(.mapping([nameEntry] + pairs), at: argument.key.location)
                }
                if let pairs = argument.value.mapping, let bad = pairs.first(where: { !ArgumentMatcher.keywords.contains($0.name) }),
                   Suggestion.closest(to: bad.name, in: ArgumentMatcher.keywords) != nil {
                    diagnostics.append(Diagnostic(bad.key.location, unknownKeyMessage(bad.name, known: ArgumentMatcher.keywords) + " (an argument matcher)"))
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
