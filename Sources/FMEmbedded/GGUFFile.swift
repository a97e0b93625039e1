#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A memory-mapped GGUF file (v2 or v3): header, metadata, tensor infos and tensor data pointers.
///
/// Tensor data is not copied: every `GGUFTensor.data` points into the map, which stays mapped as long
/// as this object or any tensor (or `QuantMatrix`) taken from it is alive. Everything is validated when the file is opened (bounds, alignment, types, shapes),
/// so a truncated or corrupt file fails here with the byte offset, never later with a crash.
// @unchecked Sendable: every property is a `let`, and the memory map they point into is read-only.
public final class GGUFFile: @unchecked Sendable {
    /// The file's path.
    public let path: String
    /// The GGUF format version (2 or 3).
    public let version: Int
    /// Metadata keys in file order.
    public let metadataKeys: [String]
    /// Metadata by key.
    public let metadata: [String: GGUFValue]
    /// Tensors in file order.
    public let tensors: [GGUFTensor]
    /// Alignment of tensor data (`general.alignment`, default 32).
    public let alignment: Int
    /// Byte offset of the tensor data section in the file.
    public let dataOffset: Int
    /// Size of the file in bytes.
    public let fileSize: Int

    private let mapping: FileMapping
    private let tensorIndex: [String: Int]

    /// The GGUF magic, "GGUF" read as a little-endian 32-bit integer.
    public static let magic: UInt32 = 0x4655_4747
    /// Default tensor data alignment when `general.alignment` is absent.
    public static let defaultAlignment = 32

    /// Maps and parses the file at `path`; throws `GGUFError` naming the byte offset of any problem.
    public init(path: String) throws {
        self.path = path
        // Non-blocking, so a FIFO is refused below instead of waiting for a writer for ever.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            throw GGUFError(path: path, offset: nil, message: "cannot open: \(reason)",
                            hint: "check the path, or run 'fmeval model fetch' for the default model")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw GGUFError(path: path, offset: nil, message: "cannot stat: \(String(cString: strerror(errno)))",
                            hint: "check the file's permissions")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw GGUFError(path: path, offset: nil, message: "is not a regular file", hint: "pass a .gguf model file")
        }
        let size = Int(info.st_size)
        fileSize = size
        guard size >= 8 else {
            throw GGUFError(path: path, offset: 0, message: "file is \(size) bytes, too short for a GGUF header")
        }
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else {
            throw GGUFError(path: path, offset: nil, message: "cannot memory-map: \(String(cString: strerror(errno)))",
                            hint: "check free address space and that the file is on a local disk")
        }
        // A parse failure releases `mapping`, which unmaps the file.
        mapping = FileMapping(base: base, size: size)
        let parsed = try Self.parse(mapping, path: path)
        version = parsed.version
        metadataKeys = parsed.keys
        metadata = parsed.metadata
        alignment = parsed.alignment
        dataOffset = parsed.dataOffset
        tensors = parsed.tensors
        var index: [String: Int] = [:]
        for (i, tensor) in parsed.tensors.enumerated() { index[tensor.name] = i }
        tensorIndex = index
    }

    /// The tensor called `name`, if present.
    public func tensor(named name: String) -> GGUFTensor? {
        tensorIndex[name].map { tensors[$0] }
    }

    /// The tensor called `name`; throws naming the file and the missing tensor.
    public func requireTensor(_ name: String) throws -> GGUFTensor {
        guard let tensor = tensor(named: name) else {
            throw GGUFError(path: path, offset: nil, message: "has no tensor '\(name)'",
                            hint: "use a llama-family GGUF model (see 'fmeval model info')")
        }
        return tensor
    }

    /// The string value of metadata `key`, if present and a string.
    public func string(_ key: String) -> String? { metadata[key]?.stringValue }

    /// The integer value of metadata `key`, if present and an integer.
    public func int(_ key: String) -> Int? { metadata[key]?.intValue }

    /// The numeric value of metadata `key` as a double, if present and numeric.
    public func double(_ key: String) -> Double? { metadata[key]?.doubleValue }

    /// The elements of array metadata `key`, if present and an array.
    public func array(_ key: String) -> [GGUFValue]? { metadata[key]?.arrayValue }

    /// `general.architecture`, e.g. `llama`.
    public var architecture: String? { string("general.architecture") }

    /// The integer metadata `key`; throws naming the key when it is absent or not an integer.
    public func requireInt(_ key: String) throws -> Int {
        guard let value = int(key) else {
            throw GGUFError(path: path, offset: nil, message: "metadata '\(key)' is missing or not an integer",
                            hint: "use a llama-family GGUF model (see 'fmeval model info')")
        }
        return value
    }

    /// The result of parsing a mapped file.
    private struct Parsed {
        var version: Int
        var keys: [String]
        var metadata: [String: GGUFValue]
        var alignment: Int
        var dataOffset: Int
        var tensors: [GGUFTensor]
    }

    private static func parse(_ mapping: FileMapping, path: String) throws -> Parsed {
        let bytes = UnsafeRawBufferPointer(start: mapping.base, count: mapping.size)
        var parser = GGUFParser(bytes: bytes, path: path)
        let magic = try parser.read(UInt32.self, "magic")
        guard magic == Self.magic else {
            let shown = bytes.prefix(4).map { (32 ... 126).contains($0) ? String(UnicodeScalar($0)) : "." }.joined()
            throw GGUFError(path: path, offset: 0, message: "not a GGUF file (starts with '\(shown)', expected 'GGUF')",
                            hint: "pass a .gguf model file, or run 'fmeval model fetch' for the default model")
        }
        let version = try parser.read(UInt32.self, "version")
        guard version == 2 || version == 3 else {
            let extra = version > 0xFFFF ? " (a big-endian GGUF? only little-endian is supported)" : ""
            throw GGUFError(path: path, offset: 4, message: "GGUF version \(version) is not supported\(extra)",
                            hint: "convert the model with a current llama.cpp (GGUF v3)")
        }
        let tensorCount = try parser.readCount("tensor count")
        let metadataCount = try parser.readCount("metadata count")
        var keys: [String] = []
        var metadata: [String: GGUFValue] = [:]
        for index in 0 ..< metadataCount {
            let keyStart = parser.position
            let key = try parser.readString("metadata key #\(index)")
            guard metadata[key] == nil else {
                parser.position = keyStart
                throw parser.failure("duplicate metadata key '\(key)'")
            }
            let type = try parser.readType("metadata '\(key)'")
            metadata[key] = try parser.readValue(type, "metadata '\(key)'")
            keys.append(key)
        }
        let alignment = try readAlignment(metadata, path: path)
        var infos: [(name: String, shape: [Int], type: GGMLType, offset: Int, at: Int)] = []
        var seen = Set<String>()
        for index in 0 ..< tensorCount {
            let start = parser.position
            let name = try parser.readString("name of tensor #\(index)")
            guard seen.insert(name).inserted else {
                parser.position = start
                throw parser.failure("duplicate tensor name '\(name)'")
            }
            let dimensions = Int(try parser.read(UInt32.self, "dimension count of tensor '\(name)'"))
            guard (1 ... 4).contains(dimensions) else {
                throw parser.failure("tensor '\(name)' has \(dimensions) dimensions (1–4 allowed)")
            }
            var shape: [Int] = []
            for axis in 0 ..< dimensions {
                shape.append(try parser.readCount("dimension \(axis) of tensor '\(name)'"))
            }
            let type = GGMLType(rawValue: try parser.read(UInt32.self, "type of tensor '\(name)'"))
            let offset = try parser.readCount("data offset of tensor '\(name)'")
            infos.append((name, shape, type, offset, start))
        }
        parser.align(to: alignment)
        let dataOffset = parser.position
        guard dataOffset <= bytes.count else {
            throw GGUFError(path: path, offset: bytes.count,
                            message: "file is truncated: tensor data would start at byte \(dataOffset) but the file is \(bytes.count) bytes")
        }
        var tensors: [GGUFTensor] = []
        tensors.reserveCapacity(infos.count)
        for info in infos {
            let byteCount = try tensorBytes(name: info.name, shape: info.shape, type: info.type, at: info.at, path: path)
            guard info.offset % alignment == 0 else {
                throw GGUFError(path: path, offset: info.at,
                                message: "tensor '\(info.name)' data offset \(info.offset) is not a multiple of the alignment \(alignment)")
            }
            let (end, overflow) = (dataOffset + info.offset).addingReportingOverflow(byteCount)
            guard !overflow, end <= bytes.count else {
                throw GGUFError(path: path, offset: info.at,
                                message: "file is truncated: tensor '\(info.name)' needs bytes \(dataOffset + info.offset)..<\(end) but the file is \(bytes.count) bytes")
            }
            tensors.append(GGUFTensor(name: info.name, shape: info.shape, type: info.type, offset: info.offset,
                                      byteCount: byteCount, data: bytes.baseAddress! + dataOffset + info.offset,
                                      owner: mapping))
        }
        return Parsed(version: Int(version), keys: keys, metadata: metadata, alignment: alignment,
                      dataOffset: dataOffset, tensors: tensors)
    }

    private static func readAlignment(_ metadata: [String: GGUFValue], path: String) throws -> Int {
        guard let value = metadata["general.alignment"] else { return defaultAlignment }
        guard case .uint32(let raw) = value, raw > 0, raw & (raw - 1) == 0 else {
            throw GGUFError(path: path, offset: nil,
                            message: "metadata 'general.alignment' is \(value.summary); it must be a uint32 power of two")
        }
        return Int(raw)
    }

    private static func tensorBytes(name: String, shape: [Int], type: GGMLType, at: Int, path: String) throws -> Int {
        guard let block = type.blockSize, let blockBytes = type.bytesPerBlock else {
            throw GGUFError(path: path, offset: at,
                            message: "tensor '\(name)' has type \(type), which fmeval cannot read",
                            hint: "use a model quantized as F32, F16, Q4_0, Q4_1, Q8_0 or Q6_K")
        }
        guard shape[0] % block == 0 else {
            throw GGUFError(path: path, offset: at,
                            message: "tensor '\(name)' row length \(shape[0]) is not a multiple of the \(type) block size \(block)")
        }
        var elements = 1
        for dimension in shape {
            let (product, overflow) = elements.multipliedReportingOverflow(by: dimension)
            guard !overflow, product <= Int(Int32.max) * 64 else {
                throw GGUFError(path: path, offset: at, message: "tensor '\(name)' shape \(shape) is impossibly large")
            }
            elements = product
        }
        return elements / block * blockBytes
    }
}

/// A read-only memory map of a whole file, unmapped when the last holder (the `GGUFFile`, or a tensor
/// or matrix pointing into it) lets go.
// @unchecked Sendable: the map is read-only and unmapped only in `deinit`, when no thread holds it.
final class FileMapping: @unchecked Sendable {
    /// The first mapped byte.
    let base: UnsafeMutableRawPointer
    /// Mapped bytes.
    let size: Int

    /// Takes ownership of the map at `base` of `size` bytes.
    init(base: UnsafeMutableRawPointer, size: Int) {
        self.base = base
        self.size = size
    }

    deinit { munmap(base, size) }
}
