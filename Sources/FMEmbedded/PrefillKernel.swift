#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The matrix–matrix kernel a prefill pass multiplies Q4_1 weights with. Both give the same bits;
/// the choice exists to measure one against the other (`FMEVAL_PREFILL_KERNEL`).
public enum PrefillKernel: String, Sendable, CaseIterable {
    /// Register tiles of eight rows × several tokens over weights regrouped per pass
    /// (`fmk_matmul_q4_1_tiled`); the default.
    case tiles
    /// One weight row at a time against four tokens (`fmk_matmul_q4_1`), the kernel before tiles.
    case rows

    /// The environment variable that picks the kernel.
    public static let environmentVariable = "FMEVAL_PREFILL_KERNEL"

    /// The kernel `FMEVAL_PREFILL_KERNEL` names, `tiles` when it is unset or empty; throws for any
    /// other value, naming the variable and the values it takes.
    public static func fromEnvironment() throws -> PrefillKernel {
        guard let raw = getenv(environmentVariable) else { return .tiles }
        let text = String(cString: raw)
        if text.isEmpty { return .tiles }
        guard let kernel = PrefillKernel(rawValue: text) else {
            let names = allCases.map(\.rawValue).joined(separator: " or ")
            throw LlamaRunError(message: "\(environmentVariable)=\(text) is not a prefill kernel; set it to \(names), or unset it",
                                isContextOverflow: false)
        }
        return kernel
    }
}
