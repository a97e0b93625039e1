import FMEmbedded
import FMKernels
import Testing

@Test func theStreamSumReadsEveryWordAtEveryLevel() {
    // Counts around each level's step (8, 16 and 32 words) and a start off the 64-byte grid.
    let words = (0..<1_100).map { UInt64($0) &* 0x9E37_79B9_7F4A_7C15 &+ 1 }
    for level in supportedLevels {
        for count in [0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 1_000] {
            for start in [0, 3] {
                let sum = atLevel(level) {
                    words.withUnsafeBufferPointer { fmk_stream_sum($0.baseAddress! + start, count) }
                }
                let expected = words[start..<start + count].reduce(0, &+)
                #expect(sum == expected, "\(levelName(level)): \(count) words from \(start)")
            }
        }
    }
}

@Test func theBandwidthProbeKeepsEveryPassAndReportsTheBest() {
    let pool = ThreadPool(threadCount: 2)
    let probe = BandwidthProbe(bytesPerSecond: BandwidthProbe.Reader(pool: pool, bytes: 4 << 20).read(passes: 5))
    #expect(probe.bytesPerSecond.count == 5)
    #expect(probe.bytesPerSecond.allSatisfy { $0 > 0 && $0.isFinite })
    #expect(probe.best >= probe.median && probe.median >= probe.worst)
    #expect(probe.spread >= 0 && probe.spread < 1)
}

@Test func aReaderRunsPassesWhenAskedOverTheSameBuffer() {
    let pool = ThreadPool(threadCount: 2)
    let reader = BandwidthProbe.Reader(pool: pool, bytes: 4 << 20)
    let first = reader.read(passes: 3), second = reader.read(passes: 2)
    #expect(first.count == 3 && second.count == 2)
    #expect((first + second).allSatisfy { $0 > 0 && $0.isFinite })
    #expect(reader.read(passes: 0).isEmpty)
}
