import FMEvaluate

/// The loader's services to expectation kinds' shorthands.
extension SuiteReader: ExpectationReader {
    /// `{kind: payload}` with the inner kind's shorthand expanded, located as written.
    func expandNestedExpectation(_ node: YAMLNode) -> YAMLNode? {
        guard let inner = node.mapping?.first, let payload = expandedPayload(inner) else { return nil }
        return YAMLNode(.mapping([YAMLNode.Entry(key: inner.key, value: payload)]), at: node.location)
    }

    /// An inline schema, checked, or a schema file's nodes in place of its path.
    func generationSchema(_ node: YAMLNode, what: String) -> YAMLNode? {
        guard case .string(let path)? = node.scalar?.value else {
            return schema(node, what) == nil ? nil : node
        }
        guard let file = parseFile(path, at: node, what: what), schema(file, what) != nil else { return nil }
        return file
    }

    /// The trajectory shorthand expanded by `trajectory(_:)`.
    func expandToolCalls(_ node: YAMLNode) -> YAMLNode {
        trajectory(node)
    }
}
