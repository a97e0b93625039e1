import FMKernels
import Foundation
import Testing
@testable import FMEmbedded

/// Memory a test matrix points into, which reports when it is freed.
private final class Blocks {
    let bytes: UnsafeMutableRawPointer
    init(count: Int) { bytes = .allocate(byteCount: count, alignment: 64) }
    deinit { bytes.deallocate() }
}

@Suite struct WeightLifetimeTests {
    /// A GGUF file with an F32 tensor `a` (1, 2, 3, 4) and a 32×2 Q8_0 matrix `q` (d = 1, quants 0…63).
    private func smallFile() throws -> String {
        var writer = GGUFWriter()
        writer.add("general.architecture", .string("llama"))
        writer.addTensor(name: "a", shape: [4], floats: [1, 2, 3, 4])
        let one = Half.fromFloat(1)
        var blocks: [UInt8] = []
        for row in 0..<2 {
            blocks += [UInt8(one & 0xFF), UInt8(one >> 8)]
            blocks += (0..<32).map { UInt8(row * 32 + $0) }
        }
        writer.addTensor(name: "q", shape: [32, 2], type: .q8_0, data: blocks)
        return try writeTemporary(writer.bytes())
    }

    @Test func tensorsAndMatricesKeepTheMapAliveAfterTheFileIsReleased() throws {
        let path = try smallFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        weak var released: GGUFFile?
        let (tensor, matrix) = try {
            let file = try GGUFFile(path: path)
            released = file
            return (try file.requireTensor("a"), try QuantMatrix(file.requireTensor("q"), rows: 2, cols: 32, path: path))
        }()
        #expect(released == nil, "the file object itself is gone")
        #expect((0..<4).map { tensor.data.loadUnaligned(fromByteOffset: 4 * $0, as: Float.self) } == [1, 2, 3, 4])
        var row = [Float](repeating: 0, count: 32)
        #expect(fmk_dequantize_row(Int32(GGMLType.q8_0.rawValue), matrix.data + 34, 32, &row) == 0)
        #expect(row == (32..<64).map(Float.init))
    }

    @Test func aMatrixOverMemoryInProcessKeepsItsOwnerAlive() {
        weak var released: Blocks?
        let matrix: QuantMatrix = {
            let blocks = Blocks(count: 34)
            released = blocks
            return QuantMatrix(data: blocks.bytes, rows: 1, cols: 32, type: .q8_0, owner: blocks)
        }()
        #expect(released != nil && matrix.byteCount == 34)
        let unowned = QuantMatrix(data: matrix.data, rows: 1, cols: 32, type: .q8_0)
        #expect(unowned.owner == nil && matrix.owner === released)
    }

    @Test func typeCodesAndBlockSizeAreGGMLs() {
        #expect([GGMLType.f32, .f16, .q4_0, .q4_1, .q8_0, .q6_K].map(\.rawValue) == [0, 1, 2, 3, 8, 14])
        #expect(GGMLType.q4_1.blockSize == Int(FMK_BLOCK) && GGMLType.q8_0.rowBytes(64) == 68)
        var out = [Float](repeating: 0, count: 32)
        let bytes = [UInt8](repeating: 0, count: 64)
        #expect(fmk_dequantize_row(Int32(GGMLType.q4_0.rawValue), bytes, 32, &out) == -1, "Q4_0 has no fast dequantizer")
    }
}
