import Foundation
import FMCore
import FMEngines
import FMEvaluate

/// Reads one suite file's node tree into typed values, collecting every problem instead of stopping.
final class SuiteReader {
    /// Problems found so far, in the order found.
    var diagnostics: [Diagnostic] = []
    /// Problems that do not stop the suite (settings without effect, schemas the device would refuse), in order.
    var warnings: [Diagnostic] = []
    /// The suite file's directory; relative paths in the suite resolve against it.
    let directory: URL
    /// Parsed referenced files, so a schema used twice is read once.
    var fileCache: [String: YAMLNode?] = [:]
    /// Tool names named by `toolCalls` expectations, checked against the suite's tools at the end.
    var toolReferences: [(name: String, node: YAMLNode)] = []
    /// Argument names (or JSON pointers) that `toolCalls` matchers check, by tool, checked against the tool's schema at the end.
    var argumentReferences: [(tool: String, argument: String, node: YAMLNode)] = []

    /// What the device's schema decoder would refuse in each schema written in the suite, by schema
    /// (`SuiteReader+DeviceSchemas.swift`): errors when the suite runs a case under `device`, else warnings.
    var deviceRefusals: [DeviceRefusal] = []
    /// The suite's case ids so far, each with where it is first written (checked a batch at a time).
    var caseIDs: [String: SourceLocation] = [:]
    /// Whether a case checked so far runs under `guideEnforcement: device` (`reportDeviceRefusals`).
    var runsOnDevice = false
    /// Where a temperature without effect was warned about, so each place is warned about once.
    var temperatureWarnings = Set<SourceLocation>()
    /// The entries under `cases:` the parser left unread, to be read one at a time (`forEachCase`).
    var streamedCases: YAMLEntryStream?
    /// The syntax error met while reading them: the file does not load, as if the whole parse had failed.
    var streamError: Diagnostic?
    /// Where the cases go as they are read: nil keeps them in the suite; a sink takes them in batches
    /// (`SuiteLoader.stream`), so a big dataset is never whole in memory.
    var caseSink: ((Suite, [ExpandedCase]) -> Void)?
    /// Expectations written as `kind: scalar` already read without side effects (`expectation(_:)`).
    var scalarExpectations: [ScalarExpectation: Expectation] = [:]
    /// The cases between being read and being handed to `caseSink`.
    var flow = CaseFlow()

    /// What the command line lays over every case (`--device`, `--guide-enforcement`): `Suite.overrides`.
    var overrides = OptionsPatch()

    /// Nodes whose value could not be read, each with the one report made at its root (nil for a node
    /// marked because something it names failed, such as a schema file): any other problem found inside a
    /// reported node is a follow-on of that report and is left out (`reportedDiagnostics`), and checks that
    /// need the value of a node holding one skip it (`isUnreadable`).
    var unreadable: [(extent: NodeExtent, report: Diagnostic?)] = []

    /// `allowLinksOutsideSuite: true`: referenced files may be symbolic links leaving the suite's folder.
    var allowsLinksOutside = false
    /// The expectation kinds `expect:` may name.
    let registry: ExpectationRegistry

    init(file: String, registry: ExpectationRegistry) {
        directory = URL(fileURLWithPath: FilePaths.parent(of: FilePaths.absolute(file)))
        self.registry = registry
    }

    func report(_ node: YAMLNode, _ message: String) {
        diagnostics.append(Diagnostic(node.location, message))
    }

    func report(_ list: DiagnosticList) { diagnostics.append(contentsOf: list.diagnostics) }

    /// Reports `message` once for the whole of `node`, at `key` (its mapping key) when given, and marks the
    /// node unreadable: problems found under it later are follow-ons of this one.
    func reportUnreadable(_ node: YAMLNode, key: YAMLNode? = nil, _ message: String) {
        let diagnostic = Diagnostic((key ?? node).location, message)
        diagnostics.append(diagnostic)
        unreadable.append((NodeExtent(node, key: key), diagnostic))
    }

    /// Marks `node` unreadable without a report of its own (its problems were reported where they are).
    func markUnreadable(_ node: YAMLNode) {
        unreadable.append((NodeExtent(node), nil))
    }

    /// Whether `node`'s value, or any part of it, could not be read (or it lies in a node that could not).
    func isUnreadable(_ node: YAMLNode) -> Bool {
        let extent = NodeExtent(node)
        return unreadable.contains { extent.overlaps($0.extent) }
    }

    /// The problems without follow-ons: a problem inside a reported unreadable node is left out, unless it is
    /// that node's own report.
    var reportedDiagnostics: [Diagnostic] {
        diagnostics.filter { diagnostic in
            !unreadable.contains {
                $0.report != nil && $0.report != diagnostic && $0.extent.contains(diagnostic.location)
            }
        }
    }

    // MARK: - Shapes

    /// The entries of a mapping node, reporting unknown keys (with a suggestion) against `allowed`.
    func mapping(_ node: YAMLNode, _ what: String, allowed: [String]) -> [String: YAMLNode]? {
        guard let entries = node.mapping else {
            report(node, "\(what) must be a mapping, not \(node.kindName)")
            return nil
        }
        var values: [String: YAMLNode] = [:]
        for entry in entries {
            if allowed.contains(entry.name) {
                values[entry.name] = entry.value
            } else {
                diagnostics.append(Diagnostic(entry.key.location, unknownKeyMessage(entry.name, known: allowed) + " (in \(what))"))
            }
        }
        return values
    }

    func string(_ node: YAMLNode?, _ what: String) -> String? {
        guard let node else { return nil }
        guard case .string(let text)? = node.scalar?.value else {
            if let scalar = node.scalar, !node.isNull {
                report(node, "\(what) must be a string, not \(node.kindName) (quote '\(scalar.text)' to make it one)")
            } else {
                report(node, "\(what) must be a string, not \(node.kindName)")
            }
            return nil
        }
        return text
    }

    /// A scalar rendered as text (strings, numbers and booleans), for prompts and vars.
    func text(_ node: YAMLNode?, _ what: String) -> String? {
        guard let node else { return nil }
        guard let scalar = node.scalar, !node.isNull else {
            report(node, "\(what) must be text, not \(node.kindName)")
            return nil
        }
        return scalar.text
    }

    func int(_ node: YAMLNode?, _ what: String, minimum: Int, maximum: Int = Int.max) -> Int? {
        guard let node else { return nil }
        guard case .int(let value)? = node.scalar?.value else {
            report(node, "\(what) must be an integer, not \(node.kindName)")
            return nil
        }
        guard value >= minimum else {
            report(node, "\(what) must be at least \(minimum), not \(value)")
            return nil
        }
        guard value <= maximum else {
            report(node, "\(what) must be at most \(maximum), not \(value) (fmeval's cap on one run's work)")
            return nil
        }
        return value
    }

    func bool(_ node: YAMLNode?, _ what: String) -> Bool? {
        guard let node else { return nil }
        guard case .bool(let value)? = node.scalar?.value else {
            report(node, "\(what) must be true or false, not \(node.kindName)")
            return nil
        }
        return value
    }

    func number(_ node: YAMLNode?, _ what: String) -> Double? {
        guard let node else { return nil }
        switch node.scalar?.value {
        case .int(let value)?: return Double(value)
        case .float(let value)? where value.isFinite: return value
        case .bigInt?:
            report(node, "\(what) must be a number within the 64-bit range (it is read as a float)")
            return nil
        default:
            report(node, "\(what) must be a number, not \(node.kindName)")
            return nil
        }
    }

    /// A list of strings; a single string is accepted as a one-item list.
    func stringList(_ node: YAMLNode?, _ what: String) -> [String]? {
        guard let node else { return nil }
        if node.scalar != nil { return string(node, what).map { [$0] } }
        guard let items = node.sequence else {
            report(node, "\(what) must be a list of strings, not \(node.kindName)")
            return nil
        }
        return items.compactMap { string($0, "each item of \(what)") }
    }

    /// Decodes a Codable value with located errors.
    /// The decoder carries the expectation registry and the engines' per-case data kinds (judges read them),
    /// plus `extra`.
    func decode<T: Decodable>(_ type: T.Type, _ node: YAMLNode, extra: [CodingUserInfoKey: Any] = [:]) -> T? {
        let userInfo: [CodingUserInfoKey: Any] = [ExpectationRegistry.userInfoKey: registry,
                                                  EngineCaseDataKind.userInfoKey: EngineRegistry.caseDataKinds]
        switch NodeDecoding.decode(type, from: node, userInfo: userInfo.merging(extra) { $1 }) {
        case .success(let value): return value
        case .failure(let list):
            report(list)
            return nil
        }
    }

    /// JSON content of a node.
    func content(_ node: YAMLNode) -> GeneratedContent? {
        do { return try NodeDecoding.content(of: node) } catch let diagnostic as Diagnostic {
            diagnostics.append(diagnostic)
        } catch {
            report(node, "\(error)")
        }
        return nil
    }

    // MARK: - Files

    /// The absolute path of a path written in the suite (relative to the suite file).
    func resolve(_ path: String) -> URL {
        URL(fileURLWithPath: FilePaths.absolute(path, base: directory.path))
    }

    /// The resolved URL of an existing regular referenced file, or a diagnostic at the node that names it
    /// (a folder, FIFO, socket, device, kernel file or symbolic link leaving the suite's folder is refused).
    func readableFile(_ path: String, at node: YAMLNode, what: String) -> URL? {
        let url = resolve(path)
        guard let problem = RegularFile.problem(url.path, tree: directory.path, allowLinksOut: allowsLinksOutside) else {
            return url
        }
        if problem == "does not exist" {
            report(node, "\(what) file '\(path)' not found (looked for \(url.path)); paths resolve relative to the suite file")
        } else {
            report(node, "\(what) file '\(path)' \(problem)")
        }
        return nil
    }

    /// The text of a referenced file, or a diagnostic at the node that names it.
    func readFile(_ path: String, at node: YAMLNode, what: String) -> (url: URL, text: String)? {
        guard let url = readableFile(path, at: node, what: what) else { return nil }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            report(node, "\(what) file '\(path)' cannot be read")
            return nil
        }
        guard let text = String(data: data, encoding: .utf8) else {
            report(node, "\(what) file '\(path)' is not UTF-8 text")
            return nil
        }
        return (url, text)
    }

    /// A referenced YAML or JSON file parsed into nodes (errors located in that file).
    func parseFile(_ path: String, at node: YAMLNode, what: String) -> YAMLNode? {
        let key = resolve(path).path
        if let cached = fileCache[key] { return cached }
        guard let (url, text) = readFile(path, at: node, what: what) else { return nil }
        let shownPath = displayPath(url)
        var parsed: YAMLNode? = nil
        do {
            parsed = FilePaths.pathExtension(of: url.path).lowercased() == "json"
                ? try JSONNodeReader.parse(text, file: shownPath)
                : try YAMLParser.parse(text, file: shownPath)
        } catch let diagnostic as Diagnostic {
            diagnostics.append(diagnostic)
        } catch {
            report(node, "\(what) file '\(path)': \(error)")
        }
        fileCache[key] = parsed
        return parsed
    }

    /// A path for messages: relative to the current directory when below it.
    func displayPath(_ url: URL) -> String {
        let cwd = FileManager.default.currentDirectoryPath
        let path = url.standardizedFileURL.path
        return path.hasPrefix(cwd + "/") ? String(path.dropFirst(cwd.count + 1)) : path
    }

    /// The node at a JSON pointer below `root` (the deepest existing one), for locating FMCore errors.
    static func node(at pointer: String, in root: YAMLNode) -> YAMLNode {
        var node = root
        for raw in pointer.split(separator: "/", omittingEmptySubsequences: true) {
            let key = raw.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            if let items = node.sequence, let index = Int(key), items.indices.contains(index) {
                node = items[index]
            } else if let value = node[key] {
                node = value
            } else {
                break
            }
        }
        return node
    }
}
