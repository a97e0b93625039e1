import Foundation
import FMCore

/// Checks, before anything runs, that the files a run will write can be written, so that a bad
/// `--out`, `--json`, `--junit` or `--html` is an exit-2 error in one line instead of a failure after
/// every case ran.
public enum OutputPaths {
    /// Makes sure a file can be written at `path`: creates its parent folders (as writing it would),
    /// refuses a folder at `path`, and probes the folder with a temporary file. `flag` names the
    /// option that gave the path (for example `--junit report.xml`) in the message.
    public static func check(_ path: String, flag: String) throws {
        let manager = FileManager.default
        guard !path.isEmpty else { throw Fault.invalidInput("\(flag): the path is empty; give a file path") }
        let folder = FilePaths.parent(of: path)
        var isFolder: ObjCBool = false
        if manager.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw Fault.invalidInput("\(flag): \(path) is a folder; give a file path")
        }
        if let blocker = fileInTheWay(of: folder) {
            throw Fault.invalidInput("\(flag): \(blocker) is a file, but a folder is needed there to write \(path); remove or rename it, or choose another path")
        }
        do {
            try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw Fault.invalidInput("\(flag): cannot create the folder \(folder) for \(path): \(FileErrors.reason(of: error)); choose a writable path")
        }
        let probe = FilePaths.join(folder, ".fmeval-write-check-\(getpid())-\(UUID().uuidString.prefix(8))")
        let descriptor = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            let cause = String(cString: strerror(errno))
            throw Fault.invalidInput("\(flag): cannot write in the folder \(folder) (\(cause)); choose a writable path")
        }
        close(descriptor)
        unlink(probe)
    }

    /// The nearest existing ancestor of `folder` (itself included) when it is a file rather than a folder.
    static func fileInTheWay(of folder: String) -> String? {
        var current = folder
        while !current.isEmpty && current != "/" && current != "." {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: current, isDirectory: &isFolder) {
                return isFolder.boolValue ? nil : current
            }
            current = FilePaths.parent(of: current)
        }
        return nil
    }
}
