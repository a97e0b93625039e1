import Foundation
import Testing
@testable import FMEmbedded

/// A cached model whose bytes change after verification is caught at load, not run.
@Suite struct ModelStampTests {
    /// A store whose cache holds the tiny test model, installed by hand (no stamp yet).
    func cachedStore() throws -> ModelStore {
        let cache = URL(fileURLWithPath: temporaryPath("stamp"))
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let store = ModelStore(spec: ModelStoreTests.spec(), environment: ["FMEVAL_MODEL_DIR": cache.path])
        try Data(ModelStoreTests.model).write(to: store.modelURL)
        return store
    }

    @Test func theFirstLoadVerifiesAndStampsLaterLoadsTrustTheStamp() throws {
        let store = try cachedStore()
        #expect(!FileManager.default.fileExists(atPath: store.stampURL.path))
        var lines: [String] = []
        #expect(try store.cachedOrFetchedURL { lines.append($0) } == store.modelURL)
        let stamp = try String(contentsOf: store.stampURL, encoding: .utf8)
        #expect(stamp.hasSuffix(" \(ModelStoreTests.spec().sha256)\n"))
        #expect(lines.isEmpty)
        // With the stamp matching, the hash is not computed again: a byte changed behind the stamp's
        // back (same size, mtime and inode restored) goes unnoticed, which shows the check is cheap.
        var info = stat()
        #expect(stat(store.modelURL.path, &info) == 0)
        try overwrite(store.modelURL, at: 8)
        let times = [info.st_atim, info.st_mtim]
        #expect(utimensat(AT_FDCWD, store.modelURL.path, times, 0) == 0)
        _ = try store.cachedOrFetchedURL { lines.append($0) }
        #expect(lines.isEmpty)
    }

    @Test func bytesOverwrittenInPlaceAreCorruption() throws {
        let store = try cachedStore()
        _ = try store.cachedOrFetchedURL { _ in }
        try overwrite(store.modelURL, at: ModelStoreTests.model.count - 3)
        var lines: [String] = []
        let started = Date()
        let error = try #require(throws: ModelStoreError.self) { try store.cachedOrFetchedURL { lines.append($0) } }
        print("corrupted model detected in \(Date().timeIntervalSince(started) * 1000) ms")
        #expect(error.kind == .corrupted)
        #expect(error.message.contains("is corrupted: its SHA-256 is "))
        #expect(error.message.hasSuffix("run `fmeval model fetch --force` to download and verify it again"))
        #expect(lines == ["tiny.gguf changed on disk since it was verified; checking its SHA-256 again…"])
        // Without any stamp (a copied cache), the hash is checked too.
        try FileManager.default.removeItem(at: store.stampURL)
        #expect(throws: ModelStoreError.self) { try store.cachedOrFetchedURL { _ in } }
    }

    @Test func aReplacedButIntactModelIsVerifiedAndStampedAgain() throws {
        let store = try cachedStore()
        _ = try store.cachedOrFetchedURL { _ in }
        let old = try String(contentsOf: store.stampURL, encoding: .utf8)
        let copy = store.directory.appendingPathComponent("copy.gguf")
        try Data(ModelStoreTests.model).write(to: copy)
        #expect(rename(copy.path, store.modelURL.path) == 0)
        var lines: [String] = []
        _ = try store.cachedOrFetchedURL { lines.append($0) }
        #expect(lines.count == 1)
        #expect(try String(contentsOf: store.stampURL, encoding: .utf8) != old, "a new inode, a new stamp")
    }

    /// Flips the byte at `offset` of `url` in place (same size).
    func overwrite(_ url: URL, at offset: Int) throws {
        let handle = try FileHandle(forUpdating: url)
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(offset))
        let byte = try handle.read(upToCount: 1)?.first ?? 0
        try handle.seek(toOffset: UInt64(offset))
        try handle.write(contentsOf: [byte ^ 0xFF])
    }
}
