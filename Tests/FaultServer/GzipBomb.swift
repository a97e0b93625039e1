/// gzip members (RFC 1952) for tests of decompression: a bomb that inflates to `count` zero bytes,
/// and any small body stored uncompressed.
public enum GzipBomb {
    /// `bytes` (at most 65535) in one stored deflate block (RFC 1951 §3.2.4).
    public static func stored(_ bytes: [UInt8]) -> [UInt8] {
        precondition(bytes.count <= 0xFFFF)
        let length = UInt16(bytes.count)
        var member: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF, 1]
        member += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)] + bytes
        member += littleEndian(crc32(bytes, zeros: 0))
        member += littleEndian(UInt32(bytes.count))
        return member
    }

    /// The compressed bytes of `count` zeros (count ≥ 1), in fixed-Huffman deflate (RFC 1951 §3.2.6):
    /// one literal zero, then back-references of length 258 at distance 1 (13 bits per 258 bytes,
    /// about 160:1), then literal zeros for the rest.
    public static func zeros(_ count: Int) -> [UInt8] {
        var bits = BitWriter()
        bits.write(1, count: 1)
        bits.write(1, count: 2)
        bits.writeCode(0x30, length: 8)
        var left = count - 1
        while left >= 258 {
            bits.writeCode(0xC5, length: 8)
            bits.writeCode(0, length: 5)
            left -= 258
        }
        for _ in 0..<left { bits.writeCode(0x30, length: 8) }
        bits.writeCode(0, length: 7)
        var member: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
        member += bits.finished()
        member += littleEndian(crc32([], zeros: count))
        member += littleEndian(UInt32(truncatingIfNeeded: count))
        return member
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// CRC-32 (IEEE, reflected) of `bytes` followed by `zeros` zero bytes.
    private static func crc32(_ bytes: [UInt8], zeros: Int) -> UInt32 {
        var table = [UInt32](repeating: 0, count: 256)
        for index in 0..<256 {
            var value = UInt32(index)
            for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
            table[index] = value
        }
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        for _ in 0..<zeros { crc = table[Int(crc & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}

/// Packs bits least-significant first, as deflate does.
private struct BitWriter {
    private var bytes: [UInt8] = []
    private var current: UInt32 = 0
    private var used: UInt32 = 0

    /// Writes the low `count` bits of `value`, least significant first (header fields, extra bits).
    mutating func write(_ value: UInt32, count: UInt32) {
        for bit in 0..<count { push((value >> bit) & 1) }
    }

    /// Writes a Huffman code of `length` bits, most significant first.
    mutating func writeCode(_ code: UInt32, length: UInt32) {
        for bit in (0..<length).reversed() { push((code >> bit) & 1) }
    }

    /// The bytes, the last one padded with zero bits.
    mutating func finished() -> [UInt8] {
        if used > 0 { bytes.append(UInt8(current)) }
        return bytes
    }

    private mutating func push(_ bit: UInt32) {
        current |= bit << used
        used += 1
        if used == 8 {
            bytes.append(UInt8(current))
            current = 0
            used = 0
        }
    }
}
