import Foundation
import FMCore

extension SuiteReader {
    /// One problem of a schema read from `source`, reported once at the node its JSON path names: problems
    /// found under that node later are follow-ons and are left out.
    func reportSchemaProblem(_ problem: Error, in source: YAMLNode, _ what: String) {
        let (diagnostic, node, key) = SuiteReader.schemaDiagnostic(problem, in: source, what)
        guard let node else { return diagnostics.append(diagnostic) }
        reportUnreadable(node, key: key, diagnostic.message)
    }

    /// A schema problem as a diagnostic at the node its JSON path names (at the member's key, when the
    /// node is the value of one), with the form it teaches in the syntax of `source`'s file; `node` is nil
    /// for a problem that names no place in the schema.
    static func schemaDiagnostic(_ problem: Error, in source: YAMLNode, _ what: String)
        -> (diagnostic: Diagnostic, node: YAMLNode?, key: YAMLNode?) {
        let message: String
        let located: (node: YAMLNode, key: YAMLNode?)
        switch problem {
        case let error as JSONFormatError:
            located = member(at: error.path, in: source)
            let example = error.example.map { ExampleText.lines($0, json: isJSON(source.location.file)) } ?? []
            let form = example.isEmpty ? "" : ", like:\n" + example.map { "  " + $0 }.joined(separator: "\n")
            message = "\(what): \(error.message)\(form)"
        case let error as SchemaError:
            located = member(at: error.path, in: source)
            message = "\(what) does not build: \(error)"
        default:
            return (Diagnostic(source.location, "\(what) does not build: \(problem)"), nil, nil)
        }
        return (Diagnostic((located.key ?? located.node).location, message), located.node, located.key)
    }

    /// The node at a JSON pointer below `root` (the deepest existing one) and, when that node is the value
    /// of a mapping member, the member's key: where a problem with the value is shown.
    static func member(at pointer: String, in root: YAMLNode) -> (node: YAMLNode, key: YAMLNode?) {
        var node = root
        var key: YAMLNode?
        for raw in pointer.split(separator: "/", omittingEmptySubsequences: true) {
            let token = raw.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            if let items = node.sequence, let index = Int(token), items.indices.contains(index) {
                (node, key) = (items[index], nil)
            } else if let entry = node.mapping?.first(where: { $0.name == token }) {
                (node, key) = (entry.value, entry.key)
            } else {
                break
            }
        }
        return (node, key)
    }

    /// Whether `file` is read as JSON (so an example is shown as JSON).
    static func isJSON(_ file: String) -> Bool {
        ["json", "jsonl"].contains(FilePaths.pathExtension(of: file).lowercased())
    }
}
