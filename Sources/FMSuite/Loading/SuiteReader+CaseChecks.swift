import FMCore
import FMEngines
import FMEvaluate

extension SuiteReader {
    /// Checks each of `cases` (read in file order, a batch at a time when the suite streams) and `expanded`,
    /// their expansion: unique ids, the variants and template vars they name, a schema for constraint checks,
    /// engine data, known-issue variants, paraphrases, device profiles and temperatures (contamination is
    /// checked once prior prompts are known, `finishCases`).
    func checkCases(_ cases: [SuiteCase], expanded: [ExpandedCase], of suite: Suite, root: YAMLNode) {
        let variantNames = suite.variants.map(\.name)
        let templates = suite.variants.compactMap { variant in
            variant.promptTemplate.map { (variant.name, Suite.placeholders(in: $0)) }
        }
        let toolNames = Set(Self.toolNames(root) + suite.cases.compactMap(\.recorded).flatMap(\.toolNames))
        let schemaUnread = root["generating"].map(isUnreadable) ?? false
        let engines = Set(suite.variants.isEmpty ? [suite.engine.name]
            : suite.variants.map { ($0.engine ?? suite.engine).name }).sorted()
        for item in cases {
            checkUniqueID(item)
            for name in item.variants ?? [] where !variantNames.contains(name) {
                let hint = Suggestion.closest(to: name, in: variantNames).map { "did you mean '\($0)'? " } ?? ""
                let defined = variantNames.isEmpty ? "none" : variantNames.joined(separator: ", ")
                diagnostics.append(Diagnostic(item.location, "case '\(item.id)' names variant '\(name)', which the "
                    + "suite does not define; \(hint)defined: \(defined)"))
            }
            let written = { (name: String) in item.vars[name] != nil || name == "prompt" || name == "id" }
            for (variant, placeholders) in templates {
                for placeholder in placeholders where !written(placeholder) {
                    diagnostics.append(Diagnostic(item.location, "variant '\(variant)' prompt uses {{\(placeholder)}}, "
                        + "but case '\(item.id)' has no vars.\(placeholder)"))
                }
            }
            let unreadSchema = schemaUnread || (item.generatingNode.map(isUnreadable) ?? false)
            if item.recorded?.problem == nil, !unreadSchema,
               (item.generating ?? item.recorded?.lastPrompt?.responseFormat?.schema ?? suite.generating) == nil,
               (suite.defaults.expect + item.expect).contains(where: \.needsRequestedSchema) {
                let cause = item.recorded == nil ? "it generates free text; add 'generating:' or"
                    : "its transcript's last prompt has no responseFormat;"
                diagnostics.append(Diagnostic(item.location, "case '\(item.id)' checks constraints against the "
                    + "requested schema, but \(cause) give the constraints a 'schema'"))
            }
            checkEngineData(item, engines: engines, toolNames: toolNames)
            checkKnownIssueVariants(item, suite: suite)
            checkDefaultParaphrases(item, suite: suite)
            greedyTemperatureWarnings(item, suite: suite, root: root)
        }
        checkDeviceProfiles(expanded)
        runsOnDevice = runsOnDevice || expanded.contains { $0.settings.guideEnforcement == .device }
    }

    /// The names under `tools:`, as written (a name written twice is there twice).
    static func toolNames(_ root: YAMLNode) -> [String] {
        (root["tools"]?.sequence ?? []).compactMap { node in
            if case .string(let name)? = node["name"]?.scalar?.value { return name }
            return nil
        }
    }

    /// A case id the suite already has is an error naming the first place.
    private func checkUniqueID(_ item: SuiteCase) {
        guard !item.id.isEmpty else { return }
        if let first = caseIDs[item.id] {
            diagnostics.append(Diagnostic(item.location, "duplicate case id '\(item.id)' (first at \(first)); case ids "
                + "must be unique in a suite"))
        } else {
            caseIDs[item.id] = item.location
        }
    }

    /// A case's engine data in its case (its engine's check), and the data each of `engines` (the names its
    /// suite's variants run on) needs.
    func checkEngineData(_ item: SuiteCase, engines: [String], toolNames: Set<String>) {
        let facts = EngineCaseFacts(caseID: item.id, turnCount: item.turns?.count ?? 1, toolNames: toolNames)
        for key in item.engineData.keys {
            guard let kind = EngineRegistry.caseDataEngine(forKey: key)?.caseData,
                  let value = item.engineData[key] else { continue }
            let location = item.engineDataNodes[key]?.location ?? item.location
            diagnostics += kind.check(value, facts).map { Diagnostic(location, $0) }
        }
        for name in engines {
            guard let kind = EngineRegistry.descriptor(named: name)?.caseData,
                  item.engineDataNodes[kind.key] == nil else { continue }
            diagnostics.append(Diagnostic(item.location, "case '\(item.id)' runs on the \(name) engine but has no "
                + "'\(kind.key):' (\(kind.summary))"))
        }
    }

    /// A case's `knownIssue.variants` must name variants the suite defines and the case runs under.
    func checkKnownIssueVariants(_ item: SuiteCase, suite: Suite) {
        guard let names = item.knownIssueVariants else { return }
        let location = item.knownIssueNode?["variants"]?.location ?? item.location
        let defined = suite.variants.map(\.name)
        for name in names where !defined.contains(name) {
            let hint = Suggestion.closest(to: name, in: defined).map { "did you mean '\($0)'? " } ?? ""
            let list = defined.isEmpty ? "none" : defined.joined(separator: ", ")
            diagnostics.append(Diagnostic(location, "case '\(item.id)' knownIssue names variant '\(name)', which the "
                + "suite does not define; \(hint)defined: \(list)"))
        }
        if let only = item.variants {
            for name in names where defined.contains(name) && !only.contains(name) {
                diagnostics.append(Diagnostic(location, "case '\(item.id)' knownIssue names variant '\(name)', but the "
                    + "case only runs under \(only.joined(separator: ", "))"))
            }
        }
    }

    /// A `contamination` case needs other cases to answer first, a model to answer them (not a case's own
    /// engine data, such as the scripted engine's script) and no images (they belong to its first prompt).
    func checkContamination(_ expanded: [ExpandedCase]) {
        for item in expanded where (item.settings.contamination ?? 0) > 0 && item.recorded == nil {
            let count = item.settings.contamination ?? 0
            var problems: [String] = []
            if item.priorPrompts.isEmpty {
                problems.append("is the only case of its suite\(item.variant.map { " under variant \($0)" } ?? ""), so "
                    + "contamination: \(count) has no earlier case to answer first; add cases or drop the option")
            }
            if !item.engineData.isEmpty {
                problems.append("carries \(item.engineData.keys.joined(separator: ", ")) for its engine, which plays "
                    + "only the case's own turns; contamination needs a model that answers the earlier cases' prompts")
            }
            if !item.attachments.isEmpty {
                problems.append("attaches images to its first prompt, which a reused session cannot keep first; "
                    + "drop contamination or the images")
            }
            for problem in problems { diagnostics.append(Diagnostic(item.location, "case '\(item.id)' \(problem)")) }
        }
    }

    /// Each case (under each variant) asks only for what its device profile has, if it names one.
    func checkDeviceProfiles(_ expanded: [ExpandedCase]) {
        for item in expanded where item.recorded == nil {
            guard let profile = item.settings.device.flatMap(DeviceProfile.named) else { continue }
            for problem in profile.problems(of: item) {
                diagnostics.append(Diagnostic(item.location, "case '\(item.id)' \(problem)"))
            }
        }
    }
}
