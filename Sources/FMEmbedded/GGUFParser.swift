/// A bounds-checked little-endian reader over the bytes of a GGUF file.
struct GGUFParser {
    /// The whole file.
    let bytes: UnsafeRawBufferPointer
    /// The file's path, for error messages.
    let path: String
    /// The next byte to read.
    var position = 0

    /// Most nesting allowed for arrays of arrays (guards against malicious recursion).
    static let maximumNesting = 16

    /// An error at the current position.
    func failure(_ message: String, hint: String = GGUFError.redownloadHint) -> GGUFError {
        GGUFError(path: path, offset: position, message: message, hint: hint)
    }

    /// Throws a truncation error unless `count` more bytes are available.
    func require(_ count: Int, for what: String) throws {
        guard count >= 0, count <= bytes.count - position else {
            throw failure("file is truncated: \(what) needs \(count) bytes but only \(bytes.count - position) remain (file is \(bytes.count) bytes)")
        }
    }

    /// Reads one fixed-size little-endian integer or float.
    mutating func read<T: FixedWidthInteger>(_ type: T.Type, _ what: String) throws -> T {
        try require(MemoryLayout<T>.size, for: what)
        let value = bytes.loadUnaligned(fromByteOffset: position, as: T.self)
        position += MemoryLayout<T>.size
        return T(littleEndian: value)
    }

    /// Reads a 32-bit float.
    mutating func readFloat(_ what: String) throws -> Float {
        Float(bitPattern: try read(UInt32.self, what))
    }

    /// Reads a 64-bit float.
    mutating func readDouble(_ what: String) throws -> Double {
        Double(bitPattern: try read(UInt64.self, what))
    }

    /// Reads a 64-bit count or length and checks it fits an `Int`.
    mutating func readCount(_ what: String) throws -> Int {
        let raw = try read(UInt64.self, what)
        guard raw <= UInt64(Int.max / 2) else { throw failure("\(what) is \(raw), which is impossibly large") }
        return Int(raw)
    }

    /// Reads a GGUF string: a 64-bit byte length then UTF-8 bytes.
    mutating func readString(_ what: String) throws -> String {
        let length = try readCount("length of \(what)")
        try require(length, for: what)
        let slice = UnsafeRawBufferPointer(rebasing: bytes[position ..< position + length])
        position += length
        return String(decoding: slice, as: UTF8.self)
    }

    /// Reads a value type tag.
    mutating func readType(_ what: String) throws -> GGUFValueType {
        let start = position
        let raw = try read(UInt32.self, what)
        guard let type = GGUFValueType(rawValue: raw) else {
            position = start
            throw failure("\(what) has unknown value type \(raw) (known: 0–12)")
        }
        return type
    }

    /// Reads one value of `type`, recursing into arrays.
    mutating func readValue(_ type: GGUFValueType, _ what: String, depth: Int = 0) throws -> GGUFValue {
        switch type {
        case .uint8: return .uint8(try read(UInt8.self, what))
        case .int8: return .int8(try read(Int8.self, what))
        case .uint16: return .uint16(try read(UInt16.self, what))
        case .int16: return .int16(try read(Int16.self, what))
        case .uint32: return .uint32(try read(UInt32.self, what))
        case .int32: return .int32(try read(Int32.self, what))
        case .float32: return .float32(try readFloat(what))
        case .uint64: return .uint64(try read(UInt64.self, what))
        case .int64: return .int64(try read(Int64.self, what))
        case .float64: return .float64(try readDouble(what))
        case .bool:
            let raw = try read(UInt8.self, what)
            guard raw <= 1 else {
                position -= 1
                throw failure("\(what) is a bool with byte value \(raw) (must be 0 or 1)")
            }
            return .bool(raw == 1)
        case .string:
            return .string(try readString(what))
        case .array:
            guard depth < Self.maximumNesting else {
                throw failure("\(what) nests arrays more than \(Self.maximumNesting) deep")
            }
            let elementType = try readType("element type of \(what)")
            let count = try readCount("element count of \(what)")
            // Every element takes at least one byte (strings and arrays at least eight), so a count
            // larger than the remaining bytes is a truncated or corrupt file, not a reason to allocate.
            try require(count, for: "\(count) elements of \(what)")
            var values: [GGUFValue] = []
            values.reserveCapacity(count)
            for index in 0 ..< count {
                values.append(try readValue(elementType, "\(what)[\(index)]", depth: depth + 1))
            }
            return .array(elementType: elementType, values: values)
        }
    }

    /// Moves to the next multiple of `alignment`.
    mutating func align(to alignment: Int) {
        let remainder = position % alignment
        if remainder != 0 { position += alignment - remainder }
    }
}
