/// The GPT-2 byte-level alphabet and the Unicode character classes the pre-tokenizer needs.
enum TokenizerUnicode {
    /// For each byte, the Unicode scalar GPT-2 vocabularies use to spell it: printable Latin-1 bytes
    /// (`!`…`~`, `¡`…`¬`, `®`…`ÿ`) stand for themselves, the other 68 map to U+0100 upward in byte order.
    static let byteToScalar: [UInt32] = {
        var table = [UInt32](repeating: 0, count: 256)
        var next: UInt32 = 256
        for byte in 0 ..< 256 {
            if (33 ... 126).contains(byte) || (161 ... 172).contains(byte) || (174 ... 255).contains(byte) {
                table[byte] = UInt32(byte)
            } else {
                table[byte] = next
                next += 1
            }
        }
        return table
    }()

    /// The inverse of `byteToScalar`: scalar value → byte, for scalars below 0x144.
    static let scalarToByte: [Int16] = {
        var table = [Int16](repeating: -1, count: 0x144)
        for (byte, scalar) in byteToScalar.enumerated() { table[Int(scalar)] = Int16(byte) }
        return table
    }()

    /// Decodes a vocabulary token spelled in the byte alphabet back to raw bytes; nil if a character
    /// is outside the alphabet (then the token is not a byte-level token).
    static func decodeByteLevel(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            let value = Int(scalar.value)
            guard value < scalarToByte.count, scalarToByte[value] >= 0 else { return nil }
            bytes.append(UInt8(scalarToByte[value]))
        }
        return bytes
    }

    /// Character-class bits: `\p{L}`, `\p{N}`, White_Space, and "a character" (absent only past the end).
    struct Flags: OptionSet {
        let rawValue: UInt8
        static let letter = Flags(rawValue: 1)
        static let number = Flags(rawValue: 2)
        static let whitespace = Flags(rawValue: 4)
        static let defined = Flags(rawValue: 8)
    }

    /// Flags of the 128 ASCII scalars, precomputed.
    private static let asciiFlags: [Flags] = (0 ..< 128).map { computeFlags(Unicode.Scalar(UInt8($0))) }

    /// The classes of `scalar`.
    @inline(__always) static func flags(_ scalar: Unicode.Scalar) -> Flags {
        scalar.value < 128 ? asciiFlags[Int(scalar.value)] : computeFlags(scalar)
    }

    private static func computeFlags(_ scalar: Unicode.Scalar) -> Flags {
        let properties = scalar.properties
        var flags: Flags = []
        switch properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter:
            flags.insert(.letter)
        case .decimalNumber, .letterNumber, .otherNumber:
            flags.insert(.number)
        default:
            break
        }
        if properties.isWhitespace { flags.insert(.whitespace) }
        // Like llama.cpp, unassigned code points still count as characters ("other"), never as the end.
        flags.insert(.defined)
        return flags
    }
}
