import FMCore
import FMEngines
import FMEvaluate
import FMSuite

/// The engine configuration of a case, with where its name and each option came from.
public struct ResolvedEngine: Sendable {
    /// What the registry builds.
    public var configuration: EngineConfiguration
    /// Where the name came from: `--engine`, or the suite's `file:line:col`.
    public var nameOrigin: String
    /// Where each option came from: a flag (`--engine-option KEY`, `--model`, `--cassette`) or `file:line:col`.
    public var optionOrigins: [String: String]
}

/// How a case's engine is put together, and checked against the engine registry before anything runs.
///
/// The name is `--engine`, else the case's `engine:` (its variant's, else its suite's). Options, later
/// ones winning: the suite's `engine:` mapping (only when `--engine` is absent or names the same engine),
/// the suite's `model:` key, then `--model` and `--cassette`, then each `--engine-option`. `model:`,
/// `--model` and `--cassette` set the options of those names only on engines that declare them. Options
/// left out that have a default get it, so cases group by the engine they really run on. A case whose
/// own content decides its engine (`PinnedEngines`: a recorded transcript, a scripted stand-in for Apple's
/// model) resolves to that engine whatever the flags say.
public enum EngineResolution {
    /// The resolved engine of `item` under `request` (nil request: the suite's engine as written).
    public static func resolve(_ item: ExpandedCase, request: RunRequest?) -> ResolvedEngine {
        PinnedEngines.pin(item)?.engine ?? written(item, request: request)
    }

    /// Where a case's engine written in its suite's `engine:`, as laid over by `request`'s flags.
    static func written(_ item: ExpandedCase, request: RunRequest?) -> ResolvedEngine {
        let spec = item.engineSpec
        let written = (spec.location ?? item.location).description
        let name = request?.engine ?? spec.name
        var resolved = ResolvedEngine(configuration: EngineConfiguration(name: name, options: [:]),
                                      nameOrigin: request?.engine != nil ? "--engine" : written, optionOrigins: [:])
        func set(_ key: String, _ value: GeneratedContent, from origin: String) {
            resolved.configuration.options[key] = value
            resolved.optionOrigins[key] = origin
        }
        if name == spec.name {
            for (key, value) in spec.options { set(key, value, from: (spec.optionLocations[key] ?? item.location).description) }
        }
        let declares = { (key: String) in EngineRegistry.descriptor(named: name)?.option(key) != nil }
        let (model, cassette) = (EngineConfiguration.modelOption, EngineConfiguration.cassetteOption)
        if let suiteModel = item.model, resolved.configuration.options[model] == nil, declares(model) {
            set(model, GeneratedContent(suiteModel), from: written)
        }
        if let flag = request?.model, declares(model) { set(model, GeneratedContent(flag), from: "--model") }
        if let flag = request?.cassette, declares(cassette) { set(cassette, GeneratedContent(flag), from: "--cassette") }
        for (key, value) in request?.engineOptions ?? [:] { set(key, value, from: "--engine-option \(key)") }
        if let descriptor = EngineRegistry.descriptor(named: name) { resolved.configuration = descriptor.withDefaults(resolved.configuration) }
        return resolved
    }

    /// Why each judge cannot run: an engine name that is no engine (with did-you-mean), a judge on an engine
    /// that reads per-case data (the scripted engine) without it, or such data for a judge on another engine.
    static func judgeProblems(_ choices: [JudgeEngineChoice], caseEngine: String) -> [String] {
        var found: [String] = []
        for choice in choices {
            let name = choice.name ?? caseEngine
            guard let descriptor = EngineRegistry.descriptor(named: name) else {
                found += EngineRegistry.problems(EngineConfiguration(name: name, options: [:])).map { "judge engine: \($0.message)" }
                continue
            }
            if let kind = descriptor.caseData, choice.data[kind.key] == nil {
                found.append("a judge on the \(name) engine needs '\(kind.key):', \(kind.summary) "
                    + "(or give the judge another engine, e.g. engine: \(EngineRegistry.defaultEngine))")
            }
            for key in choice.data.keys where descriptor.caseData?.key != key {
                let reader = EngineRegistry.caseDataEngine(forKey: key)?.name ?? "?"
                found.append("the judge's '\(key):' is read only by the \(reader) engine; this judge runs on "
                    + "'\(name)' (set engine: \(reader), or drop the \(key))")
            }
        }
        return found
    }

    /// Every problem of the engines `cases` resolve to under `request`, and every judge engine name that is
    /// no engine (with did-you-mean, at the case), once each, as lines naming where:
    /// `file:line:col: error: message` for the suite's, `--flag: message` for the command line's.
    public static func problems(for cases: [ExpandedCase], request: RunRequest?) -> [String] {
        var seen: Set<String> = []
        var lines: [String] = []
        // Cases share a handful of configurations; checking one may read the environment, so each is checked once.
        var checked: [EngineConfiguration: [EngineOptionProblem]] = [:]
        for item in cases where !PinnedEngines.isUnregistered(item) {
            let resolved = resolve(item, request: request)
            let problems: [EngineOptionProblem]
            if let known = checked[resolved.configuration] {
                problems = known
            } else {
                problems = EngineRegistry.problems(resolved.configuration)
                checked[resolved.configuration] = problems
            }
            for problem in problems {
                let origin = problem.option.flatMap { resolved.optionOrigins[$0] } ?? resolved.nameOrigin
                let line = origin.hasPrefix("-") ? "\(origin): \(problem.message)" : "\(origin): error: \(problem.message)"
                if seen.insert(line).inserted { lines.append(line) }
            }
            for problem in judgeProblems(item.expectations.flatMap(\.judgeEngines), caseEngine: resolved.configuration.name) {
                let line = "\(item.location): error: \(problem)"
                if seen.insert(line).inserted { lines.append(line) }
            }
        }
        return lines
    }
}
