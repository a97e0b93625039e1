/// The most work one run may hold, checked before anything runs (an invalid-input error naming the cap),
/// so that a typo such as `--repeat 1000000000` is refused instead of growing memory without end.
public enum RunLimits {
    /// The most attempts of one case (`repeat`, `--repeat`, or a `reproduce` block's trials).
    public static let maximumRepeat = 10_000
    /// The most cases one run may select (after variants are expanded).
    public static let maximumCases = 100_000
    /// The most attempts one run may make over all its cases.
    public static let maximumAttempts = 1_000_000
}
