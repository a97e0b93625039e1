import FMCore
import FMEvaluate
import FMResults

/// What an attempt's error does to it: the one place failure classes become outcomes.
enum FailureDisposition: Equatable {
    /// Scored by the evaluators; the error fails the attempt unless an `error` expectation expected it.
    case scoreOnMerits
    /// The attempt is an `error` (infrastructure), never a model failure.
    case error

    /// The disposition of `error` on an attempt whose case's expectations do (`covered`) or do not score it:
    /// a covered error is scored; otherwise model behaviour is scored and fails, and infrastructure
    /// (retryable or not, by the time it reaches here) is an `error`. A legacy error without a class counts
    /// as infrastructure.
    static func of(_ error: AttemptError, covered: Bool) -> FailureDisposition {
        if covered { return .scoreOnMerits }
        switch error.failureClass ?? .infrastructure {
        case .modelBehavior: return .scoreOnMerits
        case .retryableInfrastructure, .infrastructure: return .error
        }
    }

    /// The retry policy for an attempt: the run's `policy` (which retries only retryable
    /// infrastructure), or none when the case expects a retryable error by name (it wants to see it).
    static func retryPolicy(_ policy: RetryPolicy, expectations: [Expectation]) -> RetryPolicy {
        expectations.contains(where: \.namesRetryableError) ? .none : policy
    }

    /// Whether one of `expectations` scores `error` (an expected error).
    static func isCovered(_ error: AttemptError, by expectations: [Expectation]) -> Bool {
        expectations.contains { $0.covers(errorNamed: error.caseName, class: error.failureClass ?? .infrastructure) }
    }
}

extension AttemptError {
    /// Records any error an attempt can end in, as it classifies itself; an unclassified error is
    /// `EngineError.engineError`, infrastructure.
    init(_ error: Error) {
        if let classified = error as? ClassifiedError {
            self.init(domain: classified.domain, caseName: classified.caseName, message: classified.failureMessage,
                      failureClass: classified.failureClass)
        } else {
            self.init(domain: "EngineError", caseName: "engineError", message: "\(error)", failureClass: .infrastructure)
        }
    }
}
