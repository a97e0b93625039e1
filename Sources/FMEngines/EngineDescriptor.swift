import FMCore

/// The JSON type an engine option takes.
public enum EngineOptionType: String, Sendable, CaseIterable {
    /// Text.
    case string
    /// A whole number.
    case integer
    /// Any number.
    case number
    /// true or false.
    case boolean
    /// A JSON object.
    case object
    /// A JSON array.
    case array

    /// Whether `value` has this type (an integer is a number without a fraction).
    public func accepts(_ value: GeneratedContent) -> Bool {
        switch (self, value.kind) {
        case (.string, .string), (.boolean, .bool), (.number, .number), (.array, .array), (.object, .structure): return true
        case (.integer, .number(let number)): return value.exactInteger != nil || number.rounded() == number
        default: return false
        }
    }
}

/// One option an engine declares: its name, type, what it does, whether it must be given, its default.
public struct EngineOptionSpec: Sendable {
    /// The option's key (`engine: {name: …, KEY: value}`, `--engine-option KEY=VALUE`).
    public var name: String
    /// The JSON type its value must have.
    public var type: EngineOptionType
    /// One line on what it does.
    public var summary: String
    /// True when the engine cannot be built without it.
    public var isRequired: Bool
    /// The value used when it is not given (nil: none, or the engine decides).
    public var defaultValue: GeneratedContent?

    /// Creates an option spec.
    public init(_ name: String, _ type: EngineOptionType, _ summary: String, required: Bool = false, default defaultValue: GeneratedContent? = nil) {
        self.name = name
        self.type = type
        self.summary = summary
        self.isRequired = required
        self.defaultValue = defaultValue
    }
}

/// A problem with an engine configuration: about one option (`option` set) or the engine itself.
public struct EngineOptionProblem: Sendable, Equatable, CustomStringConvertible {
    /// The option at fault; nil when the problem is the engine's name or a missing required option.
    public var option: String?
    /// What is wrong and what to do.
    public var message: String

    /// Creates a problem.
    public init(option: String?, message: String) {
        self.option = option
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

/// Everything the registry knows about one engine: name, summary, declared options and how to build it.
public struct EngineDescriptor: Sendable {
    /// Builds a provider from a configuration whose options passed `validate`.
    public typealias Build = @Sendable (EngineConfiguration) throws -> EngineProvider
    /// Checks option values whose types are right (ranges, formats), returning each problem.
    public typealias Check = @Sendable ([String: GeneratedContent]) -> [EngineOptionProblem]

    /// The engine's name.
    public var name: String
    /// One line on what the engine is.
    public var summary: String
    /// The options it accepts, in documentation order.
    public var options: [EngineOptionSpec]
    /// The factory.
    public var build: Build
    /// The check of option values beyond their types, if the engine has one.
    public var check: Check?
    /// The data a case written for this engine carries that only it reads (the scripted engine's `script:`):
    /// the suite reader reads and checks it under its key, the engine gets it in `AttemptContext.caseData`;
    /// when the engine flags put such a case on another engine, that data goes unused and the run says so.
    public var caseData: EngineCaseDataKind?

    /// Whether cases written for this engine carry data only it reads.
    public var ownsCaseData: Bool { caseData != nil }

    /// Creates a descriptor.
    public init(name: String, summary: String, options: [EngineOptionSpec], check: Check? = nil,
                caseData: EngineCaseDataKind? = nil, build: @escaping Build) {
        self.name = name
        self.summary = summary
        self.options = options
        self.check = check
        self.caseData = caseData
        self.build = build
    }

    /// `configuration` with every option it leaves out that has a default set to that default, so that
    /// giving an option its default value configures the same engine as leaving it out.
    public func withDefaults(_ configuration: EngineConfiguration) -> EngineConfiguration {
        var filled = configuration
        for spec in options where filled.options[spec.name] == nil {
            if let value = spec.defaultValue { filled.options[spec.name] = value }
        }
        return filled
    }

    /// The spec of option `name`, if declared.
    public func option(_ name: String) -> EngineOptionSpec? { options.first { $0.name == name } }

    /// Every problem of `options` for this engine: unknown options (with a did-you-mean), wrong types,
    /// missing required options; in option-name order; then, when there are none, the engine's `check`.
    public func problems(_ given: [String: GeneratedContent]) -> [EngineOptionProblem] {
        var found: [EngineOptionProblem] = []
        for key in given.keys.sorted() {
            let value = given[key]!
            guard let spec = option(key) else {
                let names = options.map(\.name)
                let hint = Suggestion.closest(to: key, in: names).map { " (did you mean '\($0)'?)" }
                    ?? (names.isEmpty ? " (it takes no options)" : " (options: \(names.joined(separator: ", ")))")
                found.append(EngineOptionProblem(option: key, message: "engine option '\(key)' is not an option of engine '\(name)'\(hint)"))
                continue
            }
            if !spec.type.accepts(value) {
                found.append(EngineOptionProblem(option: key, message: "engine option '\(key)' of engine '\(name)' must be \(spec.type.article) \(spec.type.rawValue), not \(value.typeName) \(value.jsonString)"))
            }
        }
        for spec in options where spec.isRequired && given[spec.name] == nil {
            found.append(EngineOptionProblem(option: nil, message: "engine '\(name)' needs option '\(spec.name)': \(spec.summary)"))
        }
        if found.isEmpty, let check { found = check(given) }
        return found
    }
}

extension EngineOptionType {
    /// "a" or "an", for messages.
    var article: String { self == .integer || self == .object || self == .array ? "an" : "a" }
}
