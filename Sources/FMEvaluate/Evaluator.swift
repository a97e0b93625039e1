/// Scores one attempt: reads an `EvaluationSubject`, returns metrics; never throws — a failure to
/// evaluate (a judge that answers garbage, a command that hangs) is a failing metric that says why.
public protocol Evaluator {
    /// The evaluator's name; its metrics are named after it.
    var name: String { get }
    /// The metrics for `subject`.
    func evaluate(_ subject: EvaluationSubject) -> [Metric]
}
