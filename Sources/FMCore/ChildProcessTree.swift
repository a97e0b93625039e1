import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The processes below a child, found through `/proc` (Linux): a child's own process group does not
/// hold a descendant that called `setsid()`, so ending a group alone would leave it running.
enum ChildProcessTree {
    /// Every live descendant of `root` (not `root` itself), with its start time, so a later signal
    /// never reaches a process that merely reused the pid. Empty where `/proc` is missing.
    static func descendants(of root: pid_t) -> [(pid: pid_t, start: UInt64)] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        var children: [pid_t: [(pid: pid_t, start: UInt64)]] = [:]
        for name in entries {
            guard let pid = pid_t(name), let fields = stat(of: pid) else { continue }
            children[fields.parent, default: []].append((pid, fields.start))
        }
        var found: [(pid: pid_t, start: UInt64)] = []
        var queue = [root]
        while let next = queue.popLast() {
            for child in children[next] ?? [] where !found.contains(where: { $0.pid == child.pid }) {
                found.append(child)
                queue.append(child.pid)
            }
        }
        return found
    }

    /// The live children of `parent`.
    static func children(of parent: pid_t) -> [pid_t] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { name in pid_t(name).flatMap { pid in stat(of: pid)?.parent == parent ? pid : nil } }
    }

    /// Sends `signal` to each of `processes` that still runs with the same start time.
    static func signal(_ processes: [(pid: pid_t, start: UInt64)], _ signal: Int32) {
        for process in processes where stat(of: process.pid)?.start == process.start { kill(process.pid, signal) }
    }

    /// The parent pid and start time (fields 4 and 22 of `/proc/PID/stat`; the name in field 2 may hold
    /// spaces and parentheses, so fields are counted after its last `)`).
    private static func stat(of pid: pid_t) -> (parent: pid_t, start: UInt64)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let parent = pid_t(fields[1]), let start = UInt64(fields[19]) else { return nil }
        return (parent, start)
    }
}
