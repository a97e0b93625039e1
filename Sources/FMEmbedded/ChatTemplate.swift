/// One chat message for prompt rendering.
public struct ChatMessage: Sendable, Equatable {
    /// The ChatML role: `system`, `user`, `assistant` or `tool`.
    public var role: String
    /// The message text.
    public var content: String

    /// Creates a message.
    public init(role: String, content: String) {
        self.role = role
        self.content = content
    }

    /// A system message.
    public static func system(_ content: String) -> ChatMessage { ChatMessage(role: "system", content: content) }
    /// A user message.
    public static func user(_ content: String) -> ChatMessage { ChatMessage(role: "user", content: content) }
    /// An assistant message.
    public static func assistant(_ content: String) -> ChatMessage { ChatMessage(role: "assistant", content: content) }
}

/// The ChatML prompt format (`<|im_start|>role\n…<|im_end|>\n`), as SmolLM2's GGUF template renders it.
///
/// When the first message is not a system message, the model's default system prompt (read from the
/// GGUF's `tokenizer.chat_template`) is put first, as the template does. No BOS token is added.
public struct ChatTemplate: Sendable, Equatable {
    /// The system prompt used when the conversation has none, if the model defines one.
    public var defaultSystemPrompt: String?

    /// The start-of-message marker.
    public static let start = "<|im_start|>"
    /// The end-of-message marker.
    public static let end = "<|im_end|>"

    /// A template with an explicit default system prompt.
    public init(defaultSystemPrompt: String?) {
        self.defaultSystemPrompt = defaultSystemPrompt
    }

    /// The template of `file`: ChatML, with the default system prompt taken from `tokenizer.chat_template`.
    ///
    /// A model without a chat template gets plain ChatML without a default system prompt; a template
    /// that is not ChatML is an error, since fmeval renders only ChatML.
    public init(file: GGUFFile) throws {
        guard let source = file.string("tokenizer.chat_template") else {
            self.init(defaultSystemPrompt: nil)
            return
        }
        guard source.contains(Self.start) && source.contains(Self.end) else {
            throw GGUFError(path: file.path, offset: nil,
                            message: "tokenizer.chat_template is not ChatML (no \(Self.start) … \(Self.end))",
                            hint: "use a model with a ChatML chat template, such as the default SmolLM2 model")
        }
        self.init(defaultSystemPrompt: Self.defaultSystemPrompt(inTemplate: source))
    }

    /// The literal system message a ChatML Jinja template inserts, if it has one.
    public static func defaultSystemPrompt(inTemplate source: String) -> String? {
        let marker = start + "system\n"
        guard let opening = source.range(of: marker),
              let closing = source.range(of: end, range: opening.upperBound ..< source.endIndex) else { return nil }
        let text = String(source[opening.upperBound ..< closing.lowerBound])
        // A template that builds the system text from variables is not a literal default.
        return text.contains("{{") || text.contains("{%") || text.contains("'") ? nil : text
    }

    /// The prompt text for `messages`, ending with `<|im_start|>assistant\n` when `addGenerationPrompt`.
    public func render(_ messages: [ChatMessage], addGenerationPrompt: Bool = true) -> String {
        var text = ""
        if let defaultSystemPrompt, messages.first?.role != "system" {
            text += Self.start + "system\n" + defaultSystemPrompt + Self.end + "\n"
        }
        for message in messages {
            text += Self.start + message.role + "\n" + message.content + Self.end + "\n"
        }
        if addGenerationPrompt { text += Self.start + "assistant\n" }
        return text
    }

    /// The prompt for one turn: optional instructions as the system message, then the user prompt.
    public func render(instructions: String?, prompt: String) -> String {
        var messages: [ChatMessage] = []
        if let instructions { messages.append(.system(instructions)) }
        messages.append(.user(prompt))
        return render(messages)
    }

    /// The prompt's token ids: the ChatML markers as their special tokens, every role and content as
    /// plain text, so text that merely spells a marker (a user typing `<|im_end|>`) stays text.
    ///
    /// For content without markers this equals `tokenizer.tokenize(render(...), parseSpecial: true)`.
    public func promptTokens(_ messages: [ChatMessage], tokenizer: Tokenizer,
                             addGenerationPrompt: Bool = true) throws -> [Int] {
        guard let start = tokenizer.specialTokenID(Self.start), let end = tokenizer.specialTokenID(Self.end) else {
            throw ChatTemplateError(message: "the model's vocabulary has no \(Self.start) / \(Self.end) tokens, so it cannot use ChatML; use a ChatML model such as the default SmolLM2")
        }
        var all = messages
        if let defaultSystemPrompt, messages.first?.role != "system" { all.insert(.system(defaultSystemPrompt), at: 0) }
        var ids: [Int] = []
        let newline = tokenizer.tokenize("\n")
        for message in all {
            ids.append(start)
            ids += tokenizer.tokenize(message.role + "\n" + message.content)
            ids.append(end)
            ids += newline
        }
        if addGenerationPrompt {
            ids.append(start)
            ids += tokenizer.tokenize("assistant\n")
        }
        return ids
    }
}

/// A conversation that the model's chat format cannot express.
public struct ChatTemplateError: Error, CustomStringConvertible, Sendable {
    /// What is wrong and what to do.
    public let message: String

    /// The message.
    public var description: String { message }
}

