import FMEmbedded
import FMKernels
import Testing

@Test func theStreamSumReadsEveryWord() {
    for count in [0, 1, 7, 8, 9, 1_000] {
        let words = (0..<count).map { UInt64($0) * 3 + 1 }
        let sum = words.withUnsafeBufferPointer { fmk_stream_sum($0.baseAddress, $0.count) }
        #expect(sum == words.reduce(0, &+), "\(count) words")
    }
}

@Test func theBandwidthProbeKeepsEveryPassAndReportsTheBest() {
    let pool = ThreadPool(threadCount: 2)
    let probe = BandwidthProbe.measure(pool: pool, bytes: 4 << 20, passes: 5)
    #expect(probe.bytesPerSecond.count == 5)
    #expect(probe.bytesPerSecond.allSatisfy { $0 > 0 && $0.isFinite })
    #expect(probe.best >= probe.median && probe.median >= probe.worst)
    #expect(probe.spread >= 0 && probe.spread < 1)
}
