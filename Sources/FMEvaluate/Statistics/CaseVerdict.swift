/// How one attempt of a case came out.
public enum AttemptOutcome: String, Codable, Equatable, Sendable {
    /// Every gating metric held.
    case passed
    /// A gating metric failed.
    case failed
    /// The attempt could not be evaluated: an unexpected engine or infrastructure error.
    case error
}

/// A case's status over all its attempts.
public enum CaseStatus: String, Codable, Equatable, Sendable {
    /// Every attempt passed and the gate holds.
    case passed
    /// The gate does not hold.
    case failed
    /// Not every attempt passed, yet the gate holds (a warning, not a failure).
    case flaky
    /// An attempt hit an engine or infrastructure error; kept apart from `failed`.
    case error
    /// The gate does not hold, as the case's `knownIssue` expects (reported, but not a failure).
    case knownIssue
}

/// A per-case gate: how many attempts must pass. With neither bound set, every attempt must pass.
public struct CaseGate: Codable, Equatable, Sendable {
    /// The least pass rate (0…1).
    public var minPassRate: Double?
    /// The least number of passing attempts.
    public var minPasses: Int?

    /// Creates a gate.
    public init(minPassRate: Double? = nil, minPasses: Int? = nil) {
        self.minPassRate = minPassRate
        self.minPasses = minPasses
    }

    /// Gates that can never hold or check nothing sensible, for suite validation (`repeats` is the case's repeat count).
    public func problems(repeats: Int) -> [String] {
        var found: [String] = []
        if let minPassRate, !(0...1).contains(minPassRate) {
            found.append("gate minPassRate \(formatScore(minPassRate)) must be between 0 and 1")
        }
        if let minPasses {
            if minPasses < 0 { found.append("gate minPasses must be 0 or more, not \(minPasses)") }
            if minPasses > repeats {
                found.append("gate minPasses \(minPasses) can never hold with repeat \(repeats); raise repeat or lower minPasses")
            }
        }
        return found
    }

    /// Whether `passes` out of `attempts` hold this gate, and the reason.
    public func check(passes: Int, attempts: Int) -> (holds: Bool, reason: String) {
        let rate = attempts > 0 ? Double(passes) / Double(attempts) : 0
        var misses: [String] = []
        if minPassRate == nil && minPasses == nil {
            if passes < attempts || attempts == 0 { misses.append("every attempt must pass") }
        }
        if let minPassRate, rate < minPassRate {
            misses.append("pass rate \(formatScore(rate)) < minPassRate \(formatScore(minPassRate))")
        }
        if let minPasses, passes < minPasses { misses.append("\(passes) passes < minPasses \(minPasses)") }
        let tally = "\(passes)/\(attempts) attempts passed"
        return misses.isEmpty ? (true, "\(tally); gate holds") : (false, "\(tally); " + misses.joined(separator: "; "))
    }
}

/// The verdict on a case from its attempts' outcomes: status, pass rate, Wilson interval, gate.
public struct CaseVerdict: Codable, Equatable, Sendable {
    /// The case's status.
    public var status: CaseStatus
    /// Attempts run.
    public var attempts: Int
    /// Attempts that passed.
    public var passes: Int
    /// Attempts that failed.
    public var failures: Int
    /// Attempts that ended in an engine or infrastructure error.
    public var errors: Int
    /// Passes over evaluated (non-error) attempts; 0 when none were evaluated.
    public var passRate: Double
    /// Wilson 95 % interval of the pass rate.
    public var interval: WilsonInterval
    /// Whether the gate holds.
    public var gateHolds: Bool
    /// One line saying why the status is what it is.
    public var reason: String

    /// Decides a case from its attempt outcomes under `gate`.
    ///
    /// Any error attempt makes the status `error` (infrastructure problems must not hide in pass rates);
    /// otherwise the gate decides: not holding is `failed`, holding with some failures is `flaky`.
    /// With a `knownIssue`, a gate that does not hold is `knownIssue` when the issue covers every failing
    /// attempt (`uncovered` is nil) and `failed` ("known issue … does not cover: …") when it does not; a gate
    /// that holds is `failed` ("known issue no longer reproduces"), like Swift Testing's `withKnownIssue`,
    /// unless the issue is intermittent. `gateHolds` still says whether the gate itself held.
    public init(outcomes: [AttemptOutcome], gate: CaseGate = CaseGate(), knownIssue: KnownIssue? = nil,
                uncovered: String? = nil) {
        attempts = outcomes.count
        passes = outcomes.filter { $0 == .passed }.count
        failures = outcomes.filter { $0 == .failed }.count
        errors = outcomes.filter { $0 == .error }.count
        let evaluated = passes + failures
        passRate = evaluated > 0 ? Double(passes) / Double(evaluated) : 0
        interval = WilsonInterval(successes: passes, trials: evaluated)
        let check = gate.check(passes: passes, attempts: evaluated)
        if errors > 0 {
            status = .error
            gateHolds = false
            reason = "\(errors) of \(attempts) attempts ended in an error; \(check.reason)"
        } else if attempts == 0 {
            status = .error
            gateHolds = false
            reason = "no attempts ran"
        } else {
            gateHolds = check.holds
            status = !check.holds ? .failed : (failures > 0 ? .flaky : .passed)
            reason = check.reason
            if let knownIssue {
                let issue = knownIssue.summary
                if !check.holds, let uncovered {
                    reason = "known issue \(issue) does not cover: \(uncovered); \(check.reason)"
                } else if !check.holds {
                    status = .knownIssue
                    reason = "known issue: \(issue); \(check.reason)"
                } else if knownIssue.intermittent {
                    reason = "known issue \(issue) did not reproduce this run; \(check.reason)"
                } else {
                    status = .failed
                    reason = "known issue no longer reproduces: \(issue); \(check.reason)"
                }
            }
        }
    }
}
