import FMCore
import FMEngines
import FMEvaluate

extension SuiteReader {
    static let suiteKeys = ["suite", "description", "engine", "model", "options", "device", "instructions", "tools",
                            "generating",
                            "dataset", "variants", "defaults", "cases", "knownIssue",
                            "environment", "secrets", "toolOutputLimit", "transcripts", "source", "reproducedWith", "summary",
                            "allowLinksOutsideSuite"]
    /// A case's keys: its own, then the keys of the engines' per-case data (`EngineRegistry.caseDataKinds`).
    static let caseKeys = ["id", "prompt", "turns", "instructions", "generating", "options", "device", "tags", "repeat",
                           "gate",
                           "expect", "vars", "variants", "knownIssue", "images", "reproduce"]
        + EngineRegistry.caseDataKinds.map(\.key)

    /// The whole suite; nil when the top level is unusable. Problems accumulate in `diagnostics`.
    func suite(_ root: YAMLNode, file: String) -> Suite? {
        guard root.mapping != nil else {
            report(root, root.isNull ? "the suite file is empty; start with 'suite: NAME' and 'cases:'" : "a suite must be a mapping with 'suite:' and 'cases:', not \(root.kindName)")
            return nil
        }
        guard let keys = mapping(root, "the suite", allowed: SuiteReader.suiteKeys) else { return nil }
        allowsLinksOutside = bool(keys["allowLinksOutsideSuite"], "allowLinksOutsideSuite") ?? false
        var name = ""
        if let nameNode = keys["suite"] { name = string(nameNode, "suite") ?? "" } else { report(root, "missing required key 'suite' (the suite's name)") }
        let engine = keys["engine"].flatMap { engineSpec($0) } ?? EngineSpec(name: EngineRegistry.defaultEngine)
        var suite = Suite(
            name: name, description: keys["description"].flatMap { string($0, "description") }, file: file,
            engine: engine, model: keys["model"].flatMap { modelReference($0) },
            options: levelOptions(keys, "options"),
            instructions: keys["instructions"].flatMap { text($0, "instructions") },
            generating: keys["generating"].flatMap { generating($0) },
            tools: [], variants: [], defaults: CaseDefaults(), cases: [],
            knownIssue: keys["knownIssue"].flatMap { knownIssue($0) })
        suite.commands = commandPolicy(keys)
        suite.origin = origin(keys, root: root, file: file)
        suite.overrides = overrides
        if let toolsNode = keys["tools"] {
            if let items = toolsNode.sequence { suite.tools = items.compactMap(tool) } else { report(toolsNode, "tools must be a list of tools, not \(toolsNode.kindName)") }
        }
        if let variantsNode = keys["variants"] { suite.variants = variants(variantsNode) }
        if let defaultsNode = keys["defaults"] { suite.defaults = defaults(defaultsNode) }
        if let transcriptsNode = keys["transcripts"] {
            suite.engine = EngineSpec(name: RecordedTranscript.engineName, location: transcriptsNode.location)
            suite.cases = recordedCases(transcriptsNode, keys: keys)
            let recorded = suite.cases.compactMap(\.recorded)
            finishCases(&suite, root: root)
            crossCheck(suite, root: root, recorded: recorded)
            checkReproducedWith(suite, keys: keys)
            return suite
        }
        let repeatDefault = suite.defaults.reproduce?.trials ?? suite.defaults.repeatCount ?? 1
        if let casesNode = keys["cases"] {
            let isList = forEachCase(in: casesNode) { node in
                if let item = suiteCase(node, repeatDefault: repeatDefault) { take(item, into: &suite, root: root) }
            }
            if !isList { report(casesNode, "cases must be a list of cases, not \(casesNode.kindName)") }
        }
        if let datasetNode = keys["dataset"] {
            let paths = stringList(datasetNode, "dataset") ?? []
            for path in paths {
                dataset(path, at: datasetNode, repeatDefault: repeatDefault, into: &suite, root: root)
            }
        }
        if keys["cases"] == nil && keys["dataset"] == nil {
            report(root, "a suite needs 'cases' or a 'dataset' (or 'transcripts', recorded sessions to score)")
        }
        finishCases(&suite, root: root)
        crossCheck(suite, root: root, recorded: [])
        checkReproducedWith(suite, keys: keys)
        return suite
    }

    /// `engine: NAME` or `engine: {name: NAME, OPTION: value, ...}`. The name and options are checked
    /// against the engine registry later (by the run and `fmeval validate`), where it is visible.
    func engineSpec(_ node: YAMLNode) -> EngineSpec? {
        guard let entries = node.mapping else {
            guard node.scalar != nil else {
                report(node, "engine must be a name or a mapping {name: NAME, OPTION: value, ...}, not \(node.kindName)")
                return nil
            }
            return string(node, "engine").map { EngineSpec(name: $0, location: node.location) }
        }
        var spec = EngineSpec(name: "", location: node.location)
        for entry in entries {
            if entry.name == "name" {
                guard let name = string(entry.value, "engine name") else { return nil }
                spec.name = name
                continue
            }
            let isPath: Bool
            if entry.name == "model", case .string? = entry.value.scalar?.value { isPath = true } else { isPath = false }
            guard let value = isPath ? modelReference(entry.value).map({ GeneratedContent($0) }) : content(entry.value) else { continue }
            spec.options[entry.name] = value
            spec.optionLocations[entry.name] = entry.key.location
        }
        guard !spec.name.isEmpty else {
            report(node, "an engine mapping needs a 'name' (engine: {name: NAME, OPTION: value, ...})")
            return nil
        }
        return spec
    }

    /// `model:` — a name the engine looks up, or (when it contains '/') a file path relative to the suite.
    func modelReference(_ node: YAMLNode) -> String? {
        guard let reference = string(node, "model") else { return nil }
        guard reference.contains("/") else { return reference }
        return readableFile(reference, at: node, what: "model").map { $0.path }
    }

    func variants(_ node: YAMLNode) -> [Variant] {
        guard let items = node.sequence else {
            report(node, "variants must be a list of {name, instructions?, prompt?, options?, device?, engine?, model?, "
                + "knownIssue?}")
            return []
        }
        var found: [Variant] = []
        for item in items {
            let allowed = ["name", "instructions", "prompt", "options", "device", "engine", "model", "knownIssue"]
            guard let keys = mapping(item, "a variant", allowed: allowed) else { continue }
            guard let nameNode = keys["name"], let name = string(nameNode, "variant name") else {
                if keys["name"] == nil { report(item, "a variant needs a 'name'") }
                continue
            }
            if let first = found.first(where: { $0.name == name }) {
                report(nameNode, "duplicate variant '\(name)' (first defined at \(first.location.line):\(first.location.column))")
                continue
            }
            found.append(Variant(name: name, instructions: keys["instructions"].flatMap { text($0, "variant instructions") },
                                 promptTemplate: keys["prompt"].flatMap { text($0, "variant prompt template") },
                                 options: levelOptions(keys, "variant options"),
                                 engine: keys["engine"].flatMap { engineSpec($0) }, model: keys["model"].flatMap { modelReference($0) },
                                 knownIssue: keys["knownIssue"].flatMap { knownIssue($0) }, location: item.location))
        }
        return found
    }

    func defaults(_ node: YAMLNode) -> CaseDefaults {
        var result = CaseDefaults()
        guard let keys = mapping(node, "defaults", allowed: ["expect", "repeat", "gate", "tags", "reproduce"]) else { return result }
        result.expect = keys["expect"].map { expectations($0, "defaults.expect") } ?? []
        result.repeatCount = int(keys["repeat"], "defaults.repeat", minimum: 1, maximum: RunLimits.maximumRepeat)
        result.reproduce = keys["reproduce"].flatMap { reproduce($0, "defaults.reproduce") }
        if let reproduceNode = keys["reproduce"], keys["repeat"] != nil {
            report(reproduceNode, "defaults has both 'reproduce' and 'repeat'; reproduce sets the attempts (seeds × wordings), so remove repeat")
        }
        result.gate = keys["gate"].flatMap { gate($0, repeats: result.reproduce?.trials ?? result.repeatCount ?? 1) }
        result.tags = stringList(keys["tags"], "defaults.tags") ?? []
        return result
    }

    /// One case (inline or a dataset line).
    func suiteCase(_ node: YAMLNode, repeatDefault: Int) -> SuiteCase? {
        guard let keys = mapping(node, "a case", allowed: SuiteReader.caseKeys) else { return nil }
        let before = diagnostics.count
        var id: String? = nil
        if let idNode = keys["id"] { id = text(idNode, "case id") } else { report(node, "a case needs an 'id'") }
        if id?.isEmpty == true, let idNode = keys["id"] {
            report(idNode, "a case id cannot be empty; give the case a name that is unique in the suite")
        }
        let prompt = keys["prompt"].flatMap { text($0, "prompt") }
        var turns: [String]? = nil
        var transcriptEdits: [Int: TranscriptEdit] = [:]
        if let turnsNode = keys["turns"], let read = self.turns(turnsNode) { (turns, transcriptEdits) = (read.prompts, read.edits) }
        switch (keys["prompt"], keys["turns"]) {
        case (nil, nil): report(node, "case '\(id ?? "?")' needs 'prompt' (one turn) or 'turns' (a conversation)")
        case (_?, _?): report(node, "case '\(id ?? "?")' has both 'prompt' and 'turns'; keep one")
        default: break
        }
        let repeatCount = int(keys["repeat"], "repeat", minimum: 1, maximum: RunLimits.maximumRepeat)
        let reproduce = keys["reproduce"].flatMap { self.reproduce($0, "reproduce") }
        checkReproduce(keys, reproduce: reproduce, id: id ?? "?")
        var vars: [String: String] = [:]
        if let varsNode = keys["vars"] {
            if let entries = varsNode.mapping {
                for entry in entries { vars[entry.name] = text(entry.value, "vars.\(entry.name)") }
            } else { report(varsNode, "vars must map names to text") }
        }
        let known = keys["knownIssue"].flatMap { scopedKnownIssue($0) }
        var item = SuiteCase(
            id: id ?? "", prompt: prompt, turns: turns,
            instructions: keys["instructions"].flatMap { text($0, "instructions") },
            generating: keys["generating"].flatMap { generating($0) },
            options: levelOptions(keys, "options"),
            tags: stringList(keys["tags"], "tags") ?? [],
            repeatCount: repeatCount,
            gate: keys["gate"].flatMap { gate($0, repeats: reproduce?.trials ?? repeatCount ?? repeatDefault) },
            expect: keys["expect"].map { expectations($0, "expect") } ?? [],
            vars: vars, variants: stringList(keys["variants"], "variants").map { $0 },
            knownIssue: known?.issue, knownIssueVariants: known?.variants,
            knownIssueNode: keys["knownIssue"], images: keys["images"].map { images($0) } ?? [], location: node.location)
        item.transcriptEdits = transcriptEdits
        item.generatingNode = keys["generating"]
        item.temperatureLocation = keys["options"]?["temperature"]?.location
        for kind in EngineRegistry.caseDataKinds {
            guard let dataNode = keys[kind.key] else { continue }
            item.engineDataNodes[kind.key] = dataNode
            if let value = engineData(kind, dataNode) { item.engineData.set(value, forKey: kind.key) }
        }
        item.reproduce = reproduce
        // Keep a case with problems when it has an id, so duplicate ids and references are still checked.
        return diagnostics.count == before || id != nil ? item : nil
    }

    /// Cases from a JSONL file, one JSON object per line, each taken into `suite` as it is read; a bad line is
    /// reported and the others kept.
    func dataset(_ path: String, at node: YAMLNode, repeatDefault: Int, into suite: inout Suite, root: YAMLNode) {
        guard let url = readableFile(path, at: node, what: "dataset") else { return }
        guard FilePaths.pathExtension(of: url.path).lowercased() == "jsonl" else {
            report(node, "dataset '\(path)' must be a .jsonl file (one JSON case per line)")
            return
        }
        let shown = displayPath(url)
        do {
            try LineReader.forEachLine(of: url) { number, line in
                if line.utf8.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }) {
                    return
                }
                do {
                    let caseNode = try JSONNodeReader.parse(line, file: shown, lineOffset: number - 1)
                    if let item = suiteCase(caseNode, repeatDefault: repeatDefault) { take(item, into: &suite, root: root) }
                } catch let diagnostic as Diagnostic {
                    diagnostics.append(diagnostic)
                } catch {
                    diagnostics.append(Diagnostic(SourceLocation(file: shown, line: number, column: 1), "\(error)"))
                }
            }
        } catch LineReader.Problem.notUTF8(let line) {
            diagnostics.append(Diagnostic(SourceLocation(file: shown, line: line, column: 1),
                                          "dataset line \(line) is not UTF-8 text; save the file as UTF-8"))
        } catch {
            report(node, "dataset file '\(path)' cannot be read: \(error)")
        }
    }

    /// Checks across the suite, made once its cases are checked: tool names defined once, the tools that
    /// `toolCalls` expectations name, the arguments their matchers check, and the schemas the device refuses.
    func crossCheck(_ suite: Suite, root: YAMLNode, recorded: [RecordedTranscript]) {
        var toolNames: [String: Int] = [:]
        for name in Self.toolNames(root) { toolNames[name, default: 0] += 1 }
        for (name, count) in toolNames where count > 1 {
            report(root["tools"] ?? root, "tool '\(name)' is defined \(count) times; tool names must be unique")
        }
        for name in recorded.flatMap(\.toolNames) { toolNames[name] = 1 }
        // An invalid transcript (scored as an error with --keep-going) may define tools no other one does.
        for reference in toolReferences
        where toolNames[reference.name] == nil && !recorded.contains(where: { $0.problem != nil }) {
            let hint = Suggestion.closest(to: reference.name, in: Array(toolNames.keys))
                .map { "did you mean '\($0)'? " } ?? ""
            let fix = recorded.isEmpty ? "the suite does not define; \(hint)add it under 'tools:'"
                : "no transcript of the suite defines; \(hint)check the name"
            report(reference.node, "toolCalls names tool '\(reference.name)', which \(fix)")
        }
        checkArgumentReferences(suite.tools)
        reportDeviceRefusals(suite)
    }
}
