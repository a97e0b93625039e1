import Foundation

/// Path arithmetic on plain strings, the one way fmeval takes paths apart and puts them together.
///
/// Foundation's `NSString` path methods trap on Linux for some shapes (a one-character relative path
/// such as `o` in `deletingLastPathComponent`), and `URL` path methods silently make a relative path
/// absolute; these functions are total (every string gives an answer) and purely lexical (nothing is
/// read from the file system, so they never follow a symbolic link).
public enum FilePaths {
    /// The folder holding `path`, as POSIX `dirname`: `a/b` → `a`, `o` → `.`, `/x` → `/`, `a/b/` → `a`,
    /// `""`, `.` and `..` → `.`.
    public static func parent(of path: String) -> String {
        let bytes = trimmingTrailingSlashes(Array(path.utf8))
        guard let slash = bytes.lastIndex(of: slashByte) else { return bytes == [slashByte] ? "/" : "." }
        let head = trimmingTrailingSlashes(Array(bytes[..<slash]))
        return head.isEmpty || head == [slashByte] ? "/" : String(decoding: head, as: UTF8.self)
    }

    /// The last component of `path`, as POSIX `basename`: `a/b/` → `b`, `/` → `/`, `""` → `""`.
    public static func lastComponent(of path: String) -> String {
        let bytes = trimmingTrailingSlashes(Array(path.utf8))
        guard bytes != [slashByte] else { return "/" }
        guard let slash = bytes.lastIndex(of: slashByte) else { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: bytes[(slash + 1)...], as: UTF8.self)
    }

    /// `name` below `folder`: `name` itself when it is absolute or `folder` is empty; one `/` between.
    public static func join(_ folder: String, _ name: String) -> String {
        if name.utf8.first == slashByte || folder.isEmpty { return name }
        if name.isEmpty { return folder }
        return folder.utf8.last == slashByte ? folder + name : folder + "/" + name
    }

    /// The extension of the last component without its dot (`a/b.tar.gz` → `gz`); empty for none, for a
    /// leading-dot name (`.hidden`) and for a trailing dot.
    public static func pathExtension(of path: String) -> String {
        let name = lastComponent(of: path)
        let bytes = Array(name.utf8)
        guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")), dot != 0 else { return "" }
        return String(decoding: bytes[(dot + 1)...], as: UTF8.self)
    }

    /// The last component without its extension (`models/smol.gguf` → `smol`).
    public static func stem(of path: String) -> String {
        let name = lastComponent(of: path)
        let suffix = pathExtension(of: name)
        return suffix.isEmpty ? name : String(decoding: name.utf8.dropLast(suffix.utf8.count + 1), as: UTF8.self)
    }

    /// `path` with `.` components, repeated slashes and `name/..` pairs removed (lexically, so a `..`
    /// after a symbolic link is not what the kernel would do); `..` above the root stays at the root,
    /// leading `..` of a relative path are kept; `""` and `.` → `.`.
    public static func normalized(_ path: String) -> String {
        let absolute = path.utf8.first == slashByte
        var parts: [String] = []
        let pieces = path.utf8.split(separator: slashByte, omittingEmptySubsequences: true)
        for part in pieces.map({ String(decoding: $0, as: UTF8.self) }) where part != "." {
            if part == ".." {
                if let last = parts.last, last != ".." {
                    parts.removeLast()
                } else if !absolute {
                    parts.append(part)
                }
            } else {
                parts.append(part)
            }
        }
        let body = parts.joined(separator: "/")
        if absolute { return "/" + body }
        return body.isEmpty ? "." : body
    }

    /// `path` made absolute against `base` (default: the current directory) and normalized.
    public static func absolute(_ path: String, base: String = FileManager.default.currentDirectoryPath) -> String {
        normalized(path.utf8.first == slashByte ? path : join(base, path))
    }

    /// Whether `path` is `folder` or below it (both compared after `absolute`).
    public static func isInside(_ path: String, folder: String) -> Bool {
        let path = absolute(path), folder = absolute(folder)
        let prefix = Array((folder == "/" ? "/" : folder + "/").utf8)
        return path == folder || Array(path.utf8).starts(with: prefix)
    }

    private static let slashByte = UInt8(ascii: "/")

    /// `bytes` without trailing slashes, but a lone `/` stays.
    private static func trimmingTrailingSlashes(_ bytes: [UInt8]) -> [UInt8] {
        var end = bytes.count
        while end > 1 && bytes[end - 1] == slashByte { end -= 1 }
        return Array(bytes[..<end])
    }
}
