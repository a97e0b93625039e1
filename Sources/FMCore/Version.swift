/// The fmeval version recorded in every run's fingerprint and printed by `fmeval --version`.
public enum FMEvalVersion {
    /// Semantic version of this build.
    public static let current = "0.1.0"
}
