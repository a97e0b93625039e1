import Foundation
import FMCore
import FMResults

extension Fingerprint {
    /// The fingerprint of this machine and build for a run on `engine`.
    public static func current(engine: EngineIdentity) -> Fingerprint {
        Fingerprint(fmevalVersion: FMEvalVersion.current, engine: engine, os: operatingSystem(), cpu: cpuModel(),
                    cpuCount: ProcessInfo.processInfo.activeProcessorCount, architecture: machine())
    }

    private static func operatingSystem() -> String {
        var info = utsname()
        uname(&info)
        let kernel = [field(&info.sysname), field(&info.release)].joined(separator: " ")
        guard let release = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8),
              let line = release.split(separator: "\n").first(where: { $0.hasPrefix("PRETTY_NAME=") }) else {
            return kernel
        }
        return line.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) + ", " + kernel
    }

    private static func cpuModel() -> String {
        guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
              let line = info.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
              let colon = line.firstIndex(of: ":") else { return "unknown" }
        return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }

    private static func machine() -> String {
        var info = utsname()
        uname(&info)
        return field(&info.machine)
    }

    private static func field<Tuple>(_ value: inout Tuple) -> String {
        withUnsafeBytes(of: &value) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
