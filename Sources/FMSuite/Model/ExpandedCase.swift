import Foundation
import FMCore
import FMEvaluate

/// One case under one variant with every default applied: exactly what the runner executes.
///
/// `fmeval validate --json` prints these, so other tools can see what will run.
public struct ExpandedCase: Encodable, Sendable {
    /// The suite's name.
    public var suite: String
    /// The variant's name, nil when the suite has no variants.
    public var variant: String?
    /// The case id within the suite.
    public var caseID: String
    /// Tags (defaults first, then the case's).
    public var tags: [String]
    /// Instructions (entry 0 of the transcript), if any.
    public var instructions: String?
    /// The single-turn prompt (template applied); nil for multi-turn cases.
    public var prompt: String?
    /// The multi-turn prompts (template applied to each); nil for single-turn cases.
    public var turns: [String]?
    /// Edits of the transcript's history made before a turn, keyed by 0-based turn index.
    public var transcriptEdits: [Int: TranscriptEdit] = [:]
    /// The output schema to generate, nil for free text.
    public var generating: GenerationSchema?
    /// Tools the model may call.
    public var tools: [SuiteTool]
    /// Generation options (greedy unless set).
    public var options: GenerationOptions
    /// fmeval run settings.
    public var settings: RunSettings
    /// Attempts to run (at least 1; a `reproduce` case's trials).
    public var repeatCount: Int
    /// The case's varied attempts (seeds and paraphrases, templates applied); nil for plain repeats.
    public var reproduce: Reproduce? = nil
    /// The suite's bug report and what reproduces it; not part of the case's definition.
    public var origin: SuiteOrigin? = nil
    /// The pass rule over attempts; nil means every attempt must pass.
    public var gate: CaseGate?
    /// Checks on each attempt (defaults first).
    public var expectations: [Expectation]
    /// The engine and its options (the variant's over the suite's).
    public var engineSpec: EngineSpec
    /// The engine name.
    public var engine: String { engineSpec.name }
    /// The model, if set.
    public var model: String?
    /// The data the case carries for engines that declare it (the scripted engine's `script:`), by key.
    public var engineData = EngineCaseData()
    /// The known issue the case expects (the case's, else its variant's, else the suite's).
    public var knownIssue: KnownIssue?
    /// Where the case was written.
    public var location: SourceLocation
    /// The environment, secrets and tool output limit of command tools and evaluators.
    public var commands = CommandPolicy()
    /// The recorded transcript the case scores instead of running a session (`transcripts:`); nil for live cases.
    public var recorded: RecordedTranscript? = nil
    /// Images attached to the first prompt, after its text (`images:`).
    public var attachments: [Transcript.AttachmentSegment] = []
    /// What a session reused for the `contamination` option answers before the case's own turns: the
    /// first prompts of the cases before it in its suite and variant (empty without the option).
    public var priorPrompts: [PriorPrompt] = []

    /// The wording and seed of attempt `index`; nil for a case without `reproduce`.
    public func trial(_ index: Int) -> Trial? { reproduce?.trial(index) }

    /// The prompt of attempt `index`: the paraphrase its trial names, else the case's prompt.
    public func prompt(ofAttempt index: Int) -> String? {
        guard let paraphrase = trial(index)?.paraphrase, paraphrase > 0, let reproduce else { return prompt }
        return reproduce.paraphrases[paraphrase - 1]
    }

    /// The generation options of attempt `index`: seeded sampling for a seeded trial, else the case's.
    public func options(ofAttempt index: Int) -> GenerationOptions {
        guard let reproduce, let trial = trial(index) else { return options }
        return reproduce.options(options, for: trial)
    }

    /// `suite/case` or `suite/case@variant`: unique across a run.
    public var id: String { "\(suite)/\(caseID)" + (variant.map { "@\($0)" } ?? "") }

    private enum CodingKeys: String, CodingKey {
        case id, suite, variant, caseID = "case", tags, instructions, prompt, turns, transcriptEdits, generating, tools, options, settings
        case repeatCount = "repeat", gate, expectations, engine, engineOptions, model, knownIssue, location, commands, images
        case recorded, reproduce, origin, priorPrompts
    }

    /// Encodes every field; options in their GenerationOptions JSON form.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(suite, forKey: .suite)
        try container.encodeIfPresent(variant, forKey: .variant)
        try container.encode(caseID, forKey: .caseID)
        try container.encode(tags, forKey: .tags)
        try container.encodeIfPresent(instructions, forKey: .instructions)
        try container.encodeIfPresent(prompt, forKey: .prompt)
        try container.encodeIfPresent(turns, forKey: .turns)
        if !transcriptEdits.isEmpty {
            let byTurn = Dictionary(uniqueKeysWithValues: transcriptEdits.map { ("\($0.key + 1)", $0.value) })
            try container.encode(byTurn, forKey: .transcriptEdits)
        }
        try container.encodeIfPresent(generating, forKey: .generating)
        try container.encode(tools, forKey: .tools)
        try container.encode(options.content, forKey: .options)
        try container.encode(settings, forKey: .settings)
        try container.encode(repeatCount, forKey: .repeatCount)
        try container.encodeIfPresent(gate, forKey: .gate)
        try container.encode(expectations, forKey: .expectations)
        try container.encode(engine, forKey: .engine)
        if !engineSpec.options.isEmpty {
            let sorted = engineSpec.options.keys.sorted().map { ($0, engineSpec.options[$0]!) }
            try container.encode(GeneratedContent(properties: sorted), forKey: .engineOptions)
        }
        try container.encodeIfPresent(model, forKey: .model)
        // Each under its own key (`script`), as when the script was a property: definition hashes stay.
        try engineData.encodeEntries(to: encoder)
        try container.encodeIfPresent(knownIssue, forKey: .knownIssue)
        try container.encode(location.description, forKey: .location)
        if commands != CommandPolicy() { try container.encode(commands, forKey: .commands) }
        try container.encodeIfPresent(recorded, forKey: .recorded)
        try container.encodeIfPresent(reproduce, forKey: .reproduce)
        try container.encodeIfPresent(origin, forKey: .origin)
        if !priorPrompts.isEmpty { try container.encode(priorPrompts, forKey: .priorPrompts) }
        if !attachments.isEmpty {
            try container.encode(GeneratedContent(attachments.map { segment -> GeneratedContent in
                let image = segment.content.image
                // By content, not path: moving the suite leaves the case (and its definition hash) as it was.
                return GeneratedContent(properties: [("label", segment.label.map { GeneratedContent($0) } ?? .null),
                                                     ("contentType", GeneratedContent(image?.contentType ?? "")),
                                                     ("bytes", GeneratedContent(image?.byteCount ?? 0)), ("sha256", GeneratedContent(image?.sha256 ?? ""))])
            }), forKey: .images)
        }
    }
}

extension Suite {
    /// Every case × variant with defaults, templates and overrides applied, in file order.
    public func expanded() -> [ExpandedCase] {
        var result = expanded(cases)
        var window = PriorPromptWindow()
        let pending = window.take(&result)
        window.complete(&result, pending)
        return result
    }

    /// `cases` × variants with defaults, templates and overrides applied, without prior prompts
    /// (`PriorPromptWindow` gives those).
    func expanded(_ cases: [SuiteCase]) -> [ExpandedCase] {
        let runs: [Variant?] = variants.isEmpty ? [nil] : variants.map { $0 }
        var result: [ExpandedCase] = []
        result.reserveCapacity(cases.count * runs.count)
        // Most cases set no options of their own: their variant's layers are resolved once for all of them.
        let layers = runs.map { Layer(suite: self, variant: $0) }
        for item in cases {
            for (variant, layer) in zip(runs, layers) {
                if let only = item.variants, let variant, !only.contains(variant.name) { continue }
                result.append(expand(item, variant: variant, layer: layer))
            }
        }
        return result
    }

    /// The suite's options under one variant, and those resolved with the command line's overrides.
    private struct Layer {
        let options: OptionsPatch
        let resolved: OptionsPatch
        let generation: GenerationOptions
        let settings: RunSettings

        init(suite: Suite, variant: Variant?) {
            options = variant.map { suite.options.overridden(by: $0.options) } ?? suite.options
            resolved = options.overridden(by: suite.overrides)
            generation = resolved.resolvedOptions
            settings = resolved.resolvedSettings
        }
    }

    private func expand(_ item: SuiteCase, variant: Variant?, layer: Layer) -> ExpandedCase {
        let own = item.options == OptionsPatch() ? nil
            : layer.options.overridden(by: item.options).overridden(by: overrides)
        let template = variant?.promptTemplate
        let apply = { (text: String) in template.map { Suite.fill($0, prompt: text, case: item) } ?? text }
        var tags = defaults.tags
        for tag in item.tags where !tags.contains(tag) { tags.append(tag) }
        var expanded = ExpandedCase(
            suite: name, variant: variant?.name, caseID: item.id, tags: tags,
            instructions: item.instructions ?? variant?.instructions ?? instructions,
            prompt: item.prompt.map(apply), turns: item.turns?.map(apply),
            generating: item.generating ?? generating, tools: tools,
            options: own?.resolvedOptions ?? layer.generation, settings: own?.resolvedSettings ?? layer.settings,
            repeatCount: item.repeatCount ?? defaults.repeatCount ?? 1, gate: item.gate ?? defaults.gate,
            expectations: defaults.expect + item.expect,
            engineSpec: engine.overridden(by: variant?.engine), model: variant?.model ?? model,
            engineData: item.engineData, knownIssue: knownIssue(of: item, under: variant), location: item.location,
            commands: commands, attachments: item.images)
        expanded.transcriptEdits = item.transcriptEdits
        expanded.origin = origin
        if var reproduce = item.reproduce ?? (item.repeatCount == nil ? defaults.reproduce : nil) {
            reproduce.paraphrases = reproduce.paraphrases.map(apply)
            expanded.reproduce = reproduce
            expanded.repeatCount = reproduce.trials
        }
        return item.recorded.map(expanded.recording) ?? expanded
    }

    /// The known issue a case expects under `variant`: the case's (where its `variants` include this
    /// one), else the variant's, else the suite's.
    func knownIssue(of item: SuiteCase, under variant: Variant?) -> KnownIssue? {
        let scoped = item.knownIssueVariants.map { names in variant.map { names.contains($0.name) } ?? false } ?? true
        return (scoped ? item.knownIssue : nil) ?? variant?.knownIssue ?? knownIssue
    }

    /// Substitutes `{{prompt}}`, `{{id}}` and the case's vars in a template (`{{ name }}` spacing allowed).
    static func fill(_ template: String, prompt: String, case item: SuiteCase) -> String {
        var values = item.vars
        values["prompt"] = prompt
        values["id"] = item.id
        var text = ""
        var rest = template[...]
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            text += rest[..<open.lowerBound]
            let name = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            text += values[name] ?? String(rest[open.lowerBound..<close.upperBound])
            rest = rest[close.upperBound...]
        }
        return text + rest
    }

    /// The `{{name}}` placeholders in a template.
    static func placeholders(in template: String) -> [String] {
        var names: [String] = []
        var rest = template[...]
        while let open = rest.range(of: "{{") {
            rest = rest[open.upperBound...]
            guard let close = rest.range(of: "}}") else { break }
            names.append(String(rest[..<close.lowerBound]).trimmingCharacters(in: .whitespaces))
            rest = rest[close.upperBound...]
        }
        return names
    }
}

/// A prompt of another case that a reused session answers first (the `contamination` option).
public struct PriorPrompt: Encodable, Hashable, Sendable {
    /// The case it comes from (`suite/case@variant`).
    public var caseID: String
    /// Its first prompt (the first turn of a multi-turn case), as that case words it.
    public var prompt: String

    /// A prior prompt.
    public init(caseID: String, prompt: String) {
        self.caseID = caseID
        self.prompt = prompt
    }
}
