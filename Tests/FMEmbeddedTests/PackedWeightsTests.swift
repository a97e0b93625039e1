import FMKernels
import Testing
@testable import FMEmbedded

/// The packed copies of Q4_1 weights the AVX-512 decode kernel reads.
@Suite struct PackedWeightsTests {
    @Test func packsWholeGroupsOfQ4_1RowsOnlyAtALevelThatPacks() throws {
        var random = KernelRandom(seed: 41)
        let blocks = [(8, 64), (6, 64), (12, 96)].map { randomQ4_1(rows: $0.0, cols: $0.1, random: &random) }
        let q8 = randomQ8_0(rows: 4, cols: 64, random: &random)
        try blocks.withUnsafeBufferPointers { pointers in
            let matrices = [QuantMatrix(data: pointers[0], rows: 8, cols: 64, type: .q4_1),
                            QuantMatrix(data: pointers[1], rows: 6, cols: 64, type: .q4_1),
                            QuantMatrix(data: pointers[2], rows: 12, cols: 96, type: .q4_1)]
            try q8.withUnsafeBytes { q8Bytes in
                let q8Matrix = QuantMatrix(data: q8Bytes.baseAddress!, rows: 4, cols: 64, type: .q8_0)
                for level in KernelLevel.available {
                    let pool = ThreadPool(threadCount: 2, kernelLevel: level)
                    let packing = PackedWeights(matrices + [q8Matrix], pool: pool)
                    let packs = fmk_level_packs_q4_1(level.rawValue) != 0
                    #expect(packing.packed(q8Matrix) == nil, "\(level.name): Q8_0 stays in ggml's layout")
                    #expect(packing.packed(matrices[1]) == nil, "\(level.name): 6 rows are not whole groups")
                    for m in [matrices[0], matrices[2]] {
                        guard packs else {
                            #expect(packing.packed(m) == nil, "\(level.name) does not pack")
                            continue
                        }
                        let copy = try #require(packing.packed(m), "\(level.name) packs whole groups of four")
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
        let w = randomQ4_1(rows: 4, cols: 64, random: &random)
        var packed = [UInt8](repeating: 0, count: w.count)
        fmk_pack_q4_1(w, 4, 64, &packed)
        #expect(packed.sorted() == w.sorted())
        for block in 0..<2 {
            for row in 0..<4 {
                let from = row * 40 + block * 20, to = block * 80
                #expect(packed[to + 2 * row..<to + 2 * row + 2] == w[from..<from + 2], "scale of row \(row)")
                #expect(packed[to + 8 + 2 * row..<to + 10 + 2 * row] == w[from + 2..<from + 4], "minimum, row \(row)")
                let nibbles = to + 16 + 16 * row
                #expect(packed[nibbles..<nibbles + 16] == w[from + 4..<from + 20], "nibbles of row \(row)")
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
