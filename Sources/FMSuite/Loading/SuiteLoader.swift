import Foundation
import FMCore
import FMEvaluate

/// What loading some suite files produced: the suites that loaded and every problem found.
public struct SuiteLoadResult: Sendable {
    /// The suite files read, in order.
    public var files: [String] = []
    /// Suites without errors, in file order.
    public var suites: [Suite] = []
    /// Every problem, grouped by file and in source order within each.
    public var diagnostics: [Diagnostic] = []
    /// Problems that do not stop a run: settings without effect (a temperature under greedy sampling), schemas
    /// the device would refuse in a suite that runs no case under `device`; by file.
    public var warnings: [Diagnostic] = []

    /// Creates an empty result.
    public init() {}

    /// The cases × variants of the suites without errors: set by `SuiteLoader.stream`, whose suites keep no cases.
    public var streamedCaseCount = 0

    /// All cases × variants of the loaded suites, with defaults applied.
    public var expandedCases: [ExpandedCase] { suites.flatMap { $0.expanded() } }
}

/// Finds, parses, validates and types suite files (`.yaml`, `.yml`, `.json`).
public enum SuiteLoader {
    /// The extensions of suite files found when a directory is given.
    public static let suiteExtensions = ["yaml", "yml", "json"]

    /// Loads every suite under `paths` (files, or directories searched recursively); `overrides` (the
    /// command line's `--device` and `--guide-enforcement`) lie over every case's own settings, so they also
    /// decide whether schemas the device refuses are errors; `registry` holds the expectation kinds suites may use.
    public static func load(paths: [String], overrides: OptionsPatch = OptionsPatch(),
                            registry: ExpectationRegistry = .builtIn) -> SuiteLoadResult {
        var result = SuiteLoadResult()
        let (files, missing) = suiteFiles(in: paths)
        result.diagnostics = missing
        for file in files {
            result.files.append(file)
            let (suite, diagnostics, warnings) = read(file: file, overrides: overrides, registry: registry)
            result.diagnostics += diagnostics
            result.warnings += warnings
            if let suite, diagnostics.isEmpty { result.suites.append(suite) }
        }
        result.diagnostics += CaseIDCollisions.diagnostics(of: result.expandedCases)
        return result
    }

    /// Loads like `load(paths:overrides:registry:)` but hands each suite's cases × variants to `body` (with the
    /// suite's file) a batch at a time, in file order, as they are read, and keeps none: memory stays flat
    /// however big a dataset is.
    /// Batches of a suite with errors are handed on too (so each can be checked further), but only suites
    /// without errors count (cases, id collisions); the suites returned hold no cases.
    public static func stream(paths: [String], overrides: OptionsPatch = OptionsPatch(),
                              registry: ExpectationRegistry = .builtIn,
                              body: @escaping (_ file: String, _ batch: [ExpandedCase]) -> Void) -> SuiteLoadResult {
        var result = SuiteLoadResult()
        let (files, missing) = suiteFiles(in: paths)
        result.diagnostics = missing
        var collisions = CaseIDCollisions()
        for file in files {
            result.files.append(file)
            var count = 0
            let sink = { (_: Suite, batch: [ExpandedCase]) in
                count += batch.count
                collisions.add(batch)
                body(file, batch)
            }
            let (suite, diagnostics, warnings) = read(file: file, overrides: overrides, registry: registry, sink: sink)
            result.diagnostics += diagnostics
            result.warnings += warnings
            let loaded = suite != nil && diagnostics.isEmpty
            if let suite, loaded {
                result.suites.append(suite)
                result.streamedCaseCount += count
            }
            collisions.endFile(keep: loaded)
        }
        result.diagnostics += collisions.found
        return result
    }

    /// Loads one suite file; the suite is returned even with problems, so callers can show what loaded.
    public static func load(file: String) -> (suite: Suite?, diagnostics: [Diagnostic]) {
        let (suite, diagnostics, _) = read(file: file)
        return (suite, diagnostics)
    }

    /// Loads a suite from text; `file` names it in messages and anchors relative paths.
    public static func load(text: String, file: String, registry: ExpectationRegistry = .builtIn)
        -> (suite: Suite?, diagnostics: [Diagnostic]) {
        let (suite, diagnostics, _) = read(text: text, file: file, registry: registry)
        return (suite, diagnostics)
    }

    /// Loads a suite from text with its warnings as well as its problems.
    public static func read(text: String, file: String, overrides: OptionsPatch = OptionsPatch(),
                            registry: ExpectationRegistry = .builtIn)
        -> (suite: Suite?, diagnostics: [Diagnostic], warnings: [Diagnostic]) {
        read(text: text, file: file, overrides: overrides, registry: registry, sink: nil)
    }

    private static func read(text: String, file: String, overrides: OptionsPatch, registry: ExpectationRegistry,
                             sink: ((Suite, [ExpandedCase]) -> Void)?)
        -> (suite: Suite?, diagnostics: [Diagnostic], warnings: [Diagnostic]) {
        read(bytes: Array(text.utf8), file: file, overrides: overrides, registry: registry, sink: sink)
    }

    /// Reads a suite from its UTF-8 bytes. A YAML suite's `cases:`, when it is the last key, is parsed a case at a
    /// time as the reader takes them (`YAMLParser.parse(bytes:file:streaming:)`), so inline cases are never all
    /// held as nodes; a syntax error anywhere still makes the file's only problem, as a whole-file parse would.
    private static func read(bytes: [UInt8], file: String, overrides: OptionsPatch, registry: ExpectationRegistry,
                             sink: ((Suite, [ExpandedCase]) -> Void)?)
        -> (suite: Suite?, diagnostics: [Diagnostic], warnings: [Diagnostic]) {
        let root: YAMLNode
        var entries: YAMLEntryStream? = nil
        do {
            if file.lowercased().hasSuffix(".json") {
                root = try JSONNodeReader.parse(String(decoding: bytes, as: UTF8.self), file: file)
            } else {
                (root, entries) = try YAMLParser.parse(bytes: bytes, file: file, streaming: "cases")
            }
        } catch let diagnostic as Diagnostic {
            return (nil, [diagnostic], [])
        } catch {
            return (nil, [Diagnostic(SourceLocation(file: file, line: 1, column: 1), "\(error)")], [])
        }
        let reader = SuiteReader(file: file, registry: registry)
        reader.overrides = overrides
        reader.caseSink = sink
        reader.streamedCases = entries
        let suite = reader.suite(root, file: file)
        if let syntaxError = reader.streamError { return (nil, [syntaxError], []) }
        return (suite, ordered(reader.reportedDiagnostics), ordered(reader.warnings))
    }

    private static func read(file: String, overrides: OptionsPatch = OptionsPatch(),
                             registry: ExpectationRegistry = .builtIn, sink: ((Suite, [ExpandedCase]) -> Void)? = nil)
        -> (suite: Suite?, diagnostics: [Diagnostic], warnings: [Diagnostic]) {
        if let problem = RegularFile.problem(file) {
            return (nil, [Diagnostic(SourceLocation(file: file, line: 1, column: 1), "the suite file \(problem)")], [])
        }
        switch contents(of: file) {
        case .failure(let problem): return (nil, [problem], [])
        case .success(let bytes): return read(bytes: bytes, file: file, overrides: overrides, registry: registry, sink: sink)
        }
    }

    /// The bytes of `file` once they are known to be UTF-8 (the file's data is let go before they are parsed).
    private static func contents(of file: String) -> Result<[UInt8], Diagnostic> {
        let start = SourceLocation(file: file, line: 1, column: 1)
        guard let data = FileManager.default.contents(atPath: file) else {
            return .failure(Diagnostic(start, "cannot read the file; check the path and permissions"))
        }
        guard String(data: data, encoding: .utf8) != nil else {
            return .failure(Diagnostic(start, "the file is not UTF-8 text"))
        }
        return .success([UInt8](data))
    }

    /// Suite files under `paths`, sorted within each directory; missing paths become diagnostics.
    public static func suiteFiles(in paths: [String]) -> (files: [String], missing: [Diagnostic]) {
        var files: [String] = []
        var missing: [Diagnostic] = []
        let manager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                missing.append(Diagnostic(SourceLocation(file: path, line: 1, column: 1), "no such file or directory"))
                continue
            }
            guard isDirectory.boolValue else {
                files.append(path)
                continue
            }
            let base = path.hasSuffix("/") ? String(path.dropLast()) : path
            let found = (manager.enumerator(atPath: path)?.allObjects as? [String] ?? [])
                .filter { entry in
                    !entry.split(separator: "/").contains { $0.hasPrefix(".") }
                        && suiteExtensions.contains(FilePaths.pathExtension(of: entry).lowercased())
                }
                .sorted()
            files += found.map { base + "/" + $0 }
        }
        return (files, missing)
    }

    /// Diagnostics without repeats, grouped by file (first appearance) and sorted by position within each.
    static func ordered(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        var seen = Set<Diagnostic>()
        var fileOrder: [String: Int] = [:]
        var unique: [Diagnostic] = []
        for diagnostic in diagnostics where seen.insert(diagnostic).inserted {
            if fileOrder[diagnostic.location.file] == nil { fileOrder[diagnostic.location.file] = fileOrder.count }
            unique.append(diagnostic)
        }
        return unique.enumerated().sorted { a, b in
            let (x, y) = (a.element.location, b.element.location)
            if x.file != y.file { return fileOrder[x.file]! < fileOrder[y.file]! }
            if x.line != y.line { return x.line < y.line }
            if x.column != y.column { return x.column < y.column }
            return a.offset < b.offset
        }.map(\.element)
    }
}
