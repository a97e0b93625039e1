import FMCore

/// The outcome of matching a trajectory expectation against the calls of an attempt.
struct TrajectoryReport {
    /// Expectation units met (ordered members, unordered calls, disallowed entries not violated).
    var matched = 0
    /// Expectation units in total.
    var total = 0
    /// Calls no expectation accounts for, counted only when additional calls are banned.
    var unexpected: [Int] = []
    /// One line per problem: a missed expectation (with its per-argument reasons), a disallowed call, an extra call.
    var problems: [String] = []
    /// Which call (0-based) met each expectation unit, by unit label, for passing rationales.
    var matches: [(label: String, call: Int)] = []

    /// Apple's percentagePass: matched over expectations plus unexpected calls; 1 when there is nothing to count.
    var percentage: Double {
        let denominator = total + unexpected.count
        return denominator == 0 ? 1 : Double(matched) / Double(denominator)
    }
}

/// Matches an attempt's tool calls to a `TrajectoryExpectation` with Apple's semantics: ordered positions
/// in sequence (an `anyOrder` group at one position), then unordered expectations over the remaining calls
/// by an optimal assignment, then disallowed entries, then extra calls when they are banned.
struct TrajectoryMatcher {
    /// One expected call: where it sits in the expectation and what it expects.
    struct Unit {
        let label: String
        let call: ToolCallExpectation
    }

    let expectation: TrajectoryExpectation
    let calls: [ToolCall]
    let judge: NaturalLanguageJudge?
    /// `positions[p]`: the units of ordered position p (one, or an anyOrder group's members).
    private let positions: [[Unit]]
    private let unorderedUnits: [Unit]
    /// `failures[label][call]`: why the call does not meet the unit; empty when it does.
    private let failures: [String: [[String]]]

    /// Prepares the match table (judging natural-language matchers once per candidate call).
    init(expectation: TrajectoryExpectation, calls: [ToolCall], judge: NaturalLanguageJudge?) {
        self.expectation = expectation
        self.calls = calls
        self.judge = judge
        positions = expectation.ordered.enumerated().map { index, position in
            switch position {
            case .call(let call): return [Unit(label: "ordered[\(index)] \(call.summary)", call: call)]
            case .anyOrder(let members):
                return members.enumerated().map { Unit(label: "ordered[\(index)].anyOrder[\($0)] \($1.summary)", call: $1) }
            }
        }
        unorderedUnits = expectation.unordered.enumerated().map { Unit(label: "unordered[\($0)] \($1.summary)", call: $1) }
        var table: [String: [[String]]] = [:]
        for unit in positions.flatMap({ $0 }) + unorderedUnits {
            table[unit.label] = calls.map { unit.call.failures(for: $0, judge: judge) }
        }
        failures = table
    }

    /// Whether call `index` meets `unit`.
    private func meets(_ unit: Unit, _ index: Int) -> Bool {
        failures[unit.label]?[index].isEmpty ?? false
    }

    /// Runs the whole analysis.
    func report() -> TrajectoryReport {
        var report = TrajectoryReport()
        var used: [Int: String] = [:]
        let plan = bestPlan()
        for (position, step) in plan.enumerated() {
            for (member, unit) in positions[position].enumerated() {
                report.total += 1
                if let call = step.assignment[member] {
                    report.matched += 1
                    used[call] = unit.label
                    report.matches.append((unit.label, call))
                }
            }
        }
        for (position, step) in plan.enumerated() {
            for (member, unit) in positions[position].enumerated() where step.assignment[member] == nil {
                report.problems.append(explainMissing(unit, used: used, orderedCursor: step.cursor))
            }
        }
        let free = calls.indices.filter { used[$0] == nil }
        let matching = BipartiteMatching(edges: unorderedUnits.map { unit in free.filter { meets(unit, $0) } })
        for (index, unit) in unorderedUnits.enumerated() {
            report.total += 1
            if let call = matching.leftMatch[index] {
                report.matched += 1
                used[call] = unit.label
                report.matches.append((unit.label, call))
            }
        }
        for (index, unit) in unorderedUnits.enumerated() where matching.leftMatch[index] == nil {
            report.problems.append(explainMissing(unit, used: used, orderedCursor: nil))
        }
        for (index, banned) in expectation.disallowed.enumerated() {
            report.total += 1
            let violating = calls.indices.filter { banned.failures(for: calls[$0], judge: judge).isEmpty }
            if violating.isEmpty {
                report.matched += 1
            } else {
                let which = violating.map { "call #\($0 + 1) \(describe(calls[$0]))" }.joined(separator: ", ")
                let what = banned.arguments.isEmpty ? "tool \(banned.name) is disallowed" : "calls matching \(banned.summary) are disallowed"
                report.problems.append("disallowed[\(index)]: \(what), but got \(which)")
            }
        }
        if expectation.disallowed.isEmpty && !expectation.allowsAdditionalToolCalls {
            report.unexpected = calls.indices.filter { used[$0] == nil }
            for index in report.unexpected {
                report.problems.append("unexpected call #\(index + 1) \(describe(calls[index])) (allowsAdditionalToolCalls is false)")
            }
        }
        return report
    }

    /// `name {arguments}` for rationales.
    func describe(_ call: ToolCall) -> String {
        "\(call.name) \(abbreviate(call.arguments.jsonString, limit: 120))"
    }

    /// Why `unit` was not met, naming the closest calls and each failing argument.
    private func explainMissing(_ unit: Unit, used: [Int: String], orderedCursor: Int?) -> String {
        let candidates = calls.indices.filter { calls[$0].name == unit.call.name }
        guard !candidates.isEmpty else {
            let seen = calls.isEmpty ? "no tools were called" : "calls were " + calls.map(\.name).joined(separator: ", ")
            return "\(unit.label): \(unit.call.name) was never called (\(seen))"
        }
        let reasons = candidates.prefix(3).map { index -> String in
            let failing = failures[unit.label]?[index] ?? []
            if !failing.isEmpty { return "call #\(index + 1): " + failing.joined(separator: "; ") }
            if let owner = used[index] { return "call #\(index + 1) matches but is already taken by \(owner)" }
            if let cursor = orderedCursor, index < cursor {
                return "call #\(index + 1) matches but comes before the previous ordered step (out of order)"
            }
            return "call #\(index + 1) matches, but using it would lose more of the ordered steps after it"
        }
        let more = candidates.count > 3 ? " (and \(candidates.count - 3) more calls to \(unit.call.name))" : ""
        return "\(unit.label) not met — " + reasons.joined(separator: " | ") + more
    }

    /// One ordered position's outcome: the call each member took (nil when missed), and the first call it could use.
    struct Step {
        var assignment: [Int: Int]
        var cursor: Int
    }

    /// The most candidate ordered plans `bestPlan` compares before settling for the best seen.
    static let planLimit = 4096

    /// The ordered plan to use. Apple checks ordered expectations first, so the plan meets as many ordered
    /// units as possible; among such plans it takes the one that leaves the unordered expectations the
    /// largest assignment (for example, an ordered `search` should not take the only call an unordered
    /// `search(q contains "swift")` can use). Exact up to `planLimit` candidate plans.
    private func bestPlan() -> [Step] {
        let best = bestOrdered()
        var chosen = best.steps
        var chosenScore = unorderedScore(excluding: Set(best.steps.flatMap { $0.assignment.values }))
        guard chosenScore < unorderedUnits.count else { return chosen }
        var remaining = Array(repeating: 0, count: positions.count + 1)
        for position in positions.indices.reversed() { remaining[position] = remaining[position + 1] + positions[position].count }
        var explored = 0
        var current: [Step] = []
        var used: Set<Int> = []
        /// Depth-first over plans that can still reach the best ordered value; true stops the search.
        func search(_ position: Int, _ cursor: Int, _ value: Int) -> Bool {
            if position == positions.count {
                explored += 1
                let score = unorderedScore(excluding: used)
                if score > chosenScore {
                    chosen = current
                    chosenScore = score
                }
                return chosenScore == unorderedUnits.count || explored >= Self.planLimit
            }
            guard value + remaining[position] >= best.value else { return false }
            for option in allOptions(position, from: cursor) {
                current.append(Step(assignment: option.assignment, cursor: cursor))
                used.formUnion(option.assignment.values)
                let stop = search(position + 1, option.end, value + option.assignment.count)
                current.removeLast()
                used.subtract(option.assignment.values)
                if stop { return true }
            }
            current.append(Step(assignment: [:], cursor: cursor))
            defer { current.removeLast() }
            return search(position + 1, cursor, value)
        }
        _ = search(0, 0, 0)
        return chosen
    }

    /// How many unordered units can be met by calls outside `used`.
    private func unorderedScore(excluding used: Set<Int>) -> Int {
        let free = calls.indices.filter { !used.contains($0) }
        return BipartiteMatching(edges: unorderedUnits.map { unit in free.filter { meets(unit, $0) } }).size
    }

    /// Every way position `position` can be met from `cursor` on: each matching call for a single call,
    /// the earliest-ending assignments for an anyOrder group.
    private func allOptions(_ position: Int, from cursor: Int) -> [(assignment: [Int: Int], end: Int)] {
        guard positions[position].count == 1, let unit = positions[position].first else { return options(position, from: cursor) }
        return (cursor..<calls.count).filter { meets(unit, $0) }.map { ([0: $0], $0 + 1) }
    }

    /// The ordered plan that meets the most units (a dynamic program over position × first usable call).
    private func bestOrdered() -> (value: Int, steps: [Step]) {
        var memo: [Int: (value: Int, steps: [Step])] = [:]
        func solve(_ position: Int, _ cursor: Int) -> (value: Int, steps: [Step]) {
            guard position < positions.count else { return (0, []) }
            let key = position * (calls.count + 1) + cursor
            if let known = memo[key] { return known }
            let skipped = solve(position + 1, cursor)
            var best = (value: skipped.value, steps: [Step(assignment: [:], cursor: cursor)] + skipped.steps)
            var bestHere = 0
            for option in options(position, from: cursor) {
                let rest = solve(position + 1, option.end)
                let value = option.assignment.count + rest.value
                if value > best.value || (value == best.value && option.assignment.count > bestHere) {
                    best = (value, [Step(assignment: option.assignment, cursor: cursor)] + rest.steps)
                    bestHere = option.assignment.count
                }
            }
            memo[key] = best
            return best
        }
        return solve(0, 0)
    }

    /// For each number of members position `position` can meet using calls from `cursor` on, the earliest
    /// end (one past the last call used) and the assignment that reaches it.
    private func options(_ position: Int, from cursor: Int) -> [(assignment: [Int: Int], end: Int)] {
        let members = positions[position]
        var found: [(assignment: [Int: Int], end: Int)] = []
        var reached = 0
        var end = cursor
        while end < calls.count, reached < members.count {
            end += 1
            let newest = end - 1
            guard members.contains(where: { meets($0, newest) }) else { continue }
            let window = Array(cursor..<end)
            let matching = BipartiteMatching(edges: members.map { member in window.filter { meets(member, $0) } })
            guard matching.size > reached else { continue }
            reached = matching.size
            var assignment: [Int: Int] = [:]
            for (member, call) in matching.leftMatch.enumerated() { if let call { assignment[member] = call } }
            found.append((assignment, end))
        }
        return found
    }
}
