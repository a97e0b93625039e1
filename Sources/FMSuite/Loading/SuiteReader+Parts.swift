import Foundation
import FMCore
import FMEvaluate

extension SuiteReader {
    // MARK: - Schemas and options

    /// A GenerationSchema written inline, or a path to a `.json`/`.yaml` file holding one; `sentToDevice`
    /// (a response or tool-arguments schema) also records what the device's decoder would refuse in it.
    /// A schema that does not build marks `node` unreadable, so checks that need the schema skip it.
    func schema(_ node: YAMLNode, _ what: String, sentToDevice: Bool = false) -> GenerationSchema? {
        let schema = readSchema(node, what, sentToDevice: sentToDevice)
        if schema == nil { markUnreadable(node) }
        return schema
    }

    private func readSchema(_ node: YAMLNode, _ what: String, sentToDevice: Bool) -> GenerationSchema? {
        var source = node
        if case .string(let path)? = node.scalar?.value {
            guard let parsed = parseFile(path, at: node, what: what) else { return nil }
            source = parsed
        } else if node.mapping == nil {
            report(node, "\(what) must be a schema mapping or a path to a schema file, not \(node.kindName)")
            return nil
        }
        guard let content = content(source) else { return nil }
        do {
            let schema = try GenerationSchema(content: content)
            if sentToDevice { noteDeviceRefusals(of: content, in: source, what) }
            return schema
        } catch {
            let problems = GenerationSchema.problems(in: content)
            for problem in problems.isEmpty ? [error] : problems { reportSchemaProblem(problem, in: source, what) }
        }
        return nil
    }

    /// `generating:` — a type name, `{enum: [...]}`, `{type: NAME}` or `{schema: inline-or-file}`; one that
    /// cannot be read marks `node` unreadable, so a case's `constraints` do not also report free text.
    func generating(_ node: YAMLNode) -> GenerationSchema? {
        let schema = readGenerating(node)
        if schema == nil { markUnreadable(node) }
        return schema
    }

    private func readGenerating(_ node: YAMLNode) -> GenerationSchema? {
        let types = ["string", "integer", "number", "boolean"]
        if let scalar = node.scalar {
            guard types.contains(scalar.text) else {
                let hint = Suggestion.closest(to: scalar.text, in: types).map { "did you mean '\($0)'? " } ?? ""
                report(node, "generating: unknown type '\(scalar.text)'; \(hint)use one of \(types.joined(separator: ", ")), {enum: [...]} or {schema: ...}")
                return nil
            }
            return schema(from: GeneratedContent(properties: [("type", GeneratedContent(scalar.text))]), at: node, "generating")
        }
        guard let keys = mapping(node, "generating", allowed: ["enum", "type", "schema"]) else { return nil }
        guard keys.count == 1 else {
            if keys.count > 1 { report(node, "generating takes exactly one of enum, type, schema (found \(keys.keys.sorted().joined(separator: ", ")))") }
            else if node.mapping?.isEmpty ?? true { report(node, "generating needs one of enum, type, schema") }
            return nil
        }
        if let choices = keys["enum"] {
            guard let values = stringList(choices, "generating.enum") else { return nil }
            guard !values.isEmpty else { report(choices, "generating.enum needs at least one value"); return nil }
            if let duplicate = values.enumerated().first(where: { values[..<$0.offset].contains($0.element) }) {
                report(choices, "generating.enum lists '\(duplicate.element)' twice")
            }
            let content = GeneratedContent(properties: [("type", "string"), ("enum", GeneratedContent(values.map { GeneratedContent($0) }))])
            return schema(from: content, at: choices, "generating.enum")
        }
        if let type = keys["type"] { return readGenerating(type) }
        return keys["schema"].flatMap { schema($0, "generating.schema", sentToDevice: true) }
    }

    func schema(from content: GeneratedContent, at node: YAMLNode, _ what: String) -> GenerationSchema? {
        do { return try GenerationSchema(content: content) } catch {
            report(node, "\(what) does not build: \(error)")
            return nil
        }
    }

    /// An `options:` block: GenerationOptions keys plus fmeval's run settings.
    func options(_ node: YAMLNode, _ what: String) -> OptionsPatch? {
        let generationKeys = ["sampling", "temperature", "maximumResponseTokens", "toolCallingMode"]
        guard let keys = mapping(node, what, allowed: generationKeys + RunSettings.keys) else { return nil }
        var patch = OptionsPatch()
        let generationEntries = (node.mapping ?? []).filter { generationKeys.contains($0.name) }
        let generationNode = YAMLNode(.mapping(generationEntries), at: node.location)
        if let content = content(generationNode) {
            do {
                patch.generation = try GenerationOptions(content: content)
            } catch let error as JSONFormatError {
                diagnostics.append(Diagnostic(SuiteReader.node(at: error.path, in: generationNode).location, "\(what): \(error.message)"))
            } catch {
                report(node, "\(what): \(error)")
            }
        }
        for setting in RunSettingTable.all { setting.read(self, keys[setting.name], "\(what).\(setting.name)", &patch) }
        return patch
    }

    /// The options of one level (suite, variant or case): its device profile's settings (`device:`), with
    /// its own `options:` over them.
    func levelOptions(_ keys: [String: YAMLNode], _ what: String) -> OptionsPatch {
        let written = keys["options"].flatMap { options($0, what) } ?? OptionsPatch()
        guard let node = keys["device"], let name = string(node, "device") else { return written }
        guard let profile = DeviceProfile.named(name) else {
            let hint = Suggestion.closest(to: name, in: DeviceProfile.names).map { "did you mean '\($0)'? " } ?? ""
            let names = DeviceProfile.names.joined(separator: ", ")
            report(node, "unknown device '\(name)'; \(hint)the profiles are \(names) (docs/device-differences.md)")
            return written
        }
        return profile.patch.overridden(by: written)
    }

    /// `guideEnforcement: device | strict`.
    func guideEnforcement(_ node: YAMLNode?, _ what: String) -> GuideEnforcement? {
        guard let node, let name = string(node, what) else { return nil }
        guard let enforcement = GuideEnforcement(rawValue: name) else {
            report(node, "\(what) must be device or strict, not '\(name)'")
            return nil
        }
        return enforcement
    }

    /// `loopGuards: off`, or a mapping of the guards to keep (each a limit of at least 1; a guard left
    /// out is off).
    func loopGuards(_ node: YAMLNode?, _ what: String) -> LoopGuards? {
        guard let node else { return nil }
        if case .string("off")? = node.scalar?.value { return .off }
        if case .bool(false)? = node.scalar?.value { return .off }
        guard node.mapping != nil else {
            report(node, "\(what) must be off or a mapping of maximumStringBytes, maximumUnboundedItems, maximumRecursionDepth, not \(node.kindName)")
            return nil
        }
        let names = ["maximumStringBytes", "maximumUnboundedItems", "maximumRecursionDepth"]
        guard let keys = mapping(node, what, allowed: names) else { return nil }
        return LoopGuards(maximumStringBytes: int(keys["maximumStringBytes"], "\(what).maximumStringBytes", minimum: 1),
                          maximumUnboundedItems: int(keys["maximumUnboundedItems"], "\(what).maximumUnboundedItems", minimum: 1),
                          maximumRecursionDepth: int(keys["maximumRecursionDepth"], "\(what).maximumRecursionDepth", minimum: 0))
    }

    // MARK: - Tools

    func tool(_ node: YAMLNode) -> SuiteTool? {
        guard let keys = mapping(node, "a tool", allowed: ["name", "description", "arguments", "output", "outputs"]) else { return nil }
        guard let nameNode = keys["name"] else { report(node, "a tool needs a 'name'"); return nil }
        let name = string(nameNode, "tool name")
        let description = keys["description"].flatMap { string($0, "tool description") } ?? ""
        var arguments: GenerationSchema? = nil
        if let argumentsNode = keys["arguments"] {
            arguments = schema(argumentsNode, "tool '\(name ?? "?")' arguments", sentToDevice: true)
        } else {
            arguments = schema(from: GeneratedContent(properties: [("type", "object"), ("properties", GeneratedContent(properties: []))]),
                               at: node, "tool arguments")
        }
        var output: ToolOutput? = nil
        switch (keys["output"], keys["outputs"]) {
        case (let single?, nil): output = toolOutput(single)
        case (nil, let rules?): output = toolRules(rules)
        case (_?, _?): report(node, "a tool takes 'output' or 'outputs', not both")
        case (nil, nil): report(node, "tool '\(name ?? "?")' needs 'output' (text, {file}, {command}, {json}) or 'outputs' (rules by argument)")
        }
        guard let name, let arguments, let output else { return nil }
        return SuiteTool(name: name, description: description, arguments: arguments, output: output)
    }

    /// `output:` — text, `{json: value}`, `{file: path}` or `{command: [argv], timeoutSeconds?}`.
    func toolOutput(_ node: YAMLNode) -> ToolOutput? {
        if let scalar = node.scalar {
            if node.isNull { report(node, "a tool output cannot be empty; write the text the tool returns"); return nil }
            return .text(scalar.text)
        }
        guard let keys = mapping(node, "a tool output", allowed: ["json", "file", "command", "timeoutSeconds"]) else { return nil }
        if let json = keys["json"] { return content(json).map { .structure($0) } }
        if let fileNode = keys["file"] {
            guard let path = string(fileNode, "output file"), let (url, text) = readFile(path, at: fileNode, what: "tool output") else { return nil }
            return .file(path: displayPath(url), text: text)
        }
        if let commandNode = keys["command"] {
            guard let argv = stringList(commandNode, "output command"), !argv.isEmpty else {
                report(commandNode, "output command needs the program and its arguments, e.g. [python3, tools/weather.py]")
                return nil
            }
            let timeout = number(keys["timeoutSeconds"], "timeoutSeconds") ?? ToolCommand.defaultTimeout
            if !(timeout > 0) { report(keys["timeoutSeconds"] ?? node, "timeoutSeconds must be above 0") }
            return .command(ToolCommand(argv: argv, timeoutSeconds: timeout))
        }
        report(node, "a tool output mapping needs one of json, file, command")
        return nil
    }

    /// `outputs:` — a list of `{when: {arg: value}, output: ...}` rules; a rule without `when` is the default.
    func toolRules(_ node: YAMLNode) -> ToolOutput? {
        guard let items = node.sequence else {
            report(node, "outputs must be a list of {when: {argument: value}, output: ...} rules")
            return nil
        }
        var rules: [ToolOutputRule] = []
        for item in items {
            guard let keys = mapping(item, "an outputs rule", allowed: ["when", "output"]) else { continue }
            var when: GeneratedContent? = nil
            if let whenNode = keys["when"] {
                guard whenNode.mapping != nil else { report(whenNode, "when must map argument names to values"); continue }
                when = content(whenNode)
            }
            guard let outputNode = keys["output"] else { report(item, "an outputs rule needs 'output'"); continue }
            if let output = toolOutput(outputNode) { rules.append(ToolOutputRule(when: when, output: output)) }
        }
        if rules.isEmpty && !items.isEmpty { return nil }
        if items.isEmpty { report(node, "outputs needs at least one rule") }
        return .byArguments(rules)
    }

    // MARK: - Scripts and gates

    /// The value of an engine's per-case data (`kind`) written at `node`, decoded by the engine with
    /// located errors; nil (reported) when it cannot be decoded.
    func engineData(_ kind: EngineCaseDataKind, _ node: YAMLNode) -> (any EngineCaseValue)? {
        decode(DecodedEngineData.self, node, extra: [DecodedEngineData.kindKey: kind])?.value
    }

    func gate(_ node: YAMLNode, repeats: Int) -> CaseGate? {
        guard let gate = decode(CaseGate.self, node) else { return nil }
        if gate.minPassRate == nil && gate.minPasses == nil {
            report(node, "gate needs minPassRate (0…1) or minPasses")
            return nil
        }
        let problems = gate.problems(repeats: repeats)
        for problem in problems { report(node, "gate: \(problem)") }
        return problems.isEmpty ? gate : nil
    }

    /// `knownIssue:` on a suite or variant — `{reason: TEXT, url: URL?, matching: [NAME…]?, intermittent: BOOL?}`,
    /// or the reason alone as a string.
    func knownIssue(_ node: YAMLNode) -> KnownIssue? {
        scopedKnownIssue(node, allowVariants: false)?.issue
    }

    /// `knownIssue:` on a case: as on a suite, plus `variants: [NAME...]` limiting it to those variants
    /// (nil: every variant the case runs under). Without `matching` it covers any failure: a warning says so.
    func scopedKnownIssue(_ node: YAMLNode, allowVariants: Bool = true) -> (issue: KnownIssue, variants: [String]?)? {
        if node.scalar != nil, !node.isNull {
            guard let reason = string(node, "knownIssue") else { return nil }
            warnCoversAnyFailure(node)
            return nonEmptyReason(reason, at: node).map { (KnownIssue(reason: $0), nil) }
        }
        let allowed = ["reason", "url", "matching", "intermittent"] + (allowVariants ? ["variants"] : [])
        guard let keys = mapping(node, "knownIssue", allowed: allowed) else { return nil }
        let variants = stringList(keys["variants"], "knownIssue variants")
        if let variantsNode = keys["variants"], variants?.isEmpty == true {
            report(variantsNode, "knownIssue variants is empty; name the variants the issue applies to, or leave the key out for all")
        }
        var url: String? = nil
        if let urlNode = keys["url"], let text = string(urlNode, "knownIssue url") {
            if let problem = KnownIssue.urlProblem(text) { report(urlNode, problem) } else { url = text }
        }
        let matching = keys["matching"].flatMap(knownIssueMatching)
        if keys["matching"] == nil { warnCoversAnyFailure(node) }
        let intermittent = keys["intermittent"].flatMap { bool($0, "knownIssue intermittent") } ?? false
        guard let reasonNode = keys["reason"] else {
            report(node, "knownIssue needs a 'reason' (why the case is expected to fail), e.g. { reason: grammar not enforced, url: https://… }")
            return nil
        }
        guard let reason = string(reasonNode, "knownIssue reason"), let text = nonEmptyReason(reason, at: reasonNode),
              keys["url"] == nil || url != nil, keys["matching"] == nil || matching != nil else { return nil }
        return (KnownIssue(reason: text, url: url, matching: matching, intermittent: intermittent), variants)
    }

    /// The names a known issue's `matching` lists: expectation kinds, metric names (`KIND.detail`), `response`
    /// (a model error with no `error` expectation) and error names; an unknown one is reported with did-you-mean.
    private func knownIssueMatching(_ node: YAMLNode) -> [String]? {
        guard let names = stringList(node, "knownIssue matching") else { return nil }
        guard !names.isEmpty else {
            report(node, "knownIssue matching is empty; name the expectation kinds, metrics or errors the issue covers")
            return nil
        }
        let known = registry.keywords + ["response"] + ErrorTaxonomy.expectableNames
        var valid = true
        for (index, name) in names.enumerated() {
            let kind = String(name.prefix { $0 != "." })
            guard !known.contains(kind), !known.contains(ErrorTaxonomy.canonical(name)) else { continue }
            valid = false
            let at = node.sequence?[index] ?? node
            let hint = Suggestion.closest(to: name, in: known).map { "did you mean '\($0)'? " } ?? ""
            report(at, "knownIssue matching names '\(name)', which is no expectation kind, metric or error; \(hint)"
                + "use an expectation kind (\(registry.keywords.prefix(4).joined(separator: ", ")), …), response, or an error name")
        }
        return valid ? names.map(ErrorTaxonomy.canonical) : nil
    }

    /// The warning for a known issue without `matching`: it covers any failure, so a new one would hide.
    private func warnCoversAnyFailure(_ node: YAMLNode) {
        warnings.append(Diagnostic(node.location, "knownIssue has no 'matching', so it covers any failure of its case and "
            + "would hide a new, unrelated regression; name what it covers, e.g. matching: [equals] or matching: [refusal]"))
    }

    private func nonEmptyReason(_ reason: String, at node: YAMLNode) -> String? {
        let trimmed = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            report(node, "knownIssue reason is empty; say why the case is expected to fail")
            return nil
        }
        return trimmed
    }
}

/// An engine's per-case data decoded by the engine's own decoder (the kind travels in `userInfo`).
struct DecodedEngineData: Decodable {
    /// Where the kind being decoded travels.
    static let kindKey = CodingUserInfoKey(rawValue: "fmeval.engineCaseDataKind")!

    let value: any EngineCaseValue

    init(from decoder: Decoder) throws {
        guard let kind = decoder.userInfo[Self.kindKey] as? EngineCaseDataKind else {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath,
                                                                    debugDescription: "no engine reads this data"))
        }
        value = try kind.decode(decoder)
    }
}
