import Foundation
import FMResults

extension ReportFormat {
    /// `--junit FILE`: JUnit XML, each failure noting its baseline change when there is a baseline.
    public static let junit = ReportFormat(
        name: "junit", help: "write JUnit XML (one testsuite per suite × variant)", needs: .results
    ) { input in
        Data(JUnitReport.render(input.results, baseline: input.baseline).utf8)
    }
}

/// JUnit XML (Apache Ant schema, `reference/junit/JUnit.xsd`) from a results document.
///
/// One `testsuite` per suite × variant and one `testcase` per case. A case that does not hold its gate
/// gets `failure` (metrics with rationales) or `error` (infrastructure); a skipped case gets `skipped`,
/// and so does a known issue that still reproduces (`message="known issue: REASON (URL)"`), which JUnit
/// consumers show as skipped rather than failed; a known issue that no longer reproduces is a `failure`.
/// The run fingerprint, and each `reproduce` case's reproduction rate, go in each suite's `properties`; pass rates and attempts of every case go in
/// the suite's `system-out`, since the schema gives a passing `testcase` no text of its own.
public enum JUnitReport {
    /// The JUnit document for `run`; `baseline` adds each case's change to its failure text.
    public static func render(_ run: RunResult, baseline: BaselineComparison? = nil) -> String {
        var changes: [String: BaselineChange] = [:]
        for entry in baseline?.entries ?? [] { changes[entry.id] = entry.change }
        var writer = XMLWriter()
        writer.open("testsuites")
        let timestamp = junitTimestamp(run.run.startedAt)
        for (index, group) in SuiteGroup.groups(run).enumerated() {
            writeSuite(group, id: index, run: run, timestamp: timestamp, changes: changes, into: &writer)
        }
        return writer.finish()
    }

    private static func writeSuite(_ group: SuiteGroup, id: Int, run: RunResult, timestamp: String,
                                   changes: [String: BaselineChange], into writer: inout XMLWriter) {
        let cases = group.cases
        let failures = cases.filter { $0.status != .error && !$0.holdsRun }.count
        let errors = cases.filter { $0.status == .error }.count
        let skipped = group.skipped.count + cases.filter { $0.status == .knownIssue }.count
        let time = cases.reduce(0) { $0 + max(0, $1.durationMs) } / 1000
        let name = XMLEscaping.token(group.title, fallback: "unnamed-suite")
        writer.open("testsuite", [
            ("name", name), ("package", "fmeval." + name), ("id", String(id)),
            ("timestamp", timestamp), ("hostname", "localhost"),
            ("tests", String(cases.count + group.skipped.count)), ("failures", String(failures)), ("errors", String(errors)),
            ("skipped", String(skipped)), ("time", seconds(time)),
        ])
        writer.open("properties")
        for (key, value) in properties(run, variant: group.variant) + reproductionProperties(cases) {
            writer.empty("property", [("name", key), ("value", value)])
        }
        writer.close()
        var out = ""
        for result in cases {
            writeCase(result, classname: name, change: changes[result.id], into: &writer)
            out += "\(result.displayName): \(result.status.rawValue); \(CaseSummaryText.passLine(result))\n"
        }
        for skipped in group.skipped {
            writer.open("testcase", [("name", XMLEscaping.token(skipped.caseID, fallback: "unnamed-case")),
                                     ("classname", name), ("time", "0.000")])
            writer.element("skipped", [("message", skipped.reason)], text: "")
            writer.close()
            out += "\(skipped.caseID): skipped; \(skipped.reason)\n"
        }
        writer.element("system-out", text: out)
        writer.element("system-err", text: "")
        writer.close()
    }

    private static func writeCase(_ result: CaseResult, classname: String, change: BaselineChange?,
                                  into writer: inout XMLWriter) {
        let attributes = [("name", XMLEscaping.token(result.caseID, fallback: "unnamed-case")),
                          ("classname", classname), ("time", seconds(result.durationMs / 1000))]
        let changeNote = change.map { "baseline: \($0.rawValue)\n" } ?? ""
        switch result.status {
        case .error:
            writer.open("testcase", attributes)
            writer.element("error", [("message", CaseSummaryText.headline(result)), ("type", errorType(result))],
                           text: changeNote + CaseSummaryText.details(result))
            writer.close()
        case .knownIssue:
            writeKnownIssue(result, attributes: attributes, changeNote: changeNote, into: &writer)
        case .passed, .failed, .flaky:
            guard !result.holdsRun else {
                writer.empty("testcase", attributes)
                return
            }
            let failing = CaseSummaryText.failingMetrics(result)
            var text = changeNote + CaseSummaryText.details(result)
            if !failing.isEmpty { text = "failing metrics:\n" + failing.map { "  " + $0 }.joined(separator: "\n") + "\n" + text }
            writer.open("testcase", attributes)
            let type = result.status == .failed && result.gateHolds ? "knownIssueNoLongerReproduces"
                : (result.gateHolds ? "nondeterministic" : (result.knownIssue != nil ? "knownIssueDoesNotCover" : result.status.rawValue))
            writer.element("failure", [("message", CaseSummaryText.headline(result)), ("type", type)],
                           text: text)
            writer.close()
        }
    }

    /// A known issue that still reproduces: `skipped` with `known issue: REASON (URL)`, and what still fails.
    private static func writeKnownIssue(_ result: CaseResult, attributes: [(String, String)], changeNote: String,
                                        into writer: inout XMLWriter) {
        writer.open("testcase", attributes)
        let message = "known issue: " + (result.knownIssue?.summary ?? result.reason)
        writer.element("skipped", [("message", message)], text: changeNote + CaseSummaryText.details(result))
        writer.close()
    }

    /// The run fingerprint and selection as `(name, value)` pairs.
    static func properties(_ run: RunResult, variant: String?) -> [(String, String)] {
        let info = run.run, fingerprint = info.fingerprint
        var pairs: [(String, String)] = [
            ("fmeval.version", fingerprint.fmevalVersion),
            ("fmeval.run.id", info.id),
            ("fmeval.engine", fingerprint.engine.name),
            ("fmeval.model", fingerprint.engine.model),
        ]
        if let hash = fingerprint.engine.modelHash { pairs.append(("fmeval.model.sha256", hash)) }
        pairs += [("fmeval.os", fingerprint.os), ("fmeval.cpu", fingerprint.cpu),
                  ("fmeval.cpu.count", String(fingerprint.cpuCount)), ("fmeval.architecture", fingerprint.architecture)]
        if let variant { pairs.append(("fmeval.variant", variant)) }
        if let shard = info.shard { pairs.append(("fmeval.shard", shard)) }
        if let filter = info.filter { pairs.append(("fmeval.filter", filter)) }
        if let repeatOverride = info.repeatOverride { pairs.append(("fmeval.repeat", String(repeatOverride))) }
        for source in fingerprint.recordedTranscripts ?? [] { pairs.append(("fmeval.transcript.sha256", "\(source.sha256) \(source.path)")) }
        return pairs
    }

    /// `fmeval.reproduction.CASE` = `reproduced k/N (95% CI a%–b%)` for each `reproduce` case of a suite
    /// (JUnit's schema gives a `testcase` no properties of its own).
    static func reproductionProperties(_ cases: [CaseResult]) -> [(String, String)] {
        cases.compactMap { result in result.reproduction.map { ("fmeval.reproduction.\(result.caseID)", $0.description) } }
    }

    /// The error family of the first unexpected attempt error, e.g. `LanguageModelError.timeout`.
    private static func errorType(_ result: CaseResult) -> String {
        for attempt in result.attempts {
            if let error = attempt.error, !error.expected { return "\(error.domain).\(error.caseName)" }
        }
        return "error"
    }

    /// Seconds as an `xs:decimal` with millisecond precision (never exponent notation, NaN or negative).
    static func seconds(_ value: Double) -> String {
        guard value.isFinite, value > 0 else { return "0.000" }
        return Fixed.format(value, 3)
    }

    /// `yyyy-MM-ddTHH:mm:ss` (no zone, as the schema requires) from an ISO 8601 timestamp.
    static func junitTimestamp(_ iso: String) -> String {
        let prefix = Array(iso.utf8.prefix(19))
        let digitsAt = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]
        let separators: [(Int, UInt8)] = [(4, UInt8(ascii: "-")), (7, UInt8(ascii: "-")), (10, UInt8(ascii: "T")),
                                          (13, UInt8(ascii: ":")), (16, UInt8(ascii: ":"))]
        guard prefix.count == 19,
              digitsAt.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(prefix[$0]) }),
              separators.allSatisfy({ prefix[$0.0] == $0.1 }) else { return "1970-01-01T00:00:00" }
        return String(decoding: prefix, as: UTF8.self)
    }
}

/// The cases of one suite × variant (run and skipped), in first-seen order.
struct SuiteGroup {
    /// The suite name.
    var suite: String
    /// The variant, nil for the base configuration.
    var variant: String?
    /// The cases that ran, in result order.
    var cases: [CaseResult] = []
    /// The cases selected out of the run.
    var skipped: [SkippedCase] = []

    /// `suite` or `suite@variant`.
    var title: String { variant.map { "\(suite)@\($0)" } ?? suite }

    /// Groups the run's cases and skipped cases by suite and variant, in the order each group first appears.
    static func groups(_ run: RunResult) -> [SuiteGroup] {
        var index: [String: Int] = [:]
        var groups: [SuiteGroup] = []
        func position(_ suite: String, _ variant: String?) -> Int {
            let key = suite + "\u{1F}" + (variant ?? "")
            if let found = index[key] { return found }
            index[key] = groups.count
            groups.append(SuiteGroup(suite: suite, variant: variant))
            return groups.count - 1
        }
        for result in run.cases { groups[position(result.suite, result.variant)].cases.append(result) }
        for skipped in run.skipped { groups[position(skipped.suite, skipped.variant)].skipped.append(skipped) }
        return groups
    }
}
