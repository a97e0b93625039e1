import Foundation

/// How often a case reproduced its bug: attempts that failed their expectations out of the attempts
/// evaluated, with the Wilson 95 % interval of that rate.
public struct Reproduction: Codable, Hashable, Sendable {
    /// Attempts evaluated (an attempt that ended in an infrastructure error is not a trial).
    public var trials: Int
    /// Trials that failed their expectations: the bug showed.
    public var reproduced: Int
    /// Lower bound of the Wilson 95 % interval of `reproduced / trials`.
    public var lower: Double
    /// Upper bound of the Wilson 95 % interval of `reproduced / trials`.
    public var upper: Double

    /// The reproduction of `reproduced` out of `trials`, with its Wilson 95 % interval.
    public init(reproduced: Int, trials: Int) {
        let interval = WilsonInterval(successes: reproduced, trials: trials)
        self.trials = trials
        self.reproduced = reproduced
        self.lower = interval.lower
        self.upper = interval.upper
    }

    /// The reproduction over attempt outcomes: failed attempts reproduce, errors are not trials.
    public init(outcomes: [AttemptOutcome]) {
        self.init(reproduced: outcomes.filter { $0 == .failed }.count, trials: outcomes.filter { $0 != .error }.count)
    }

    /// `reproduced k/N (95% CI a%–b%)`, the form terminal lines, reports and the catalogue print.
    public var description: String { "reproduced \(rate) (95% CI \(interval))" }

    /// `k/N`.
    public var rate: String { "\(reproduced)/\(trials)" }

    /// `a%–b%`: the interval in whole percent.
    public var interval: String { "\(Self.percent(lower))%–\(Self.percent(upper))%" }

    private static func percent(_ value: Double) -> Int { Int((value * 100).rounded()) }
}

/// What produces a reproduced bug's behaviour (`reproducedWith:`).
public enum ReproducedWith: String, Codable, Hashable, Sendable, CaseIterable {
    /// The real model on the engine the suite runs on.
    case model
    /// The scripted engine, standing in for behaviour only Apple's model shows.
    case scripted
    /// A transcript recorded on a device.
    case recorded
}

/// Where a suite's bug report lives and what reproduces it (`source:`, `reproducedWith:`, `summary:`).
public struct SuiteOrigin: Codable, Hashable, Sendable {
    /// The report's http(s) link.
    public var url: String?
    /// A short title of the report.
    public var title: String?
    /// What produces the behaviour.
    public var reproducedWith: ReproducedWith?
    /// One paragraph: what was reported, the correct behaviour, what the suite checks.
    public var summary: String?

    /// Creates an origin.
    public init(url: String? = nil, title: String? = nil, reproducedWith: ReproducedWith? = nil, summary: String? = nil) {
        self.url = url
        self.title = title
        self.reproducedWith = reproducedWith
        self.summary = summary
    }
}
