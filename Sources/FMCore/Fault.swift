/// The process exit statuses: the one table the CLI exits with and results, reports and the library report.
public enum ExitStatus {
    /// Every gate holds.
    public static let ok: Int32 = 0
    /// A gate failed: a case failed, a regression, a schema violation.
    public static let failed: Int32 = 1
    /// Invalid input: a suite, schema, file or flag (`Fault.invalidInput`).
    public static let invalidInput: Int32 = 2
    /// Infrastructure: an engine, the network or the file system failed (`Fault.infrastructure`).
    public static let infrastructure: Int32 = 3
}

/// An error that stops a command or a run, by whose fault it is: the suite, a flag or a file (invalid input,
/// exit 2) or an engine, the network or the file system (infrastructure, exit 3). The one fault type of the
/// runner, engine setup, reports, the history, the CLI and the FMEval library (`EvalError`). The message
/// names the file, line:column or flag, and what to do.
public enum Fault: Error, Hashable, Sendable, CustomStringConvertible {
    /// A suite, flag, setting or file is wrong: exit 2.
    case invalidInput(String)
    /// An engine, the network or the file system failed: exit 3.
    case infrastructure(String)

    /// Whose fault it is.
    public enum Kind: String, Hashable, Sendable {
        /// The input: exit 2.
        case invalidInput
        /// The infrastructure: exit 3.
        case infrastructure
    }

    /// A fault of `kind` saying `message`.
    public init(_ kind: Kind, _ message: String) {
        switch kind {
        case .invalidInput: self = .invalidInput(message)
        case .infrastructure: self = .infrastructure(message)
        }
    }

    /// Whose fault it is.
    public var kind: Kind {
        switch self {
        case .invalidInput: return .invalidInput
        case .infrastructure: return .infrastructure
        }
    }

    /// What went wrong and what to do.
    public var message: String {
        switch self {
        case .invalidInput(let message), .infrastructure(let message): return message
        }
    }

    /// True for an infrastructure fault.
    public var isInfrastructure: Bool { kind == .infrastructure }

    /// The exit status it calls for (`ExitStatus.invalidInput` or `.infrastructure`).
    public var exitStatus: Int32 { isInfrastructure ? ExitStatus.infrastructure : ExitStatus.invalidInput }

    /// The same fault with `prefix` before its message.
    public func prefixed(_ prefix: String) -> Fault { Fault(kind, prefix + message) }

    /// The message.
    public var description: String { message }
}
