import Foundation
import FMResults

extension ReportFormat {
    /// `--junit FILE`: JUnit XML that agrees with the run's verdict (`<failure>` exactly for what fails the gate).
    public static let junit = ReportFormat(
        name: "junit", help: "write JUnit XML (one testsuite per suite × variant)", needs: .results
    ) { input in
        Data(JUnitReport.render(input.verdict).utf8)
    }
}

/// JUnit XML (the Apache Ant schema, `reference/junit/JUnit.xsd`, plus the extensions docs/reports.md lists)
/// from a run's verdict.
///
/// One `testsuite` per suite × variant and one `testcase` per case, with `file` and `line` of the case in
/// its suite. What each case becomes is `JUnitCaseKind`'s decision from the `GateVerdict`, so a consumer
/// that turns red on `failure`/`error` turns red exactly when fmeval exits non-zero. The run fingerprint,
/// each non-passing case's status (`fmeval.status.CASE`) and each `reproduce` case's rate go in the suite's
/// `properties`; every case's pass rate and attempts go in the suite's `system-out`.
public enum JUnitReport {
    /// The JUnit document for `run` judged by every case's own gate; `baseline` notes each case's change.
    public static func render(_ run: RunResult, baseline: BaselineComparison? = nil) -> String {
        render(GateVerdict(results: run, baseline: baseline))
    }

    /// The JUnit document for the run `verdict` judges, its `failure`/`error` elements exactly its failing cases.
    public static func render(_ verdict: GateVerdict) -> String {
        var writer = XMLWriter()
        writer.open("testsuites")
        let run = verdict.results
        let timestamp = junitTimestamp(run.run.startedAt)
        for (index, group) in SuiteGroup.groups(run).enumerated() {
            writeSuite(group, id: index, verdict: verdict, timestamp: timestamp, into: &writer)
        }
        return writer.finish()
    }

    private static func writeSuite(_ group: SuiteGroup, id: Int, verdict: GateVerdict, timestamp: String,
                                   into writer: inout XMLWriter) {
        let cases = group.cases
        let kinds = cases.map { JUnitCaseKind($0, verdict: verdict) }
        let time = cases.reduce(0) { $0 + max(0, $1.durationMs) } / 1000
        let name = XMLEscaping.token(group.title, fallback: "unnamed-suite")
        writer.open("testsuite", [
            ("name", name), ("package", "fmeval." + name), ("id", String(id)),
            ("timestamp", timestamp), ("hostname", "localhost"),
            ("tests", String(cases.count + group.skipped.count)),
            ("failures", String(kinds.filter(\.isFailure).count)),
            ("errors", String(kinds.filter { $0 == .error }.count)),
            ("skipped", String(group.skipped.count + kinds.filter(\.isSkipped).count)), ("time", seconds(time)),
        ])
        writer.open("properties")
        let statuses = zip(cases, kinds).compactMap { result, kind in
            kind.property.map { ("fmeval.status.\(result.caseID)", $0) }
        }
        for (key, value) in properties(verdict.results, variant: group.variant) + statuses
            + reproductionProperties(cases) {
            writer.empty("property", [("name", key), ("value", value)])
        }
        writer.close()
        var out = ""
        for (result, kind) in zip(cases, kinds) {
            writeCase(result, kind: kind, classname: name, change: verdict.change(of: result), into: &writer)
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

    private static func writeCase(_ result: CaseResult, kind: JUnitCaseKind, classname: String,
                                  change: BaselineChange?, into writer: inout XMLWriter) {
        var attributes = [("name", XMLEscaping.token(result.caseID, fallback: "unnamed-case")),
                          ("classname", classname), ("time", seconds(result.durationMs / 1000))]
        if let position = result.sourcePosition {
            attributes += [("file", position.file), ("line", String(position.line))]
        }
        let changeNote = change.map { "baseline: \($0.rawValue)\n" } ?? ""
        switch kind {
        case .passed:
            writer.empty("testcase", attributes)
        case .flaky:
            writer.open("testcase", attributes)
            writeFlakyFailures(result, into: &writer)
            writer.close()
        case .error:
            writer.open("testcase", attributes)
            writer.element("error", [("message", CaseSummaryText.headline(result)), ("type", errorType(result))],
                           text: changeNote + CaseSummaryText.details(result))
            writer.close()
        case .knownIssue:
            let message = "known issue: " + (result.knownIssue?.summary ?? result.reason)
            writer.open("testcase", attributes)
            writer.element("skipped", [("message", message)], text: changeNote + CaseSummaryText.details(result))
            writer.close()
        case .oldFailure(let reason):
            let message = "old failure (\(reason)): " + CaseSummaryText.headline(result)
            writer.open("testcase", attributes)
            writer.element("skipped", [("message", message)], text: changeNote + CaseSummaryText.details(result))
            writer.close()
        case .failure:
            writer.open("testcase", attributes)
            writer.element("failure", [("message", kind.messagePrefix + CaseSummaryText.headline(result)),
                                       ("type", failureType(result))],
                           text: failureText(result, changeNote: changeNote))
            writer.close()
        }
    }

    /// Surefire's `flakyFailure` for each failed attempt of a case whose gate holds: `message` its first
    /// failing metric, the attempt's account in `stackTrace` (where Surefire-style consumers look).
    private static func writeFlakyFailures(_ result: CaseResult, into writer: inout XMLWriter) {
        for attempt in result.attempts where attempt.status == .failed {
            let first = attempt.metrics.failingMetrics.first.map(CaseSummaryText.metricLine) ?? "failed"
            writer.open("flakyFailure", [("message", "attempt \(attempt.index + 1): \(first)"), ("type", "failed")])
            let lines = attempt.metrics.failingMetrics.map(CaseSummaryText.metricLine)
                + [CaseSummaryText.passLine(result)]
            writer.element("stackTrace", text: lines.joined(separator: "\n"))
            writer.close()
        }
    }

    /// The failure text: every distinct failing metric, then the case's full account.
    private static func failureText(_ result: CaseResult, changeNote: String) -> String {
        let failing = CaseSummaryText.failingMetrics(result)
        let text = changeNote + CaseSummaryText.details(result)
        guard !failing.isEmpty else { return text }
        return "failing metrics:\n" + failing.map { "  " + $0 }.joined(separator: "\n") + "\n" + text
    }

    /// The failure's `type`: why the gate fails (`failed`, `nondeterministic`, `historyDependent`,
    /// `knownIssueNoLongerReproduces`…).
    private static func failureType(_ result: CaseResult) -> String {
        if result.status == .failed && result.gateHolds { return "knownIssueNoLongerReproduces" }
        if result.gateHolds { return result.diverged ? "nondeterministic" : "historyDependent" }
        return result.knownIssue != nil ? "knownIssueDoesNotCover" : result.status.rawValue
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
