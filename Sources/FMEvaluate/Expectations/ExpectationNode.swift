/// A suite node as an expectation kind's shorthand sees it; the suite loader's YAML/JSON node provides it.
/// Nodes a kind builds keep the location of the node they are built from, so errors stay located.
public protocol ExpectationNode: Sendable {
    /// Whether the node is null (absent value, `~`, `null`).
    var isNull: Bool { get }
    /// Whether the node is a scalar (null included).
    var isScalar: Bool { get }
    /// Whether the node is a sequence.
    var isSequence: Bool { get }
    /// The node's text when it is a string scalar.
    var stringValue: String? { get }
    /// The keys of a mapping in order, or nil when the node is not a mapping.
    var mappingKeys: [String]? { get }
    /// The value under `key` in a mapping.
    subscript(key: String) -> Self? { get }
    /// The mapping `{key: self}`.
    func wrapped(in key: String) -> Self
    /// The sequence `[self]`.
    func listed() -> Self
    /// A mapping with these entries, each key located at this node.
    func makeMapping(_ entries: [(key: String, value: Self)]) -> Self
    /// This mapping with the value under `key` replaced by `value`.
    func replacing(_ key: String, with value: Self) -> Self
}

/// The suite loader as an expectation kind's shorthand uses it: reporting problems and the services
/// that need the loader's own state (files, nested kinds, the suite's tools).
public protocol ExpectationReader {
    /// The loader's node type.
    associatedtype Node: ExpectationNode
    /// Reports a problem at `node`.
    func report(_ node: Node, _ message: String)
    /// A one-key mapping `{kind: payload}` with the inner kind looked up and its shorthand expanded;
    /// nil once the problem is reported.
    func expandNestedExpectation(_ node: Node) -> Node?
    /// A GenerationSchema written inline, or as a path to a schema file (replaced by the file's nodes),
    /// checked; nil once the problem is reported. `what` names it in messages.
    func generationSchema(_ node: Node, what: String) -> Node?
    /// Tool-call entries in their suite shorthand (a bare tool name; `arguments` as a mapping whose bare
    /// values mean `exact`) expanded, and their tool names noted for the check against the suite's tools.
    func expandToolCalls(_ node: Node) -> Node
}
