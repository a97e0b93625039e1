import Foundation
import FMCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The lock a run holds on its results file (`.NAME.fmeval.lock` beside `NAME`, with `flock`), so a second
/// run writing the same results stops before it truncates the first one's journal, while runs writing
/// other results files in the same folder go on. The kernel drops the lock when the process ends however
/// it ends, so a crashed run never leaves a stale lock.
final class OutputLock {
    /// The lock file's name for the results file named `resultsName`.
    static func fileName(for resultsName: String) -> String { ".\(resultsName).fmeval.lock" }

    private let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { close(descriptor) }

    /// Locks `resultsPath` (its folder created when missing), or throws `Fault.invalidInput`
    /// naming the pid of the run that holds it.
    static func acquire(forResults resultsPath: String) throws -> OutputLock {
        let folder = FilePaths.parent(of: resultsPath)
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = FilePaths.join(folder, fileName(for: FilePaths.lastComponent(of: resultsPath)))
        // Close-on-exec: a child left running must not keep the lock after fmeval ends.
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw Fault.infrastructure("cannot create the lock file \(path): \(String(cString: strerror(errno))); "
                + "check that the output folder is writable")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = String(decoding: (FileManager.default.contents(atPath: path) ?? Data()).prefix(32), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            close(descriptor)
            let who = Int32(holder).map { "another fmeval run (pid \($0))" } ?? "another fmeval run"
            throw Fault.invalidInput("\(who) is writing to \(resultsPath); wait for it to finish, or give "
                + "this run another results file (--out DIR or --json FILE); nothing was run")
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        return OutputLock(descriptor: descriptor)
    }
}
