#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keys and values of every layer for positions `0..<capacity`, stored as IEEE halves (as llama.cpp
/// does by default). Keys are position-major; values are transposed (one row of `capacity` positions
/// per value element), as llama.cpp's non-flash attention keeps them, so `p·v` reads contiguous rows.
/// Memory is reserved up front but only pages that positions reach become resident.
// @unchecked Sendable: the buffers are written only inside a forward pass, and `Generator` runs one at a time.
public final class KVCache: @unchecked Sendable {
    /// Positions the cache can hold.
    public let capacity: Int
    /// Halves per position per layer (key/value heads × head size).
    public let kvDim: Int
    /// Number of layers.
    public let layerCount: Int
    private let keys: UnsafeMutablePointer<UInt16>
    private let values: UnsafeMutablePointer<UInt16>

    /// Reserves a cache for `layerCount` layers of `kvDim` halves over `capacity` positions.
    public init(layerCount: Int, kvDim: Int, capacity: Int) {
        self.capacity = capacity
        self.kvDim = kvDim
        self.layerCount = layerCount
        let count = max(1, layerCount * capacity * kvDim)
        keys = calloc(count, MemoryLayout<UInt16>.stride)!.assumingMemoryBound(to: UInt16.self)
        values = calloc(count, MemoryLayout<UInt16>.stride)!.assumingMemoryBound(to: UInt16.self)
    }

    deinit {
        free(keys)
        free(values)
    }

    /// The keys of `layer`, position-major (`kvDim` halves per position).
    @inline(__always) public func keys(layer: Int) -> UnsafeMutablePointer<UInt16> { keys + layer * capacity * kvDim }

    /// The values of `layer`, transposed: element `i` of position `t` at `i * capacity + t`.
    @inline(__always) public func values(layer: Int) -> UnsafeMutablePointer<UInt16> { values + layer * capacity * kvDim }
}
