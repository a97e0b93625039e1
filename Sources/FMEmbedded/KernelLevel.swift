#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FMKernels

/// One implementation level of the C kernels (portable C, AVX2, AVX-512 VNNI, NEON, NEON with the
/// dot-product extension). Every level computes the same bits; the level only changes speed.
public struct KernelLevel: Hashable, Sendable, CustomStringConvertible {
    /// The C library's level number (`fmk_level`).
    public let rawValue: Int32

    /// The level numbered `rawValue`, or nil when the C library has no such level.
    public init?(rawValue: Int32) {
        guard rawValue >= 0 && rawValue < FMK_LEVEL_COUNT else { return nil }
        self.rawValue = rawValue
    }

    /// The level's name: `portable`, `avx2`, `avx512-vnni`, `neon` or `neon-dotprod`.
    public var name: String { String(cString: fmk_level_name(rawValue)) }

    /// The name.
    public var description: String { name }

    /// The portable C level, which runs everywhere.
    public static let portable = KernelLevel(rawValue: Int32(FMK_LEVEL_PORTABLE.rawValue))!

    /// Every level this CPU runs, portable first.
    public static var available: [KernelLevel] {
        (0..<FMK_LEVEL_COUNT).compactMap { KernelLevel(rawValue: $0) }.filter { fmk_level_available($0.rawValue) != 0 }
    }

    /// The fastest level this CPU runs (the one used when nothing else is asked for).
    public static var detected: KernelLevel { KernelLevel(rawValue: fmk_detected_level())! }

    /// The environment variable that forces a level for every model in the process.
    public static let environmentVariable = "FMEVAL_KERNEL_LEVEL"

    /// The available level `text` names: a level's name, `avx512` for `avx512-vnni`, or `neon` for the
    /// fastest NEON level this CPU runs; nil when it names none this CPU runs.
    public static func named(_ text: String) -> KernelLevel? {
        let levels = available
        if text == "neon" { return levels.last { $0.name.hasPrefix("neon") } }
        return levels.first { $0.name == text || ($0.name == "avx512-vnni" && text == "avx512") }
    }

    /// The level `FMEVAL_KERNEL_LEVEL` names, the detected one when it is unset or empty; throws for a
    /// value naming no level this CPU runs, naming the variable and the levels it can take here.
    public static func fromEnvironment() throws -> KernelLevel {
        guard let raw = getenv(environmentVariable) else { return detected }
        let text = String(cString: raw)
        if text.isEmpty { return detected }
        guard let level = named(text) else {
            let names = available.map(\.name).joined(separator: ", ")
            throw LlamaRunError(message: "\(environmentVariable)=\(text) is not a kernel level this CPU runs; "
                                + "set it to one of \(names), or unset it", isContextOverflow: false)
        }
        return level
    }
}
