import FMCore
import Foundation
import Testing

@Suite struct SHA256Tests {
    @Test func matchesFIPSVectors() {
        #expect(SHA256.hex(of: []) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex(of: [UInt8](repeating: 0x61, count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func streamingInAnySplitEqualsOneShot() throws {
        let data = (0 ..< 1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let expected = SHA256.hex(of: data)
        for split in [1, 55, 56, 63, 64, 65, 119, 128, 999] {
            var hasher = SHA256()
            var index = 0
            while index < data.count {
                let end = min(index + split, data.count)
                hasher.update(Array(data[index ..< end]))
                index = end
            }
            #expect(SHA256.hex(hasher.finalize()) == expected, "split \(split)")
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fmcore-sha256-\(UUID().uuidString).bin").path
        try Data(data).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(SHA256.hexOfFile(atPath: path) == expected)
    }
}
