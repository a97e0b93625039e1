import Foundation
import FMCore
import FMEngines
import FMEvaluate

extension SuiteReader {
    /// The keys of a `reproduce:` block.
    static let reproduceKeys = ["seeds", "temperature", "sampling", "paraphrases"]
    /// The most seeds one `reproduce` may give (each is an attempt per wording).
    static let maximumSeeds = 1000

    /// `reproduce: {seeds, temperature, sampling, paraphrases}` (a case's or `defaults.reproduce`).
    func reproduce(_ node: YAMLNode, _ what: String) -> Reproduce? {
        guard let keys = mapping(node, what, allowed: SuiteReader.reproduceKeys) else { return nil }
        guard keys["seeds"] != nil || keys["paraphrases"] != nil else {
            report(node, "\(what) needs 'seeds' (N, or a list of seeds) and/or 'paraphrases' (more wordings of the prompt)")
            return nil
        }
        let before = diagnostics.count
        let seeds = keys["seeds"].map { self.seeds($0, what) } ?? []
        let temperature = number(keys["temperature"], "\(what).temperature")
        if let temperatureNode = keys["temperature"], let temperature, temperature < 0 {
            report(temperatureNode, "\(what).temperature must be ≥ 0, not \(GeneratedContent(temperature).jsonString)")
        }
        let sampling = keys["sampling"].flatMap { self.sampling($0, what) }
        for key in ["temperature", "sampling"] where keys["seeds"] == nil {
            if let keyNode = keys[key] {
                report(keyNode, "\(what).\(key) applies to seeded attempts, but there are no 'seeds'; add seeds: N (attempts without seeds are greedy)")
            }
        }
        var paraphrases: [String] = []
        if let paraphrasesNode = keys["paraphrases"] {
            if let items = paraphrasesNode.sequence, !items.isEmpty {
                paraphrases = items.compactMap { text($0, "each paraphrase of \(what)") }
            } else {
                report(paraphrasesNode, "\(what).paraphrases must be a non-empty list of prompts (more wordings of the case's prompt)")
            }
        }
        guard diagnostics.count == before else { return nil }
        return Reproduce(seeds: seeds, temperature: temperature, sampling: sampling, paraphrases: paraphrases)
    }

    /// `seeds: N` (seeds 1…N) or `seeds: [S, ...]` (distinct non-negative integers).
    private func seeds(_ node: YAMLNode, _ what: String) -> [UInt64] {
        let form = "seeds N (seeds 1…N) or a list of distinct seeds such as [3, 17, 42]"
        if case .int(let count)? = node.scalar?.value {
            guard count >= 1, count <= SuiteReader.maximumSeeds else {
                report(node, "\(what).seeds must be between 1 and \(SuiteReader.maximumSeeds), not \(count); write \(form)")
                return []
            }
            return (1...count).map { UInt64($0) }
        }
        guard let items = node.sequence, !items.isEmpty, items.count <= SuiteReader.maximumSeeds else {
            report(node, "\(what).seeds must be \(form), not \(node.sequence.map { "a list of \($0.count)" } ?? node.kindName)")
            return []
        }
        var seeds: [UInt64] = []
        for item in items {
            guard case .int(let value)? = item.scalar?.value, value >= 0 else {
                report(item, "each seed of \(what).seeds must be a non-negative integer, not \(item.scalar?.text ?? item.kindName)")
                continue
            }
            guard !seeds.contains(UInt64(value)) else {
                report(item, "seed \(value) appears twice in \(what).seeds; each seed gives one attempt, so list it once")
                continue
            }
            seeds.append(UInt64(value))
        }
        return seeds
    }

    /// `sampling: {randomTopK: K}` or `{randomProbabilityThreshold: P}`, without a seed (seeds come from `seeds`).
    private func sampling(_ node: YAMLNode, _ what: String) -> GenerationOptions.SamplingMode? {
        guard let content = content(node) else { return nil }
        do {
            let options = try GenerationOptions(content: GeneratedContent(properties: [("sampling", content)]))
            switch options.sampling {
            case .greedy?, nil:
                report(node, "\(what).sampling must be {randomTopK: K} or {randomProbabilityThreshold: P}; for greedy attempts leave out 'seeds'")
                return nil
            case .topK(_, let seed?)?, .nucleus(_, let seed?)?:
                report(node["seed"] ?? node, "\(what).sampling gives seed \(seed); the seeds come from \(what).seeds, so remove it")
                return nil
            case let mode?:
                return mode
            }
        } catch let error as JSONFormatError {
            let path = error.path.hasPrefix("/sampling") ? String(error.path.dropFirst("/sampling".count)) : error.path
            diagnostics.append(Diagnostic(SuiteReader.node(at: path, in: node).location, "\(what).sampling: \(error.message)"))
        } catch {
            report(node, "\(what).sampling: \(error)")
        }
        return nil
    }

    /// Checks a case's `reproduce` against the rest of it: not with `repeat`, paraphrases only for one prompt.
    func checkReproduce(_ keys: [String: YAMLNode], reproduce: Reproduce?, id: String) {
        guard let node = keys["reproduce"] else { return }
        if keys["repeat"] != nil {
            report(node, "case '\(id)' has both 'reproduce' and 'repeat'; reproduce sets the attempts (seeds × wordings), so remove repeat")
        }
        if let reproduce, !reproduce.paraphrases.isEmpty, keys["turns"] != nil {
            report(node["paraphrases"] ?? node, "case '\(id)' has paraphrases but 'turns'; paraphrases reword a single 'prompt'")
        }
    }

    /// `defaults.reproduce.paraphrases` reword a single prompt: a multi-turn case cannot take them.
    func checkDefaultParaphrases(_ item: SuiteCase, suite: Suite) {
        guard let reproduce = suite.defaults.reproduce, !reproduce.paraphrases.isEmpty,
              item.turns != nil && item.reproduce == nil && item.repeatCount == nil else { return }
        diagnostics.append(Diagnostic(item.location, "case '\(item.id)' has 'turns', but defaults.reproduce gives "
            + "paraphrases, which reword a single 'prompt'; give the case its own reproduce (or repeat)"))
    }

    /// `source:`, `reproducedWith:` and `summary:`: the bug report a suite reproduces. A suite under
    /// `suites/forum/` must give its source.
    func origin(_ keys: [String: YAMLNode], root: YAMLNode, file: String) -> SuiteOrigin? {
        var origin = SuiteOrigin()
        if let sourceNode = keys["source"] { (origin.url, origin.title) = source(sourceNode) }
        if let node = keys["reproducedWith"], let word = string(node, "reproducedWith") {
            if let value = ReproducedWith(rawValue: word) {
                origin.reproducedWith = value
            } else {
                let names = ReproducedWith.allCases.map(\.rawValue)
                let hint = Suggestion.closest(to: word, in: names).map { "did you mean '\($0)'? " } ?? ""
                report(node, "unknown reproducedWith '\(word)'; \(hint)use model (the real model on the chosen engine), scripted (the scripted engine standing in for Apple's model) or recorded (a transcript recorded on a device)")
            }
        }
        origin.summary = keys["summary"].flatMap { text($0, "summary") }
        if keys["source"] == nil, SuiteReader.isForumLibrary(file) {
            report(root, "a suite under suites/forum/ needs a 'source' (source: {url: https://…, title: the report's title}) linking the bug report it reproduces")
        }
        return origin == SuiteOrigin() ? nil : origin
    }

    /// `source: URL`, `source: TITLE` or `source: {url, title}`.
    private func source(_ node: YAMLNode) -> (url: String?, title: String?) {
        if node.scalar != nil, !node.isNull {
            guard let text = string(node, "source") else { return (nil, nil) }
            return text.hasPrefix("http://") || text.hasPrefix("https://") ? (sourceURL(text, at: node), nil) : (nil, text)
        }
        guard let keys = mapping(node, "source", allowed: ["url", "title"]) else { return (nil, nil) }
        guard keys["url"] != nil || keys["title"] != nil else {
            report(node, "source needs a 'url' (an http(s) link to the report) and/or a 'title' (the report's short title)")
            return (nil, nil)
        }
        let url = keys["url"].flatMap { urlNode in string(urlNode, "source url").flatMap { sourceURL($0, at: urlNode) } }
        return (url, keys["title"].flatMap { string($0, "source title") })
    }

    private func sourceURL(_ text: String, at node: YAMLNode) -> String? {
        guard let problem = KnownIssue.urlProblem(text) else { return text }
        report(node, problem.replacingOccurrences(of: "knownIssue url", with: "source url"))
        return nil
    }

    /// Whether `file` lies in a `suites/forum/` folder (the forum-bug library).
    static func isForumLibrary(_ file: String) -> Bool {
        let path = URL(fileURLWithPath: file).standardizedFileURL.path
        return path.contains("/suites/forum/")
    }

    /// `reproducedWith` against the suite: recorded means transcripts, scripted means a scripted engine.
    func checkReproducedWith(_ suite: Suite, keys: [String: YAMLNode]) {
        guard let with = suite.origin?.reproducedWith, let node = keys["reproducedWith"] else { return }
        let engines = [suite.engine.name] + suite.variants.compactMap { $0.engine?.name }
        switch with {
        case .recorded where keys["transcripts"] == nil:
            report(node, "reproducedWith: recorded, but the suite has no 'transcripts' (the recorded sessions it scores)")
        case .scripted where !engines.contains(EngineRegistry.scriptEngine):
            report(node, "reproducedWith: scripted, but no variant runs on the \(EngineRegistry.scriptEngine) engine; "
                + "set engine: \(EngineRegistry.scriptEngine)")
        case .model where keys["transcripts"] != nil:
            report(node, "reproducedWith: model, but the suite scores recorded transcripts; write reproducedWith: recorded")
        default: break
        }
    }
}
