/// The value types a GGUF metadata entry can hold (the `gguf_type` numbers of the format).
public enum GGUFValueType: UInt32, Sendable, CaseIterable {
    /// Unsigned 8-bit integer.
    case uint8 = 0
    /// Signed 8-bit integer.
    case int8 = 1
    /// Unsigned 16-bit integer.
    case uint16 = 2
    /// Signed 16-bit integer.
    case int16 = 3
    /// Unsigned 32-bit integer.
    case uint32 = 4
    /// Signed 32-bit integer.
    case int32 = 5
    /// 32-bit IEEE float.
    case float32 = 6
    /// One byte, 0 or 1.
    case bool = 7
    /// UTF-8 string with a 64-bit length prefix.
    case string = 8
    /// Typed array with a 64-bit count; arrays may nest.
    case array = 9
    /// Unsigned 64-bit integer.
    case uint64 = 10
    /// Signed 64-bit integer.
    case int64 = 11
    /// 64-bit IEEE float.
    case float64 = 12
}

/// One GGUF metadata value.
public enum GGUFValue: Sendable, Equatable {
    /// Unsigned 8-bit integer.
    case uint8(UInt8)
    /// Signed 8-bit integer.
    case int8(Int8)
    /// Unsigned 16-bit integer.
    case uint16(UInt16)
    /// Signed 16-bit integer.
    case int16(Int16)
    /// Unsigned 32-bit integer.
    case uint32(UInt32)
    /// Signed 32-bit integer.
    case int32(Int32)
    /// 32-bit float.
    case float32(Float)
    /// Boolean.
    case bool(Bool)
    /// String (the raw bytes are kept as UTF-8; invalid sequences are repaired).
    case string(String)
    /// Array of values, all of `elementType`.
    case array(elementType: GGUFValueType, values: [GGUFValue])
    /// Unsigned 64-bit integer.
    case uint64(UInt64)
    /// Signed 64-bit integer.
    case int64(Int64)
    /// 64-bit float.
    case float64(Double)

    /// The value's type tag.
    public var type: GGUFValueType {
        switch self {
        case .uint8: return .uint8
        case .int8: return .int8
        case .uint16: return .uint16
        case .int16: return .int16
        case .uint32: return .uint32
        case .int32: return .int32
        case .float32: return .float32
        case .bool: return .bool
        case .string: return .string
        case .array: return .array
        case .uint64: return .uint64
        case .int64: return .int64
        case .float64: return .float64
        }
    }

    /// The value as an integer when it is any integer type that fits an `Int`.
    public var intValue: Int? {
        switch self {
        case .uint8(let v): return Int(v)
        case .int8(let v): return Int(v)
        case .uint16(let v): return Int(v)
        case .int16(let v): return Int(v)
        case .uint32(let v): return Int(v)
        case .int32(let v): return Int(v)
        case .uint64(let v): return v <= UInt64(Int.max) ? Int(v) : nil
        case .int64(let v): return Int(v)
        default: return nil
        }
    }

    /// The value as a double when it is numeric (integer or float).
    public var doubleValue: Double? {
        switch self {
        case .float32(let v): return Double(v)
        case .float64(let v): return v
        default: return intValue.map(Double.init)
        }
    }

    /// The string payload, when this is a string.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The boolean payload, when this is a bool.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The elements, when this is an array.
    public var arrayValue: [GGUFValue]? {
        if case .array(_, let values) = self { return values }
        return nil
    }

    /// A short human-readable rendering (long arrays are summarised).
    public var summary: String {
        switch self {
        case .string(let s):
            let clipped = s.count > 80 ? String(s.prefix(77)) + "..." : s
            return "\"" + clipped.replacingOccurrences(of: "\n", with: "\\n") + "\""
        case .array(let elementType, let values):
            if values.count > 6 {
                return "[\(elementType) × \(values.count)]"
            }
            return "[" + values.map(\.summary).joined(separator: ", ") + "]"
        case .bool(let b): return b ? "true" : "false"
        case .float32(let v): return "\(v)"
        case .float64(let v): return "\(v)"
        default: return intValue.map(String.init) ?? "\(self)"
        }
    }
}
