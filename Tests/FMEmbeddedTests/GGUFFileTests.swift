import Foundation
import Testing
@testable import FMEmbedded

/// A fresh path under the temporary directory for one test file.
func temporaryPath(_ name: String) -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-gguf-tests-\(getpid())")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory.appendingPathComponent(UUID().uuidString + "-" + name).path
}

/// Writes `bytes` to a fresh temporary file and returns its path.
func writeTemporary(_ bytes: [UInt8], name: String = "model.gguf") throws -> String {
    let path = temporaryPath(name)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
}

@Suite struct GGUFFileTests {
    @Test func readsEveryMetadataTypeIncludingNestedArrays() throws {
        var writer = GGUFWriter()
        let values: [(String, GGUFValue)] = [
            ("u8", .uint8(200)), ("i8", .int8(-100)), ("u16", .uint16(60000)), ("i16", .int16(-30000)),
            ("u32", .uint32(4_000_000_000)), ("i32", .int32(-2_000_000_000)), ("f32", .float32(1.5)),
            ("yes", .bool(true)), ("no", .bool(false)), ("s", .string("héllo\n")),
            ("u64", .uint64(UInt64.max)), ("i64", .int64(Int64.min)), ("f64", .float64(-2.25)),
            ("empty", .array(elementType: .string, values: [])),
            ("strings", .array(elementType: .string, values: [.string("a"), .string(""), .string("ü")])),
            ("nested", .array(elementType: .array, values: [
                .array(elementType: .int32, values: [.int32(1), .int32(2)]),
                .array(elementType: .array, values: [.array(elementType: .bool, values: [.bool(true)])]),
            ])),
        ]
        for (key, value) in values { writer.add(key, value) }
        let file = try GGUFFile(path: try writeTemporary(writer.bytes()))
        #expect(file.version == 3)
        #expect(file.metadataKeys == values.map(\.0))
        for (key, value) in values { #expect(file.metadata[key] == value, "key \(key)") }
        #expect(file.int("u64") == nil)
        #expect(file.int("i32") == -2_000_000_000)
        #expect(file.string("s") == "héllo\n")
        #expect(file.tensors.isEmpty)
    }

    @Test func readsTensorInfosShapesAndAlignedData() throws {
        for alignment in [32, 64] {
            var writer = GGUFWriter(alignment: alignment)
            writer.add("general.architecture", .string("llama"))
            writer.addTensor(name: "a", shape: [3], floats: [1, 2, 3])
            writer.addTensor(name: "b", shape: [2, 2], floats: [4, 5, 6, 7])
            writer.addTensor(name: "q", shape: [32, 2], type: .q8_0, data: [UInt8](repeating: 1, count: 68))
            let file = try GGUFFile(path: try writeTemporary(writer.bytes()))
            #expect(file.alignment == alignment)
            #expect(file.dataOffset % alignment == 0)
            #expect(file.architecture == "llama")
            #expect(file.tensors.map(\.name) == ["a", "b", "q"])
            let b = try file.requireTensor("b")
            #expect(b.shape == [2, 2] && b.rowLength == 2 && b.rowCount == 2 && b.rowBytes == 8)
            #expect(b.offset % alignment == 0)
            let floats = (0 ..< 4).map { b.data.loadUnaligned(fromByteOffset: $0 * 4, as: Float.self) }
            #expect(floats == [4, 5, 6, 7])
            #expect(b.row(1).loadUnaligned(as: Float.self) == 6)
            let q = try file.requireTensor("q")
            #expect(q.type == .q8_0 && q.byteCount == 68 && q.elementCount == 64)
            #expect(file.tensor(named: "missing") == nil)
            #expect(throws: GGUFError.self) { try file.requireTensor("missing") }
        }
    }

    @Test func rejectsNonGGUFWithMagicInMessage() throws {
        let path = try writeTemporary(Array("PK\u{3}\u{4} this is a zip".utf8))
        let error = try #require(throws: GGUFError.self) { try GGUFFile(path: path) }
        #expect(error.description.contains("not a GGUF file"))
        #expect(error.description.contains(path))
        #expect(error.offset == 0)
    }

    @Test func rejectsEveryTruncationWithoutCrashing() throws {
        var writer = GGUFWriter()
        writer.add("general.architecture", .string("llama"))
        writer.add("list", .array(elementType: .array, values: [.array(elementType: .uint16, values: [.uint16(9)])]))
        writer.addTensor(name: "w", shape: [4], floats: [1, 2, 3, 4])
        let full = writer.bytes()
        let complete = try GGUFFile(path: try writeTemporary(full))
        let tensor = try complete.requireTensor("w")
        // Bytes after the last tensor's data are padding; every shorter prefix must be rejected.
        let needed = complete.dataOffset + tensor.offset + tensor.byteCount
        for length in 0 ..< needed {
            let path = try writeTemporary(Array(full.prefix(length)))
            let error = try #require(throws: GGUFError.self, "length \(length)") { try GGUFFile(path: path) }
            #expect(!error.message.isEmpty)
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    @Test func rejectsCorruptHeaders() throws {
        func corrupted(_ edit: (inout [UInt8]) -> Void) throws -> GGUFError {
            var writer = GGUFWriter()
            writer.add("k", .uint32(7))
            writer.addTensor(name: "w", shape: [4], floats: [1, 2, 3, 4])
            var bytes = writer.bytes()
            edit(&bytes)
            let path = try writeTemporary(bytes)
            return try #require(throws: GGUFError.self) { try GGUFFile(path: path) }
        }
        // Layout: magic(4) version(4) tensors(8) kvs(8) | key len(8) "k"(1) type(4) value(4) | tensor info…
        #expect(try corrupted { $0[4] = 1 }.message.contains("version 1"))
        #expect(try corrupted { $0[4] = 0; $0[7] = 3 }.message.contains("big-endian"))
        #expect(try corrupted { $0[33] = 99 }.message.contains("unknown value type 99"))
        #expect(try corrupted { $0[16] = 0xFF; $0[23] = 0x7F }.message.contains("impossibly large"))
        let typeOffset = 41 + 8 + 1 + 4 + 8
        #expect(try corrupted { $0[typeOffset] = 7 }.message.contains("cannot read"))
        #expect(try corrupted { $0[typeOffset + 4] = 4 }.message.contains("alignment"))
        #expect(try corrupted { $0[41 + 8 + 1] = 9 }.message.contains("dimensions"))
    }

    @Test func rejectsDuplicateKeysAndBadAlignment() throws {
        var duplicate = GGUFWriter()
        duplicate.add("k", .uint8(1))
        duplicate.add("k", .uint8(2))
        let error = try #require(throws: GGUFError.self) { try GGUFFile(path: try writeTemporary(duplicate.bytes())) }
        #expect(error.message.contains("duplicate metadata key 'k'"))
        var badAlignment = GGUFWriter()
        badAlignment.add("general.alignment", .uint32(24))
        let alignError = try #require(throws: GGUFError.self) { try GGUFFile(path: try writeTemporary(badAlignment.bytes())) }
        #expect(alignError.message.contains("power of two"))
    }

    @Test func rejectsMissingFileAndDirectory() throws {
        let missing = try #require(throws: GGUFError.self) { try GGUFFile(path: "/nonexistent/model.gguf") }
        #expect(missing.description.contains("/nonexistent/model.gguf"))
        #expect(throws: GGUFError.self) { try GGUFFile(path: NSTemporaryDirectory()) }
    }
}
