import FMKernels
import Testing
@testable import FMEmbedded

/// The packed copies of Q4_1 weights the AVX-512 decode kernel reads.
@Suite struct PackedWeightsTests {
    @Test func packsWholeGroupsOfQ4_1RowsOnlyAtALevelThatPacks() throws {
        var random = KernelRandom(seed: 41)
        let group = Int(FMK_Q4_1_PACK_ROWS)
        let shapes = [(2 * group, 64), (group + 8, 64), (3 * group, 96)]
        let blocks = shapes.map { randomQ4_1(rows: $0.0, cols: $0.1, random: &random) }
        let q8 = randomQ8_0(rows: group, cols: 64, random: &random)
        try blocks.withUnsafeBufferPointers { pointers in
            let matrices = shapes.indices.map {
                QuantMatrix(data: pointers[$0], rows: shapes[$0].0, cols: shapes[$0].1, type: .q4_1)
            }
            try q8.withUnsafeBytes { q8Bytes in
                let q8Matrix = QuantMatrix(data: q8Bytes.baseAddress!, rows: group, cols: 64, type: .q8_0)
                for level in KernelLevel.available {
                    let pool = ThreadPool(threadCount: 2, kernelLevel: level)
                    let packing = PackedWeights(matrices + [q8Matrix], pool: pool)
                    let packs = fmk_level_packs_q4_1(level.rawValue) != 0
                    #if os(Linux)
                    if packs, let first = packing.packed(matrices[0]) {
                        #expect(Int(bitPattern: first) % LargePageMemory.pageBytes == 0, "the copies start a huge page")
                    }
                    #endif
                    #expect(packing.packed(q8Matrix) == nil, "\(level.name): Q8_0 stays in ggml's layout")
                    #expect(packing.packed(matrices[1]) == nil, "\(level.name): \(group + 8) rows are not whole groups")
                    for m in [matrices[0], matrices[2]] {
                        guard packs else {
                            #expect(packing.packed(m) == nil, "\(level.name) does not pack")
                            continue
                        }
                        let copy = try #require(packing.packed(m), "\(level.name) packs whole groups")
                        var expected = [UInt8](repeating: 0, count: m.byteCount)
                        fmk_pack_q4_1(m.data, Int32(m.rows), Int32(m.cols), &expected)
                        #expect(Array(UnsafeRawBufferPointer(start: copy, count: m.byteCount)) == expected)
                    }
                }
            }
        }
    }

    @Test func packingReordersTheBytesOfEachBlock() {
        var random = KernelRandom(seed: 42)
        let group = Int(FMK_Q4_1_PACK_ROWS), blockBytes = 20
        let w = randomQ4_1(rows: 2 * group, cols: 64, random: &random)
        var packed = [UInt8](repeating: 0, count: w.count)
        fmk_pack_q4_1(w, Int32(2 * group), 64, &packed)
        #expect(packed.sorted() == w.sorted())
        for g in 0..<2 {
            for block in 0..<2 {
                let to = (g * 2 + block) * group * blockBytes
                for row in 0..<group {
                    let from = (g * group + row) * 2 * blockBytes + block * blockBytes
                    #expect(packed[to + 2 * row..<to + 2 * row + 2] == w[from..<from + 2], "scale of row \(row)")
                    let minimum = to + 2 * group + 2 * row
                    #expect(packed[minimum..<minimum + 2] == w[from + 2..<from + 4], "minimum of row \(row)")
                    for v in 0..<4 {
                        let nibbles = to + 4 * group + v * 4 * group + 4 * row
                        #expect(packed[nibbles..<nibbles + 4] == w[from + 4 + 4 * v..<from + 8 + 4 * v],
                                "nibble dword \(v) of row \(row)")
                    }
                }
            }
        }
    }
}

extension Array where Element == [UInt8] {
    /// Runs `body` with a raw pointer to each array's bytes.
    func withUnsafeBufferPointers<R>(_ body: ([UnsafeRawPointer]) throws -> R) rethrows -> R {
        var pointers: [UnsafeRawPointer] = []
        func nest(_ index: Int) throws -> R {
            if index == count { return try body(pointers) }
            return try self[index].withUnsafeBytes { bytes in
                pointers.append(bytes.baseAddress!)
                return try nest(index + 1)
            }
        }
        return try nest(0)
    }
}
