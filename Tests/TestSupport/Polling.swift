#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Waits for `condition` by polling it every `interval` seconds until it holds or `seconds` pass; true when
/// it held. Tests wait this way instead of sleeping a fixed time, so a slow machine only takes longer.
public func eventually(within seconds: Double, every interval: Double = 0.02, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while true {
        if condition() { return true }
        if Date() >= deadline { return false }
        usleep(useconds_t(interval * 1_000_000))
    }
}

/// Whether process `pid` is running: it exists and is not a zombie awaiting its reaper.
public func processIsRunning(_ pid: pid_t) -> Bool {
    guard kill(pid, 0) == 0 else { return false }
    let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
    return !stat.contains(") Z ")
}

/// Whether process `pid` ends (is gone, or a zombie) within `seconds`.
public func processEnds(_ pid: pid_t, within seconds: Double) -> Bool {
    eventually(within: seconds) { !processIsRunning(pid) }
}

/// The pid a process wrote to `path` (decimal, whitespace around it allowed), waiting up to `seconds` for it.
public func pid(writtenTo path: String, within seconds: Double) -> pid_t? {
    var found: pid_t?
    _ = eventually(within: seconds, every: 0.05) {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        found = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
        return found != nil
    }
    return found
}
