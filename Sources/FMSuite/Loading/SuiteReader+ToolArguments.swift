import FMCore

extension SuiteReader {
    /// Reports each `toolCalls` argument matcher on an argument its tool does not declare: under the
    /// grammar channel the model cannot produce such an argument, so the matcher could never be met.
    func checkArgumentReferences(_ tools: [SuiteTool]) {
        let schemas = Dictionary(tools.map { ($0.name, $0.arguments) }, uniquingKeysWith: { first, _ in first })
        for reference in argumentReferences {
            guard let schema = schemas[reference.tool],
                  let problem = Self.undeclaredArgument(reference.argument, in: schema) else { continue }
            report(reference.node, "toolCalls: tool '\(reference.tool)' \(problem), so this matcher can never be met; fix the argument name or declare it in the tool's arguments")
        }
    }

    /// Why `argument` (a top-level name or a JSON pointer) names nothing `schema` declares; nil when it
    /// does, or when the schema cannot say (a free-form object, an `anyOf`).
    static func undeclaredArgument(_ argument: String, in schema: GenerationSchema) -> String? {
        let tokens: [String]
        if argument.hasPrefix("/") {
            tokens = argument.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
                .map { $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~") }
        } else {
            tokens = [argument]
        }
        var node = schema.root
        var walked = ""
        for token in tokens {
            guard let resolved = schema.resolve(node) else { return nil }
            let place = walked.isEmpty ? "" : " in '\(walked)'"
            switch resolved.kind {
            case .object(let object):
                if let property = object.property(named: token) {
                    node = property.node
                } else if object.properties.isEmpty && object.additionalProperties != false {
                    return nil
                } else {
                    let names = object.properties.map(\.name)
                    let hint = Suggestion.closest(to: token, in: names).map { "did you mean '\($0)'? " } ?? ""
                    let declared = names.isEmpty ? "no arguments" : names.joined(separator: ", ")
                    return "declares no argument '\(token)'\(place) (\(hint)it declares \(declared))"
                }
            case .array(let array):
                guard Int(token) != nil else { return "has an array at '\(walked)', which '\(token)' cannot index (use an element number)" }
                node = array.items
            case .anyOf, .reference:
                return nil
            case .string, .integer, .number, .boolean, .null:
                return "has a \(resolved.typeName ?? "scalar") at '\(walked)', which has no member '\(token)'"
            }
            walked = jsonPointer(walked, token)
        }
        return nil
    }
}
