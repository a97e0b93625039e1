import FMResults

/// The order one run of every merged case would have written them: by suite file, by line in the file,
/// then by variant. Shards each hold a subsequence of that order, so the files' and variants' order is
/// read back from the inputs (a precedence order that every input agrees with); lines are numbers.
enum MergeOrder {
    /// `cases` in single-run order; cases without a source keep their place after those with one.
    static func sorted(_ cases: [CaseResult], inputs: [[CaseResult]]) -> [CaseResult] {
        let files = rank(inputs.map { $0.compactMap { $0.sourcePosition?.file } })
        let variants = rank(inputs.flatMap(variantRuns))
        let keyed = cases.enumerated().map { index, result -> (key: [Int], result: CaseResult) in
            guard let (file, line) = result.sourcePosition else { return ([Int.max, 0, 0, index], result) }
            return ([files[file] ?? Int.max, line, variants[result.variant ?? ""] ?? Int.max, index], result)
        }
        return keyed.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map(\.result)
    }

    /// The variants of each case of `cases`, one sequence per run of consecutive results of one case.
    static func variantRuns(_ cases: [CaseResult]) -> [[String]] {
        var runs: [[String]] = []
        var current: (suite: String, caseID: String)?
        for result in cases {
            if current?.suite != result.suite || current?.caseID != result.caseID { runs.append([]) }
            current = (result.suite, result.caseID)
            runs[runs.count - 1].append(result.variant ?? "")
        }
        return runs
    }

    /// A position for every name such that each sequence's names come in its order where the sequences
    /// agree (Kahn's algorithm over "follows" edges; ties, and cycles, by first appearance).
    static func rank(_ sequences: [[String]]) -> [String: Int] {
        var first: [String: Int] = [:]
        var after: [String: Set<String>] = [:]
        var before: [String: Int] = [:]
        for sequence in sequences {
            for (index, name) in sequence.enumerated() {
                if first[name] == nil { first[name] = first.count; before[name] = before[name] ?? 0 }
                guard index > 0, sequence[index - 1] != name else { continue }
                if after[sequence[index - 1], default: []].insert(name).inserted { before[name, default: 0] += 1 }
            }
        }
        var ranks: [String: Int] = [:]
        while ranks.count < first.count {
            let open = first.keys.filter { ranks[$0] == nil }
            let ready = open.filter { before[$0] == 0 }
            guard let next = (ready.isEmpty ? open : ready).min(by: { first[$0]! < first[$1]! }) else { break }
            ranks[next] = ranks.count
            for follower in after[next] ?? [] { before[follower, default: 1] -= 1 }
        }
        return ranks
    }
}
