import Testing
@testable import FMEmbedded

/// Builds a tiny byte-level BPE model: every byte, then `extra` tokens, merges, and specials.
func tinyTokenizer(extra: [String], merges: [String], pre: String = "smollm",
                   specials: [String] = ["<|im_start|>", "<|im_end|>"]) throws -> Tokenizer {
    let alphabet = TokenizerUnicode.byteToScalar.map { String(Unicode.Scalar($0)!) }
    let tokens = specials + alphabet + extra
    var writer = GGUFWriter()
    writer.add("tokenizer.ggml.model", .string("gpt2"))
    writer.add("tokenizer.ggml.pre", .string(pre))
    writer.add("tokenizer.ggml.tokens", .array(elementType: .string, values: tokens.map { .string($0) }))
    writer.add("tokenizer.ggml.token_type", .array(elementType: .int32, values: tokens.indices.map {
        .int32($0 < specials.count ? 3 : 1)
    }))
    writer.add("tokenizer.ggml.merges", .array(elementType: .string, values: merges.map { .string($0) }))
    writer.add("tokenizer.ggml.eos_token_id", .uint32(1))
    return try Tokenizer(file: GGUFFile(path: try writeTemporary(writer.bytes())))
}

@Suite struct PreTokenizerTests {
    func pieces(_ text: String, _ pre: PreTokenizer = .smollm) -> [String] {
        let scalars = Array(text.unicodeScalars)
        return pre.split(scalars).map { range in
            var s = ""
            s.unicodeScalars.append(contentsOf: scalars[range])
            return s
        }
    }

    @Test func splitsLikeTheGPT2PatternWithIsolatedDigits() {
        #expect(pieces("Hello  world  ") == ["Hello", " ", " world", "  "])
        #expect(pieces("I'm here, you're there") == ["I", "'m", " here", ",", " you", "'re", " there"])
        #expect(pieces("3.14159 and 2,718") == ["3", ".", "1", "4", "1", "5", "9", " and", " ", "2", ",", "7", "1", "8"])
        #expect(pieces("a\n\nb") == ["a", "\n", "\n", "b"])
        #expect(pieces("tabs\tand\n  x") == ["tabs", "\t", "and", "\n ", " x"])
        #expect(pieces("A--B...C!!!?") == ["A", "--", "B", "...", "C", "!!!?"])
        #expect(pieces("don't 'S 'll") == ["don", "'t", " '", "S", " '", "ll"])
        #expect(pieces("émoji 🙂👍!") == ["émoji", " 🙂👍!"])
        #expect(pieces("x²½") == ["x", "²", "½"])
        #expect(pieces("   ") == ["   "])
        #expect(pieces("") == [])
    }

    @Test func gpt2KeepsDigitRuns() {
        #expect(pieces("abc 12345x", .gpt2) == ["abc", " 12345", "x"])
        #expect(pieces("abc 12345x", .smollm) == ["abc", " ", "1", "2", "3", "4", "5", "x"])
    }

    @Test func namesFromGGUF() {
        #expect(PreTokenizer(ggufName: "smollm") == .smollm)
        #expect(PreTokenizer(ggufName: "gpt2") == .gpt2)
        #expect(PreTokenizer(ggufName: "llama-bpe") == nil)
    }
}

@Suite struct TokenizerTests {
    @Test func mergesLowestRankFirst() throws {
        let lowFirst = try tinyTokenizer(extra: ["bc", "ab", "abc"], merges: ["b c", "a b", "a bc"])
        let abc = try #require(lowFirst.specialTokenID("<|im_start|>")).advanced(by: 2 + 256 + 2)
        #expect(lowFirst.tokenize("abc") == [abc])
        #expect(lowFirst.tokenBytes(abc) == Array("abc".utf8))
        // Without the rule "a bc", the earlier "b c" merge blocks "a b": the result is a + bc.
        let blocked = try tinyTokenizer(extra: ["bc", "ab"], merges: ["b c", "a b"])
        #expect(blocked.detokenize(blocked.tokenize("abc")) == Array("abc".utf8))
        #expect(blocked.tokenize("abc").map { blocked.tokenBytes($0) } == [Array("a".utf8), Array("bc".utf8)])
    }

    @Test func tiesMergeLeftmostFirst() throws {
        let tokenizer = try tinyTokenizer(extra: ["aa"], merges: ["a a"])
        let pieces = tokenizer.tokenize("aaa").map { String(decoding: tokenizer.tokenBytes($0), as: UTF8.self) }
        #expect(pieces == ["aa", "a"])
        let five = tokenizer.tokenize("aaaaa").map { String(decoding: tokenizer.tokenBytes($0), as: UTF8.self) }
        #expect(five == ["aa", "aa", "a"])
    }

    @Test func specialTokensOnlyWhenAsked() throws {
        let tokenizer = try tinyTokenizer(extra: [], merges: [])
        let start = try #require(tokenizer.specialTokenID("<|im_start|>"))
        let end = try #require(tokenizer.specialTokenID("<|im_end|>"))
        #expect(tokenizer.tokenize("<|im_start|>x<|im_end|>", parseSpecial: true) == [start, tokenizer.tokenize("x")[0], end])
        let plain = tokenizer.tokenize("<|im_start|>")
        #expect(plain.count == 12 && !plain.contains(start))
        #expect(tokenizer.specialTokenIDs == [start, end])
        #expect(tokenizer.stopIDs.contains(end))
        #expect(tokenizer.detokenize([start, end]).isEmpty)
        #expect(tokenizer.detokenize([start], renderSpecial: true) == Array("<|im_start|>".utf8))
        #expect(tokenizer.tokenBytes(-1).isEmpty && tokenizer.tokenBytes(tokenizer.vocabularySize).isEmpty)
    }

    @Test func everyByteRoundTrips() throws {
        let tokenizer = try tinyTokenizer(extra: [], merges: [])
        let text = "tab\t nul\u{0} ünï 日本 🙂 \u{7F}"
        #expect(tokenizer.detokenize(tokenizer.tokenize(text)) == Array(text.utf8))
        #expect(tokenizer.allTokenBytes.count == tokenizer.vocabularySize)
    }

    @Test func rejectsUnsupportedTokenizers() throws {
        var sentencePiece = GGUFWriter()
        sentencePiece.add("tokenizer.ggml.model", .string("llama"))
        let error = try #require(throws: GGUFError.self) {
            try Tokenizer(file: GGUFFile(path: try writeTemporary(sentencePiece.bytes())))
        }
        #expect(error.message.contains("'llama'"))
        #expect(throws: GGUFError.self) { try tinyTokenizer(extra: [], merges: [], pre: "llama-bpe") }
        let badMerge = try #require(throws: GGUFError.self) { try tinyTokenizer(extra: [], merges: ["a zz"]) }
        #expect(badMerge.message.contains("merges[0]"))
    }
}

@Suite struct ChatTemplateTests {
    static let smolTemplate = """
        {% for message in messages %}{% if loop.first and messages[0]['role'] != 'system' %}{{ '<|im_start|>system
        You are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>
        ' }}{% endif %}{{'<|im_start|>' + message['role'] + '
        ' + message['content'] + '<|im_end|>' + '
        '}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant
        ' }}{% endif %}
        """

    @Test func findsTheDefaultSystemPromptInTheTemplate() {
        #expect(ChatTemplate.defaultSystemPrompt(inTemplate: Self.smolTemplate)
                == "You are a helpful AI assistant named SmolLM, trained by Hugging Face")
        #expect(ChatTemplate.defaultSystemPrompt(inTemplate: "{{'<|im_start|>' + m + '<|im_end|>'}}") == nil)
    }

    @Test func rendersChatMLWithDefaultSystemAndGenerationPrompt() {
        let template = ChatTemplate(defaultSystemPrompt: "Be brief.")
        #expect(template.render(instructions: nil, prompt: "Hi") ==
                "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n")
        #expect(template.render(instructions: "Only JSON.", prompt: "Hi") ==
                "<|im_start|>system\nOnly JSON.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n")
        #expect(template.render([.user("a"), .assistant("b")], addGenerationPrompt: false) ==
                "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\na<|im_end|>\n<|im_start|>assistant\nb<|im_end|>\n")
        #expect(ChatTemplate(defaultSystemPrompt: nil).render(instructions: nil, prompt: "x") ==
                "<|im_start|>user\nx<|im_end|>\n<|im_start|>assistant\n")
    }

    @Test func promptTokensNeedChatMLTokens() throws {
        let withMarkers = try tinyTokenizer(extra: [], merges: [])
        let ids = try ChatTemplate(defaultSystemPrompt: nil).promptTokens([.user("x")], tokenizer: withMarkers)
        #expect(ids == withMarkers.tokenize("<|im_start|>user\nx<|im_end|>\n<|im_start|>assistant\n", parseSpecial: true))
        let without = try tinyTokenizer(extra: [], merges: [], specials: ["<s>"])
        #expect(throws: ChatTemplateError.self) { try ChatTemplate(defaultSystemPrompt: nil).promptTokens([.user("x")], tokenizer: without) }
    }

    @Test func readsTheTemplateFromGGUF() throws {
        var writer = GGUFWriter()
        writer.add("tokenizer.chat_template", .string(Self.smolTemplate))
        let template = try ChatTemplate(file: GGUFFile(path: try writeTemporary(writer.bytes())))
        #expect(template.defaultSystemPrompt?.hasPrefix("You are a helpful AI assistant") == true)
        var llama3 = GGUFWriter()
        llama3.add("tokenizer.chat_template", .string("{{ '<|start_header_id|>' + role + '<|end_header_id|>' }}"))
        #expect(throws: GGUFError.self) { try ChatTemplate(file: GGUFFile(path: try writeTemporary(llama3.bytes()))) }
        let none = try ChatTemplate(file: GGUFFile(path: try writeTemporary(GGUFWriter().bytes())))
        #expect(none.defaultSystemPrompt == nil)
    }
}
