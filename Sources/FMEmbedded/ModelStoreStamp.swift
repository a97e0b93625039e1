import FMCore
import Foundation

/// What the cache remembers about the model file it last verified: size, modification time, inode and
/// digest, in `FILE.verified` beside it. While they match, loading skips the SHA-256 (about a second);
/// when the file changed in any of them (bytes overwritten, file replaced), it is verified again.
struct ModelStamp: Equatable {
    /// File size in bytes.
    var size: Int64
    /// Modification time, nanoseconds since 1970.
    var modified: Int64
    /// Inode number.
    var inode: UInt64
    /// The verified SHA-256 (hex).
    var sha256: String

    /// The stamp of the file at `path` as it is now, carrying `sha256`; nil when it cannot be read.
    static func current(of path: String, sha256: String) -> ModelStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        return ModelStamp(size: Int64(info.st_size), modified: modified, inode: UInt64(info.st_ino), sha256: sha256)
    }

    /// One line: `size mtime-ns inode sha256`.
    var line: String { "\(size) \(modified) \(inode) \(sha256)\n" }

    /// Parses `line`; nil for anything else.
    init?(line: String) {
        let fields = line.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard fields.count == 4, let size = Int64(fields[0]), let modified = Int64(fields[1]), let inode = UInt64(fields[2]) else { return nil }
        self.init(size: size, modified: modified, inode: inode, sha256: fields[3])
    }

    /// A stamp from its parts.
    init(size: Int64, modified: Int64, inode: UInt64, sha256: String) {
        self.size = size
        self.modified = modified
        self.inode = inode
        self.sha256 = sha256
    }
}

extension ModelStore {
    /// The side file holding the stamp of the verified model.
    var stampURL: URL { directory.appendingPathComponent(spec.fileName + ".verified") }

    /// Records that the cached model, as it is now, was verified (best effort: a read-only cache just
    /// means the next load verifies again).
    func writeStamp() {
        guard let stamp = ModelStamp.current(of: modelURL.path, sha256: spec.sha256) else { return }
        try? Data(stamp.line.utf8).write(to: stampURL, options: .atomic)
    }

    /// Checks the cached model before it is loaded: when its size, modification time or inode differ
    /// from the stamp written at verification (or there is no stamp yet), its SHA-256 is verified again.
    /// A model that fails is a corrupted cache: exit 3 telling to fetch it again.
    public func checkCachedModel(progress: (String) -> Void) throws {
        let recorded = (try? String(contentsOf: stampURL, encoding: .utf8)).flatMap(ModelStamp.init(line:))
        if let recorded {
            if recorded == ModelStamp.current(of: modelURL.path, sha256: spec.sha256) { return }
            progress("\(spec.fileName) changed on disk since it was verified; checking its SHA-256 again…")
        }
        guard let digest = SHA256.hexOfFile(atPath: modelURL.path) else {
            throw ModelStoreError(.io, "cannot read \(modelURL.path) to verify it; check its permissions, or run `fmeval model fetch --force`")
        }
        guard digest == spec.sha256 else {
            throw ModelStoreError(.corrupted, "the cached model \(modelURL.path) is corrupted: its SHA-256 is \(digest), not the verified "
                + "\(spec.sha256) (its bytes changed after it was installed); run `fmeval model fetch --force` to download and verify it again")
        }
        writeStamp()
    }
}
