/// The registry of report formats. A format is one file (its `ReportFormat` and how it renders) plus
/// one line in `all`; `run`, `report`, `merge` and `compare` take their report flags, help lines and
/// writing from here.
public enum ReportFormats {
    /// Every report format, in the order commands list and write them.
    public static let all: [ReportFormat] = [
        .comparisonJSON,
        .junit,
        .html,
    ]

    /// The formats a command can write when it has what `provided` names, in registry order.
    public static func available(providing provided: Set<ReportFormat.Needs>) -> [ReportFormat] {
        all.filter { provided.contains($0.needs) }
    }

    /// The format named `name`, or nil.
    public static func named(_ name: String) -> ReportFormat? {
        all.first { $0.name == name }
    }
}
