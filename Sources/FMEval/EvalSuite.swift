import Foundation
import FMCore
import FMSuite
import FMRun

/// Suites ready to run: loaded from files, or built in code, and validated exactly like `fmeval validate`.
public struct EvalSuite: Sendable {
    let loaded: SuiteLoadResult

    init(loaded: SuiteLoadResult) { self.loaded = loaded }

    /// The suites' names, in load order.
    public var names: [String] { loaded.suites.map(\.name) }

    /// The number of cases × variants that a run executes.
    public var caseCount: Int { loaded.expandedCases.count }

    /// Loads suite files or folders (`.yaml`, `.yml`, `.json`; folders searched recursively).
    /// Throws an `invalidInput` `EvalError` listing every problem at its file:line:column.
    public static func load(_ paths: String...) throws -> EvalSuite {
        try load(paths: paths)
    }

    /// Loads suite files or folders (see `load(_:)`) whose `expect:` may use `registry`'s kinds: the
    /// built-in ones and those registered with `ExpectationRegistry.registering(_:)`.
    public static func load(paths: [String], registry: ExpectationRegistry = .builtIn) throws -> EvalSuite {
        let loaded = SuiteLoader.load(paths: paths, registry: registry)
        let problems = loaded.diagnostics.map(\.description) + RunPipeline.foldersWithoutSuites(paths).map(\.description)
        if !problems.isEmpty { throw EvalError(.invalidInput, problems.joined(separator: "\n")) }
        if loaded.suites.isEmpty {
            throw EvalError(.invalidInput, "no suites found in \(paths.joined(separator: " ")); give suite files or folders holding them")
        }
        return EvalSuite(loaded: loaded)
    }

    /// The suite `builder` describes, read by the same loader as a file. Problems are reported as
    /// `suite NAME (built in code) at /json/pointer: message`; relative paths in it (schemas, tool
    /// outputs, images) are read from `directory` (default: the current directory); `expect:` may use
    /// `registry`'s kinds.
    public init(_ builder: SuiteBuilder, directory: String? = nil, registry: ExpectationRegistry = .builtIn) throws {
        let base = directory ?? FileManager.default.currentDirectoryPath
        let file = FilePaths.join(base, "\(builder.name).fmeval-builder.json")
        let text = builder.document.jsonString(indent: 2)
        let (suite, diagnostics) = SuiteLoader.load(text: text, file: file, registry: registry)
        if !diagnostics.isEmpty {
            let locations = (try? GeneratedContent.parseWithLocations(json: text).locations) ?? [:]
            let lines = diagnostics.map { diagnostic in
                "suite \(builder.name) (built in code) at \(Self.pointer(for: diagnostic.location, in: locations)): \(diagnostic.message)"
            }
            throw EvalError(.invalidInput, lines.joined(separator: "\n"))
        }
        var loaded = SuiteLoadResult()
        loaded.files = [file]
        loaded.suites = suite.map { [$0] } ?? []
        self.loaded = loaded
    }

    /// The JSON pointer of the value that starts at `location`, else of the last value starting before it.
    static func pointer(for location: SourceLocation, in locations: [String: GeneratedContent.SourceLocation]) -> String {
        let before = locations.filter { ($0.value.line, $0.value.column) <= (location.line, location.column) }
        guard let best = before.max(by: { ($0.value.line, $0.value.column, $1.key.count) < ($1.value.line, $1.value.column, $0.key.count) }) else {
            return "/"
        }
        return best.key.isEmpty ? "/" : best.key
    }
}

/// A suite written in code with the keys of a suite file (docs/suite-format.md), e.g.
/// `SuiteBuilder("sentiment", ["engine": "scripted", "generating": ["enum": ["positive", "negative"]]])`
/// then `addCase("happy", ["prompt": "I love it", "expect": ["equals": "positive"], "script": ["positive"]])`.
public struct SuiteBuilder: Sendable {
    /// The suite's name (`suite:`).
    public var name: String
    /// Top-level keys other than `suite` and `cases` (`engine`, `instructions`, `generating`, `options`,
    /// `tools`, `variants`, `defaults`, …), in the order given.
    public var settings: GeneratedContent
    /// The cases so far, each the mapping of one entry under `cases:`.
    public private(set) var cases: [GeneratedContent] = []

    /// A suite named `name` with top-level `settings` (a JSON object).
    public init(_ name: String, _ settings: GeneratedContent = [:]) {
        self.name = name
        self.settings = settings
    }

    /// Adds a case: `id` and the case's other keys (`prompt` or `turns`, `expect`, `script`, `repeat`, `gate`, …).
    public mutating func addCase(_ id: String, _ keys: GeneratedContent) {
        cases.append(GeneratedContent(properties: [("id", GeneratedContent(id))] + (keys.orderedProperties ?? []).map { ($0.key, $0.value) }))
    }

    /// The suite document: `suite`, the settings, then `cases`.
    public var document: GeneratedContent {
        let members = (settings.orderedProperties ?? []).filter { $0.key != "suite" && $0.key != "cases" }.map { ($0.key, $0.value) }
        return GeneratedContent(properties: [("suite", GeneratedContent(name))] + members + [("cases", GeneratedContent(cases))])
    }
}
