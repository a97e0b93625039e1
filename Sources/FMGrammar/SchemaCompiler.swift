import FMCore

/// How a schema's JSON may be written, and optional loop guards for small models.
///
/// The guards only narrow the language to a subset of valid documents: every document the grammar
/// accepts still satisfies the schema. They stop a greedy model that repeats itself inside a string,
/// an unbounded array or a recursive definition from running until `maximumResponseTokens`.
public struct GrammarOptions: Hashable, Sendable {
    /// Allow one space after each `:` and `,` (never more: small models pad whitespace forever).
    public var allowsSpaceAfterSeparators: Bool
    /// After this many bytes inside a free string (no enum or pattern), only a closing quote may follow.
    public var maximumStringBytes: Int?
    /// The most elements of an array whose schema sets no `maxItems` (never below its `minItems`).
    public var maximumUnboundedItems: Int?
    /// How many times a definition may contain itself (deeper recursion must take a non-recursive choice).
    public var maximumRecursionDepth: Int?
    /// Which guides are enforced: every one (`strict`), or what the on-device decoder enforces (`device`).
    public var enforcement: GuideEnforcement

    /// Options; by default one optional space after separators, no loop guards, every guide enforced.
    public init(allowsSpaceAfterSeparators: Bool = true, maximumStringBytes: Int? = nil,
                maximumUnboundedItems: Int? = nil, maximumRecursionDepth: Int? = nil,
                enforcement: GuideEnforcement = .strict) {
        self.allowsSpaceAfterSeparators = allowsSpaceAfterSeparators
        self.maximumStringBytes = maximumStringBytes
        self.maximumUnboundedItems = maximumUnboundedItems
        self.maximumRecursionDepth = maximumRecursionDepth
        self.enforcement = enforcement
    }

    /// Options for a profile and its loop guards, with one optional space after separators.
    public init(enforcement: GuideEnforcement, loopGuards: LoopGuards) {
        self.init(maximumStringBytes: loopGuards.maximumStringBytes, maximumUnboundedItems: loopGuards.maximumUnboundedItems,
                  maximumRecursionDepth: loopGuards.maximumRecursionDepth, enforcement: enforcement)
    }

    /// The loop guards these options apply.
    public var loopGuards: LoopGuards {
        LoopGuards(maximumStringBytes: maximumStringBytes, maximumUnboundedItems: maximumUnboundedItems,
                   maximumRecursionDepth: maximumRecursionDepth)
    }

    /// Whether string choices (`enum`, or an `anyOf` of string `enum`s: the `.anyOf` guide) are
    /// enforced in a schema of `namespace` (0: the response schema; others: tool arguments). The
    /// `device` profile leaves them unenforced in tool arguments, as the on-device decoder does.
    func enforcesStringChoices(namespace: Int) -> Bool {
        enforcement == .strict || namespace == 0
    }
}

/// Compiles `GenerationSchema` nodes into grammar rules. Objects and arrays become rules of their
/// own (called, so `$ref` recursion works), and so do integers and numbers (one rule per bounds); other
/// scalars are written inline into the rule that holds them.
struct SchemaCompiler {
    /// Rules built so far (nil while a rule is being built); rule 0 is the entry.
    var rules: [(name: String, nfa: ByteNFA, accept: Int)?] = []
    private var ruleForKey: [String: Int] = [:]
    private var inlineReferences: [String] = []
    private var activeReferences: [String] = []
    private let options: GrammarOptions

    /// A compiler whose rule 0 is reserved for the entry rule.
    init(options: GrammarOptions) {
        self.options = options
        rules = [nil]
    }

    /// Sets the entry rule (rule 0) and returns the finished grammar.
    mutating func finish(entry nfa: ByteNFA, accept: Int) -> Grammar {
        rules[0] = ("entry", nfa, accept)
        return Grammar(rules: rules.map { $0! }, options: options)
    }

    /// Appends the optional single space allowed after a separator.
    func space(_ nfa: inout ByteNFA, from: Int) -> Int {
        guard options.allowsSpaceAfterSeparators else { return from }
        return nfa.optional(from: from) { nfa, node in nfa.literal(Array(" ".utf8), from: node) }
    }

    /// Appends a value matching `node` of `schema` (a namespace keeps several schemas' `$defs` apart).
    mutating func value(
        _ node: GenerationSchema.Node, of schema: GenerationSchema, namespace: Int, path: String,
        _ nfa: inout ByteNFA, from: Int
    ) throws -> Int {
        switch node.kind {
        case .object(let object):
            let rule = try objectRule(object, of: schema, namespace: namespace, path: path, key: inlineKey(namespace, path))
            return call(rule, &nfa, from: from)
        case .array(let array):
            let rule = try arrayRule(array, of: schema, namespace: namespace, path: path, key: inlineKey(namespace, path))
            return call(rule, &nfa, from: from)
        case .reference(let name):
            return try reference(name, of: schema, namespace: namespace, path: path, &nfa, from: from)
        case .anyOf(let choices) where !options.enforcesStringChoices(namespace: namespace) && choices.allSatisfy(\.isStringChoice):
            return JSONFragments.string(&nfa, from: from)
        case .anyOf(let choices):
            let end = nfa.addNode()
            for (index, choice) in choices.enumerated() {
                let branch = nfa.addNode()
                nfa.addEpsilon(from: from, to: branch)
                let last = try value(choice, of: schema, namespace: namespace, path: path + "/anyOf/\(index)", &nfa, from: branch)
                nfa.addEpsilon(from: last, to: end)
            }
            return end
        case .string(let string):
            if let choices = string.choices, options.enforcesStringChoices(namespace: namespace) {
                return JSONFragments.oneOf(choices.map { Array(GeneratedContent.quoted($0).utf8) }, &nfa, from: from)
            }
            if let pattern = string.pattern, string.choices == nil {
                if options.enforcement == .device, (try? RegexPattern(pattern))?.isSimple != true {
                    throw unsupported(path + "/pattern", "the device profile enforces only simple patterns (single-character "
                        + "atoms with quantifiers, no | and no quantified groups); simplify \(GeneratedContent.quoted(pattern)) "
                        + "or use guideEnforcement: strict")
                }
                let open = nfa.literal(Array("\"".utf8), from: from)
                let compiler = PatternCompiler(pattern: pattern, path: path + "/pattern")
                let body = try compiler.compile(&nfa, from: open)
                return nfa.literal(Array("\"".utf8), from: body)
            }
            return JSONFragments.string(&nfa, from: from)
        case .integer(let bounds):
            let (low, high) = try integerBounds(bounds, path: path, integral: false)
            let rule = numberRule("integer", low, high) {
                JSONFragments.integer(&$0, from: $1, minimum: low, maximum: high)
            }
            return call(rule, &nfa, from: from)
        case .number(let bounds):
            let (low, high) = try integerBounds(bounds, path: path, integral: true)
            let rule = numberRule("number", low, high) {
                JSONFragments.number(&$0, from: $1, minimum: low, maximum: high)
            }
            return call(rule, &nfa, from: from)
        case .boolean:
            return JSONFragments.oneOf([Array("true".utf8), Array("false".utf8)], &nfa, from: from)
        case .null:
            return nfa.literal(Array("null".utf8), from: from)
        }
    }

    /// The rule key of an object or array written in place: its path, within the chain of references
    /// being compiled (so each recursion depth gets its own copy when depth is limited).
    private func inlineKey(_ namespace: Int, _ path: String) -> String {
        "\(namespace)|\(path)|" + activeReferences.joined(separator: ",")
    }

    /// A call edge to `rule`.
    func call(_ rule: Int, _ nfa: inout ByteNFA, from: Int) -> Int {
        let end = nfa.addNode()
        nfa.addCall(from: from, rule: rule, to: end)
        return end
    }

    /// Follows `$ref`: objects and arrays share one rule per definition (so recursion is a call);
    /// other definitions are written inline.
    private mutating func reference(
        _ name: String, of schema: GenerationSchema, namespace: Int, path: String, _ nfa: inout ByteNFA, from: Int
    ) throws -> Int {
        let reference = GenerationSchema.referenceString(name)
        guard let target = schema.definition(named: name) else {
            throw unsupported(path, "the reference \(reference) names no definition; add it to $defs")
        }
        let key = "\(namespace)|\(reference)"
        let pointer = String(reference.dropFirst())
        let depth = options.maximumRecursionDepth == nil ? 0 : activeReferences.filter { $0 == key }.count
        switch target.kind {
        case .object, .array:
            if let limit = options.maximumRecursionDepth, depth > limit { return nfa.addNode() }
            activeReferences.append(key)
            defer { activeReferences.removeLast() }
            let rule: Int
            if case .object(let object) = target.kind {
                rule = try objectRule(object, of: schema, namespace: namespace, path: pointer, key: "\(key)#\(depth)")
            } else if case .array(let array) = target.kind {
                rule = try arrayRule(array, of: schema, namespace: namespace, path: pointer, key: "\(key)#\(depth)")
            } else {
                return nfa.addNode()
            }
            return call(rule, &nfa, from: from)
        default:
            guard !inlineReferences.contains(key) else {
                throw unsupported(path, "the reference \(reference) refers back to itself without an object or array in between")
            }
            inlineReferences.append(key)
            defer { inlineReferences.removeLast() }
            return try value(target, of: schema, namespace: namespace, path: pointer, &nfa, from: from)
        }
    }

    /// Reserves a rule id for `key` (or returns the existing one) so that recursive uses can call it.
    mutating func reserve(_ key: String) -> (rule: Int, isNew: Bool) {
        if let rule = ruleForKey[key] { return (rule, false) }
        rules.append(nil)
        ruleForKey[key] = rules.count - 1
        return (rules.count - 1, true)
    }

    /// The rule of an `integer` or `number` between `low` and `high`, one per kind and bounds for the whole
    /// grammar: called rather than written in place, so a rule holding several (an object with optional
    /// numeric properties) determinizes its own few states, not a copy of the digits' automaton per property
    /// and per choice of which optional properties came before.
    private mutating func numberRule(_ kind: String, _ low: Int64?, _ high: Int64?,
                                     _ build: (inout ByteNFA, Int) -> Int) -> Int {
        let bounds = "\(low.map(String.init) ?? "")..\(high.map(String.init) ?? "")"
        let (rule, isNew) = reserve("\(kind)|\(bounds)")
        guard isNew else { return rule }
        var nfa = ByteNFA()
        let accept = build(&nfa, nfa.start)
        rules[rule] = ("\(kind) \(bounds)", nfa, accept)
        return rule
    }

    /// The rule of an object: `{`, the properties in `x-order` (optional ones may be skipped), `}`.
    private mutating func objectRule(
        _ object: GenerationSchema.ObjectSchema, of schema: GenerationSchema, namespace: Int, path: String, key: String
    ) throws -> Int {
        let (rule, isNew) = reserve(key)
        guard isNew else { return rule }
        var nfa = ByteNFA()
        let count = object.properties.count
        var slots = [[Int?]](repeating: [nil, nil], count: count + 1)
        slots[0][0] = nfa.literal(Array("{".utf8), from: nfa.start)
        func slot(_ index: Int, _ written: Int, _ nfa: inout ByteNFA) -> Int {
            if let node = slots[index][written] { return node }
            let node = nfa.addNode()
            slots[index][written] = node
            return node
        }
        for (index, property) in object.properties.enumerated() {
            for written in 0...1 {
                guard let node = slots[index][written] else { continue }
                if !property.isRequired { nfa.addEpsilon(from: node, to: slot(index + 1, written, &nfa)) }
                var cursor = node
                if written == 1 { cursor = space(&nfa, from: nfa.literal(Array(",".utf8), from: cursor)) }
                cursor = nfa.literal(Array((GeneratedContent.quoted(property.name) + ":").utf8), from: cursor)
                cursor = space(&nfa, from: cursor)
                let propertyPath = jsonPointer(path + "/properties", property.name)
                cursor = try value(property.node, of: schema, namespace: namespace, path: propertyPath, &nfa, from: cursor)
                nfa.addEpsilon(from: cursor, to: slot(index + 1, 1, &nfa))
            }
        }
        let accept = nfa.addNode()
        for written in 0...1 {
            if let node = slots[count][written] { nfa.addBytes(from: node, UInt8(ascii: "}"), UInt8(ascii: "}"), to: accept) }
        }
        rules[rule] = (path.isEmpty ? "#" : path, nfa, accept)
        return rule
    }

    /// The most elements an array may be unrolled to.
    static let maximumItemsLimit = 1024

    /// The rule of an array: `[`, between `minItems` and `maxItems` elements, `]`.
    private mutating func arrayRule(
        _ array: GenerationSchema.ArraySchema, of schema: GenerationSchema, namespace: Int, path: String, key: String
    ) throws -> Int {
        let (rule, isNew) = reserve(key)
        guard isNew else { return rule }
        let minimum = max(array.minItems ?? 0, 0)
        if let maximum = array.maxItems, maximum < minimum {
            throw unsupported(path, "maxItems \(maximum) is below minItems \(minimum); no array can satisfy both")
        }
        if max(minimum, array.maxItems ?? 0) > Self.maximumItemsLimit {
            throw unsupported(path, "item counts above \(Self.maximumItemsLimit) cannot be enforced; lower minItems/maxItems")
        }
        var nfa = ByteNFA()
        let accept = nfa.addNode()
        let open = nfa.literal(Array("[".utf8), from: nfa.start)
        let close = UInt8(ascii: "]")
        if minimum == 0 { nfa.addBytes(from: open, close, close, to: accept) }
        let maximum = array.maxItems ?? options.maximumUnboundedItems.map { max($0, minimum) }
        let unrolled = maximum ?? max(minimum, 1)
        let itemPath = path + "/items"
        var cursor = open
        for index in 0..<unrolled {
            var node = cursor
            if index > 0 { node = space(&nfa, from: nfa.literal(Array(",".utf8), from: node)) }
            cursor = try value(array.items, of: schema, namespace: namespace, path: itemPath, &nfa, from: node)
            if index + 1 >= minimum { nfa.addBytes(from: cursor, close, close, to: accept) }
        }
        if maximum == nil {
            let separator = space(&nfa, from: nfa.literal(Array(",".utf8), from: cursor))
            let last = try value(array.items, of: schema, namespace: namespace, path: itemPath, &nfa, from: separator)
            nfa.addEpsilon(from: last, to: cursor)
        }
        rules[rule] = (path, nfa, accept)
        return rule
    }

    /// Integer bounds of an `integer` (rounded inward) or a `number` (which must have integral bounds).
    private func integerBounds(
        _ bounds: GenerationSchema.NumberBounds, path: String, integral: Bool
    ) throws -> (Int64?, Int64?) {
        let limit = Double(JSONFragments.largestMagnitude)
        func convert(_ value: Double?, keyword: String, rounding: FloatingPointRoundingRule) throws -> Int64? {
            guard let value else { return nil }
            guard value.isFinite else { throw unsupported(path, "\(keyword) must be a finite number") }
            if integral && value.rounded() != value {
                throw unsupported(path + "/" + keyword,
                    "a fractional \(keyword) (\(value)) on a number cannot be enforced; use integral bounds or an integer")
            }
            return Int64(max(-limit, min(limit, value.rounded(rounding))))
        }
        let low = try convert(bounds.minimum, keyword: "minimum", rounding: .up)
        let high = try convert(bounds.maximum, keyword: "maximum", rounding: .down)
        if let low, let high, low > high {
            throw unsupported(path, "no \(integral ? "number" : "integer") lies between minimum and maximum; fix the bounds")
        }
        return (low, high)
    }
}

extension GenerationSchema.Node {
    /// True for a string node limited to `enum` values: how Foundation Models writes one `.anyOf` choice.
    var isStringChoice: Bool {
        if case .string(let string) = kind { return string.choices != nil }
        return false
    }
}

/// `LanguageModelError.unsupportedGenerationGuide` naming the JSON pointer `path`.
func unsupported(_ path: String, _ message: String) -> LanguageModelError {
    .unsupportedGenerationGuide(.init(debugDescription: "at \(path.isEmpty ? "the schema root" : path): \(message)"))
}
