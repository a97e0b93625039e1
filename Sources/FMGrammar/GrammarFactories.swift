import FMCore

extension Grammar {
    /// The grammar of compact JSON documents that satisfy `schema`.
    ///
    /// Throws `LanguageModelError.unsupportedGenerationGuide` (naming the JSON pointer) for a guide
    /// the grammar cannot enforce, such as an unsupported `pattern` construct.
    public static func json(schema: GenerationSchema, options: GrammarOptions = GrammarOptions()) throws -> Grammar {
        var compiler = SchemaCompiler(options: options)
        var nfa = ByteNFA()
        let end = try compiler.value(.init(.reference("#")), of: schema, namespace: 0, path: "", &nfa, from: nfa.start)
        return compiler.finish(entry: nfa, accept: end)
    }

    /// The grammar of one tool call: `{"name": <a tool's name>, "arguments": <that tool's parameters>}`
    /// for any of `tools` (the union over tools; arguments follow the chosen tool's schema).
    public static func toolCall(tools: [ToolDefinition], options: GrammarOptions = GrammarOptions()) throws -> Grammar {
        try response(schema: nil, tools: tools, toolCallPrefix: "", options: options)
    }

    /// The grammar of a response that is either 1 to `maximumToolCalls` tool calls (when `tools` is not
    /// empty; each is `toolCallPrefix` followed by a call, calls separated by a line feed, which may also
    /// end the turn when more calls are allowed) or a JSON
    /// document satisfying `schema` (when it is given). With `enforcesArguments` false a call names a
    /// defined tool but its arguments may be any JSON object (a framework that forces a tool call
    /// without enforcing the argument guides).
    public static func response(
        schema: GenerationSchema?, tools: [ToolDefinition], toolCallPrefix: String, enforcesArguments: Bool = true,
        maximumToolCalls: Int = 1, options: GrammarOptions = GrammarOptions()
    ) throws -> Grammar {
        guard schema != nil || !tools.isEmpty else {
            throw LanguageModelError.unsupportedCapability(.init(debugDescription:
                "a tool call was requested but no tools are allowed; define a tool or set toolCallingMode to disallowed"))
        }
        var compiler = SchemaCompiler(options: options)
        var nfa = ByteNFA()
        let end = nfa.addNode()
        if let schema {
            let last = try compiler.value(.init(.reference("#")), of: schema, namespace: 0, path: "", &nfa, from: nfa.start)
            nfa.addEpsilon(from: last, to: end)
        }
        if !tools.isEmpty {
            var callEnd = try toolCall(tools, prefix: toolCallPrefix, enforcesArguments: enforcesArguments,
                                       compiler: &compiler, &nfa, from: nfa.start)
            nfa.addEpsilon(from: callEnd, to: end)
            for _ in 1..<max(1, maximumToolCalls) {
                // A line feed may also end the turn, so a model that writes one after its call is not
                // forced into another call.
                let lineFeed = nfa.literal(Array("\n".utf8), from: callEnd)
                nfa.addEpsilon(from: lineFeed, to: end)
                callEnd = try toolCall(tools, prefix: toolCallPrefix, enforcesArguments: enforcesArguments,
                                       compiler: &compiler, &nfa, from: lineFeed)
                nfa.addEpsilon(from: callEnd, to: end)
            }
        }
        return compiler.finish(entry: nfa, accept: end)
    }

    /// Appends `prefix` and one call of any of `tools` after `from`; returns the node after the call.
    private static func toolCall(
        _ tools: [ToolDefinition], prefix toolCallPrefix: String, enforcesArguments: Bool,
        compiler: inout SchemaCompiler, _ nfa: inout ByteNFA, from: Int
    ) throws -> Int {
        let end = nfa.addNode()
        let prefix = nfa.literal(Array(toolCallPrefix.utf8), from: from)
        let open = compiler.space(&nfa, from: nfa.literal(Array("{\"name\":".utf8), from: prefix))
        for (index, tool) in tools.enumerated() {
            var cursor = nfa.literal(Array(GeneratedContent.quoted(tool.name).utf8), from: open)
            cursor = compiler.space(&nfa, from: nfa.literal(Array(",".utf8), from: cursor))
            cursor = compiler.space(&nfa, from: nfa.literal(Array("\"arguments\":".utf8), from: cursor))
            do {
                cursor = enforcesArguments
                    ? try compiler.value(.init(.reference("#")), of: tool.parameters, namespace: index + 1, path: "",
                                         &nfa, from: cursor)
                    : compiler.anyObject(&nfa, from: cursor)
            } catch LanguageModelError.unsupportedGenerationGuide(let context) {
                throw LanguageModelError.unsupportedGenerationGuide(.init(debugDescription:
                    "tool '\(tool.name)' arguments " + context.debugDescription))
            }
            nfa.addEpsilon(from: nfa.literal(Array("}".utf8), from: cursor), to: end)
        }
        return end
    }
}
