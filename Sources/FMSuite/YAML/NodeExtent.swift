/// Where a node and everything under it lie in its file: from its start (its key's, for a mapping member)
/// to the start of its last descendant. Every node under it starts inside, so a problem located inside
/// the extent is a problem of that subtree.
struct NodeExtent: Hashable {
    /// Where the node (or its key) starts.
    let start: SourceLocation
    /// Where the node's last descendant starts.
    let end: SourceLocation

    /// The extent of `node`, from `key` when it is the value of a mapping member.
    init(_ node: YAMLNode, key: YAMLNode? = nil) {
        start = key?.location ?? node.location
        end = NodeExtent.lastDescendant(of: node).location
    }

    /// Whether `location` lies in the subtree.
    func contains(_ location: SourceLocation) -> Bool {
        location.file == start.file && (start.line, start.column) <= (location.line, location.column)
            && (location.line, location.column) <= (end.line, end.column)
    }

    /// Whether the two subtrees share a place (one holds the other, since subtrees never partly overlap).
    func overlaps(_ other: NodeExtent) -> Bool {
        contains(other.start) || other.contains(start)
    }

    private static func lastDescendant(of node: YAMLNode) -> YAMLNode {
        switch node.content {
        case .scalar: return node
        case .sequence(let items): return items.last.map(lastDescendant) ?? node
        case .mapping(let entries): return entries.last.map { lastDescendant(of: $0.value) } ?? node
        }
    }
}
