import Foundation
import Testing
@testable import FMEmbedded

/// Memory for the arrays decode streams, in 2 MB pages where Linux gives them.
@Suite struct LargePageMemoryTests {
    @Test(arguments: [1, 64, LargePageMemory.pageBytes, 3 * LargePageMemory.pageBytes + 5])
    func everyByteAskedForCanBeWrittenAndReadBack(byteCount: Int) {
        let memory = LargePageMemory(byteCount: byteCount)
        let bytes = memory.base.bindMemory(to: UInt8.self, capacity: byteCount)
        for i in stride(from: 0, to: byteCount, by: 4096) { bytes[i] = UInt8(truncatingIfNeeded: i / 4096 + 1) }
        bytes[byteCount - 1] = 0xA5
        for i in stride(from: 0, to: byteCount - 1, by: 4096) {
            #expect(bytes[i] == UInt8(truncatingIfNeeded: i / 4096 + 1), "byte \(i)")
        }
        #expect(bytes[byteCount - 1] == 0xA5)
        #expect(Int(bitPattern: memory.base) % 64 == 0)
    }

    #if os(Linux)
    @Test func onLinuxItStartsOnAHugePageTheKernelMayBackWithOne() throws {
        let memory = LargePageMemory(byteCount: 5 * LargePageMemory.pageBytes)
        let start = Int(bitPattern: memory.base)
        #expect(start % LargePageMemory.pageBytes == 0)
        let mode = Self.text(of: "/sys/kernel/mm/transparent_hugepage/enabled") ?? ""
        let offered = mode.contains("[always]") || mode.contains("[madvise]")
        let eligible = try #require(Self.hugePageEligibility(of: start) as Bool?,
                                    "no mapping in /proc/self/smaps holds it")
        // Eligibility is what the advice sets; whether a huge page was free to back it is the kernel's call.
        #expect(eligible == offered, "THPeligible \(eligible) with transparent_hugepage \(mode)")
    }

    /// The `THPeligible` flag of the mapping in /proc/self/smaps that holds `address`, or nil.
    static func hugePageEligibility(of address: Int) -> Bool? {
        guard let smaps = text(of: "/proc/self/smaps") else { return nil }
        var inside = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let range = fields.first, range.contains("-"), !range.hasSuffix(":") {
                let ends = range.split(separator: "-").compactMap { Int($0, radix: 16) }
                inside = ends.count == 2 && ends[0] <= address && address < ends[1]
            } else if inside, fields.first == "THPeligible:" {
                return fields.count > 1 && fields[1] == "1"
            }
        }
        return nil
    }

    /// A kernel file's text, read to its end: procfs files report no size to read by.
    static func text(of path: String) -> String? {
        guard let file = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? file.close() }
        return String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
    }
    #endif
}
