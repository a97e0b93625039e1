import Foundation
import FMCore
import FMResults
import FMSuite

/// What selects nothing, said plainly: folders without suites, a `--filter` that matches no case (with
/// the closest case ids), an empty shard. A run that selects no case by mistake must not pass.
enum CaseSelection {
    /// A diagnostic for each folder in `paths` that holds no suite file, so a mistyped folder is an error.
    static func foldersWithoutSuites(_ paths: [String]) -> [Diagnostic] {
        paths.compactMap { path in
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue,
                  SuiteLoader.suiteFiles(in: [path]).files.isEmpty else { return nil }
            let kinds = SuiteLoader.suiteExtensions.map { "." + $0 }.joined(separator: ", ")
            return Diagnostic(SourceLocation(file: path, line: 1, column: 1),
                              "no suite files (\(kinds)) in this folder; check the path")
        }
    }

    /// The error for `--filter` selecting none of `candidates` (the cases left after `--variant`).
    static func noMatch(_ filter: CaseFilter, candidates: [ExpandedCase], request: RunRequest, paths: [String]) -> String {
        var scope = "\(candidates.count) case\(candidates.count == 1 ? "" : "s") in \(paths.joined(separator: " "))"
        if !request.variants.isEmpty { scope += " (--variant \(request.variants.joined(separator: ", ")))" }
        var lines = ["--filter '\(filter.description)' selects none of the \(scope)" +
                     (request.shard.map { "; --shard \($0) would apply after it" } ?? "")]
        let terms = filter.positiveTerms
        if terms.isEmpty {
            lines.append("  every case matches a term excluded with '!'")
        } else {
            let closest = closestIDs(to: terms, among: candidates)
            if !closest.isEmpty { lines.append("  closest case ids: " + closest.joined(separator: ", ")) }
            lines += terms.compactMap { hint(for: $0, candidates: candidates) }.map { "  " + $0 }
        }
        lines.append("  nothing was run; 'fmeval validate --json \(paths.joined(separator: " "))' lists every case id")
        return lines.joined(separator: "\n")
    }

    /// Where the shard came from and how the cases were split, when either is more than `--shard I/N`
    /// by hash: the scheduler variables `--shard auto` read, the history balance's basis and estimate.
    static func shardNote(_ shard: Shard, assignment: ShardAssignment, running: Int, of selected: Int) -> RunNote? {
        let info = assignment.info
        guard info.source != nil || info.balance != ShardBalance.hash.name else { return nil }
        var text = "shard \(shard)" + (info.source.map { " from \($0)" } ?? "") + ": \(running) of \(selected) cases"
        if let basis = info.basis, !assignment.estimatedMs.isEmpty {
            let seconds = { (ms: Double) in String(format: "%.1f", ms / 1000) }
            let loads = assignment.estimatedMs
            text += ", balanced by history (\(basis)): about \(seconds(loads[shard.index - 1])) s here, "
                + "\(seconds(loads.min() ?? 0))–\(seconds(loads.max() ?? 0)) s over the \(shard.count) shards"
        }
        return RunNote(.shardChoice, text: text)
    }

    /// The note for a shard that holds none of the `selected` cases (exit 0: normal in a CI matrix).
    static func emptyShard(_ shard: Shard, selected: Int) -> RunNote {
        RunNote(.emptyShard, text: "--shard \(shard): none of the \(selected) selected case\(selected == 1 ? "" : "s") falls in "
            + "this shard; nothing to run (an empty shard is normal when a CI matrix has more shards than cases, so this is "
            + "not an error)")
    }

    /// Up to `limit` case ids closest to the filter's terms: best fuzzy-substring match first.
    static func closestIDs(to terms: [(prefix: String, pattern: String)], among cases: [ExpandedCase], limit: Int = 3) -> [String] {
        let scored = cases.enumerated().map { index, item -> (id: String, score: Int, tie: Int, index: Int) in
            var best = Int.max, tie = Int.max
            for term in terms {
                for field in fields(of: item, prefix: term.prefix) {
                    let score = segments(term.pattern).reduce(0) { $0 + substringDistance($1, in: field) }
                    let whole = Suggestion.editDistance(literal(term.pattern).lowercased(), field.lowercased())
                    if (score, whole) < (best, tie) { (best, tie) = (score, whole) }
                }
            }
            return (item.id, best, tie, index)
        }
        let ranked = scored.filter { $0.score < Int.max }.sorted { ($0.score, $0.tie, $0.index) < ($1.score, $1.tie, $1.index) }
        var seen = Set<String>()
        return ranked.map(\.id).filter { seen.insert($0).inserted }.prefix(limit).map { $0 }
    }

    /// A hint for a term that matches no case: the likely tag or suite, or a glob for part of an id.
    static func hint(for term: (prefix: String, pattern: String), candidates: [ExpandedCase]) -> String? {
        let single = term.prefix.isEmpty ? term.pattern : "\(term.prefix):\(term.pattern)"
        guard let filter = try? CaseFilter(single), !candidates.contains(where: filter.matches) else { return nil }
        let hasWildcard = term.pattern.contains("*") || term.pattern.contains("?")
        switch term.prefix {
        case "tag", "suite":
            let names = term.prefix == "tag" ? candidates.flatMap(\.tags) : candidates.map(\.suite)
            var seen = Set<String>()
            let unique = names.filter { seen.insert($0).inserted }
            guard let guess = Suggestion.closest(to: term.pattern, in: unique) else {
                return "no case has \(term.prefix) '\(term.pattern)' (\(term.prefix)s: \(unique.prefix(12).joined(separator: ", ")))"
            }
            return "no case has \(term.prefix) '\(term.pattern)'; did you mean \(term.prefix):\(guess)?"
        default:
            guard !hasWildcard, candidates.contains(where: { $0.id.lowercased().contains(term.pattern.lowercased()) }) else { return nil }
            let what = term.prefix == "id" ? "id: matches the whole id suite/case[@variant]" : "a bare term matches the whole id or case id"
            return "\(what); write \(term.prefix.isEmpty ? "" : "id:")*\(term.pattern)* to match part of it"
        }
    }

    /// What a term of kind `prefix` is matched against.
    private static func fields(of item: ExpandedCase, prefix: String) -> [String] {
        switch prefix {
        case "tag": return item.tags
        case "suite": return [item.suite]
        default: return [item.id, item.caseID]
        }
    }

    /// The literal runs of a glob (`*` and `?` removed), lowercased.
    private static func segments(_ pattern: String) -> [String] {
        pattern.lowercased().split(whereSeparator: { $0 == "*" || $0 == "?" }).map(String.init)
    }

    private static func literal(_ pattern: String) -> String {
        pattern.filter { $0 != "*" && $0 != "?" }
    }

    /// The fewest edits that turn `pattern` into some substring of `text` (case-insensitive).
    static func substringDistance(_ pattern: String, in text: String) -> Int {
        let p = Array(pattern.lowercased().unicodeScalars), t = Array(text.lowercased().unicodeScalars)
        guard !p.isEmpty else { return 0 }
        guard !t.isEmpty else { return p.count }
        var previous = [Int](repeating: 0, count: t.count + 1)
        var current = previous
        for i in 1...p.count {
            current[0] = i
            for j in 1...t.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (p[i - 1] == t[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous.min() ?? p.count
    }
}
