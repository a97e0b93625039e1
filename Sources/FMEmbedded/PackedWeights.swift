import FMKernels

/// Copies of the layers' Q4_1 matrices in the layout the decode kernel of a level reads when that level
/// packs (`fmk_level_packs_q4_1`: AVX-512 VNNI, AVX2): the blocks of `FMK_Q4_1_PACK_ROWS` rows side by side,
/// so four loads take a block of every row of a group (`fmk_pack_q4_1`). Prefill passes of
/// `ForwardPass.packedPassTokens` or more still read the mapped ggml layout, so a packing level holds
/// the layer weights twice (66 MB more for SmolLM2-135M). The copies lie in 2 MB pages where the system
/// gives them (`LargePageMemory`).
final class PackedWeights {
    private let storage: LargePageMemory?
    private let starts: [UnsafeRawPointer: UnsafeRawPointer]

    /// Packs every Q4_1 matrix of `candidates` whose rows come in whole groups, on `pool`'s
    /// threads, when `pool`'s level packs; otherwise holds nothing.
    init(_ candidates: [QuantMatrix], pool: ThreadPool) {
        let packs = fmk_level_packs_q4_1(pool.kernelLevel.rawValue) != 0
        let matrices = packs ? candidates.filter { $0.type == .q4_1 && $0.rows % Int(FMK_Q4_1_PACK_ROWS) == 0 } : []
        let offsets = matrices.reduce(into: [0]) { $0.append($0.last! + $1.byteCount) }
        guard let total = offsets.last, total > 0 else {
            storage = nil
            starts = [:]
            return
        }
        let storage = LargePageMemory(byteCount: total), base = storage.base
        let workers = pool.activeCount
        pool.run { worker in
            for i in stride(from: worker, to: matrices.count, by: workers) {
                let m = matrices[i]
                fmk_pack_q4_1(m.data, Int32(m.rows), Int32(m.cols), base + offsets[i])
            }
        }
        self.storage = storage
        starts = Dictionary(uniqueKeysWithValues: matrices.indices.map {
            (matrices[$0].data, UnsafeRawPointer(base + offsets[$0]))
        })
    }

    /// The packed copy of `matrix`, or nil when it has none.
    func packed(_ matrix: QuantMatrix) -> UnsafeRawPointer? { starts[matrix.data] }
}
