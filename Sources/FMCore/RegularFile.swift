import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The check every file a suite or a flag names passes before fmeval reads it: the path must resolve
/// to a regular file outside the kernel's file systems, so that no FIFO hangs a run, no device is read
/// for ever and no `/proc/self/environ` puts fmeval's environment (API keys included) into results.
public enum RegularFile {
    /// Folders whose files are the kernel's views of processes and devices, never test data.
    public static let kernelFolders = ["/proc", "/dev", "/sys"]

    /// Why `path` may not be read, or nil when it resolves to a regular file. With `tree`, a path that
    /// lies in `tree` but resolves (through a symbolic link) outside it is refused unless `allowLinksOut`.
    public static func problem(_ path: String, tree: String? = nil, allowLinksOut: Bool = false) -> String? {
        guard !path.isEmpty else { return "the path is empty" }
        guard let resolved = realPath(path) else {
            return errno == ENOENT || errno == ENOTDIR ? "does not exist" : String(cString: strerror(errno))
        }
        if let folder = kernelFolders.first(where: { FilePaths.isInside(resolved, folder: $0) }) {
            let shown = resolved == FilePaths.absolute(path) ? "" : " (it resolves to \(resolved))"
            return "is in \(folder), a kernel file system, not a file of test data\(shown); refer to a regular file"
        }
        var info = stat()
        guard stat(resolved, &info) == 0 else { return String(cString: strerror(errno)) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return "is a folder, not a file"
        case S_IFIFO: return "is a FIFO (named pipe), not a regular file; reading it could wait for ever"
        case S_IFSOCK: return "is a socket, not a regular file"
        case S_IFCHR, S_IFBLK: return "is a device, not a regular file"
        default: return "is not a regular file"
        }
        if let tree, !allowLinksOut, FilePaths.isInside(path, folder: tree) {
            let root = realPath(tree) ?? FilePaths.absolute(tree)
            if !FilePaths.isInside(resolved, folder: root) {
                return "is a symbolic link to \(resolved), outside the suite's folder \(root); copy the file into the "
                    + "suite's folder, or set 'allowLinksOutsideSuite: true' in the suite to follow such links"
            }
        }
        return nil
    }

    /// `path` with every symbolic link resolved, or nil (with `errno` set) when it cannot be.
    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The contents of `path` after `problem` found none; `what` names the file in the error.
    public static func read(_ path: String, what: String) throws -> Data {
        if let problem = problem(path) { throw FileReferenceError(path: path, what: what, problem: problem) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FileReferenceError(path: path, what: what, problem: "cannot be read")
        }
        return data
    }
}

/// A file a suite or a flag names that fmeval refuses to read, and why.
public struct FileReferenceError: Error, CustomStringConvertible, Sendable {
    /// The path as given.
    public var path: String
    /// What the file is for (`model`, `tool output`).
    public var what: String
    /// Why it is refused.
    public var problem: String

    /// Creates an error.
    public init(path: String, what: String, problem: String) {
        self.path = path
        self.what = what
        self.problem = problem
    }

    /// `the model file 'x' is a FIFO …`.
    public var description: String { "the \(what) file '\(path)' \(problem)" }
}
