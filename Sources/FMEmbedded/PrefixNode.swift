#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One node of a `PrefixCache` tree: a span of tokens at positions `start..<end` and a copy of their
/// keys and values for every layer. Keys are position-major (`[layer][position][kvDim]`, as in
/// `KVCache`); values are transposed per layer (`[layer][element][position]`, rows `span` long, as
/// `KVCache` keeps them with rows `capacity` long), so each copy is one run per layer for keys and one
/// run per layer and element for values.
///
/// Only `PrefixCache` touches nodes, under its lock.
final class PrefixNode {
    /// The tokens of the span (the edge from the parent).
    private(set) var tokens: [Int32]
    /// The absolute position of the first token.
    private(set) var start: Int
    /// The node this span continues (nil for the root and for evicted nodes).
    weak var parent: PrefixNode?
    /// Children by their first token.
    var children: [Int32: PrefixNode] = [:]
    /// When the node was last matched or stored (the cache's use counter).
    var lastUsed: UInt64 = 0
    private let layerCount: Int
    private let kvDim: Int
    private var keys: [UInt16]
    private var values: [UInt16]

    /// A node for `tokens` at positions `start…`, its keys and values zeroed until copied in.
    init(tokens: [Int32], start: Int, layerCount: Int, kvDim: Int) {
        self.tokens = tokens
        self.start = start
        self.layerCount = layerCount
        self.kvDim = kvDim
        keys = [UInt16](repeating: 0, count: layerCount * tokens.count * kvDim)
        values = [UInt16](repeating: 0, count: layerCount * tokens.count * kvDim)
    }

    /// One past the last position of the span.
    var end: Int { start + tokens.count }

    /// Bytes of keys and values the node holds.
    var byteCount: Int { (keys.count + values.count) * MemoryLayout<UInt16>.stride }

    /// Copies the span's keys and values out of `cache` (positions `start..<end`).
    func copy(from cache: KVCache) {
        let span = tokens.count, capacity = cache.capacity, kvDim = kvDim
        keys.withUnsafeMutableBufferPointer { keys in
            for layer in 0..<layerCount {
                (keys.baseAddress! + layer * span * kvDim).update(from: cache.keys(layer: layer) + start * kvDim, count: span * kvDim)
            }
        }
        values.withUnsafeMutableBufferPointer { values in
            for layer in 0..<layerCount {
                let source = cache.values(layer: layer) + start, target = values.baseAddress! + layer * kvDim * span
                for element in 0..<kvDim {
                    (target + element * span).update(from: source + element * capacity, count: span)
                }
            }
        }
    }

    /// Copies the keys and values of `positions` (inside the span) into `cache` at those positions.
    func copy(positions: Range<Int>, into cache: KVCache) {
        let span = tokens.count, capacity = cache.capacity, kvDim = kvDim
        let offset = positions.lowerBound - start, count = positions.count
        keys.withUnsafeBufferPointer { keys in
            for layer in 0..<layerCount {
                (cache.keys(layer: layer) + positions.lowerBound * kvDim)
                    .update(from: keys.baseAddress! + (layer * span + offset) * kvDim, count: count * kvDim)
            }
        }
        values.withUnsafeBufferPointer { values in
            for layer in 0..<layerCount {
                let target = cache.values(layer: layer) + positions.lowerBound
                let source = values.baseAddress! + layer * kvDim * span + offset
                for element in 0..<kvDim {
                    (target + element * capacity).update(from: source + element * span, count: count)
                }
            }
        }
    }

    /// A new node holding this span's positions `start..<position` (keys and values copied).
    func prefix(upTo position: Int) -> PrefixNode {
        let head = PrefixNode(tokens: Array(tokens[..<(position - start)]), start: start, layerCount: layerCount, kvDim: kvDim)
        head.keys = slice(keys, positions: 0..<head.tokens.count, rowsPerLayer: 1, rowLength: kvDim)
        head.values = slice(values, positions: 0..<head.tokens.count, rowsPerLayer: kvDim, rowLength: 1)
        return head
    }

    /// Drops the span's positions before `position` (a split moved them to a new parent).
    func dropPrefix(upTo position: Int) {
        let drop = position - start, rest = drop..<tokens.count
        keys = slice(keys, positions: rest, rowsPerLayer: 1, rowLength: kvDim)
        values = slice(values, positions: rest, rowsPerLayer: kvDim, rowLength: 1)
        tokens.removeFirst(drop)
        start = position
    }

    /// The part of `storage` for span-relative `positions`: each layer holds `rowsPerLayer` runs of
    /// `span × rowLength` halves (keys: one run of position rows; values: one run per element).
    private func slice(_ storage: [UInt16], positions: Range<Int>, rowsPerLayer: Int, rowLength: Int) -> [UInt16] {
        let span = tokens.count
        var result: [UInt16] = []
        result.reserveCapacity(layerCount * rowsPerLayer * positions.count * rowLength)
        for run in 0..<(layerCount * rowsPerLayer) {
            let base = run * span * rowLength
            result.append(contentsOf: storage[(base + positions.lowerBound * rowLength)..<(base + positions.upperBound * rowLength)])
        }
        return result
    }
}
