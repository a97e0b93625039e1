import FMCore
import FMEngines

extension RespondCommand {
    /// The engine `respond` uses: `--engine` (default embedded) with `--model` as its `model` option and
    /// the `--engine-option`s over it, checked against the registry; problems name their flag (exit 2).
    static func engineConfiguration(_ flags: EngineFlags, modelPath: String?) throws -> EngineConfiguration {
        let name = flags.name ?? EngineRegistry.defaultEngine
        var configuration = EngineConfiguration(name: name, options: [:])
        if let modelPath {
            let option = EngineConfiguration.modelOption
            if let descriptor = EngineRegistry.descriptor(named: name), descriptor.option(option) == nil {
                throw Fault.invalidInput("respond: --model: engine '\(name)' has no '\(option)' option")
            }
            configuration.model = modelPath
        }
        for (key, value) in flags.options { configuration.options[key] = value }
        let problems = EngineRegistry.problems(configuration).map { problem -> String in
            guard let option = problem.option else { return "respond: \(flags.name == nil ? "" : "--engine: ")\(problem.message)" }
            return "respond: \(flags.options[option] != nil ? "--engine-option \(option)" : "--model"): \(problem.message)"
        }
        guard problems.isEmpty else { throw Fault.invalidInput(problems.joined(separator: "\n")) }
        return configuration
    }

    /// The request of one reply: the instructions (if any), the prompt, greedy sampling, the schema (if any).
    static func engineRequest(_ prompt: String, schema: GenerationSchema?, instructions: String?, maxTokens: Int?) -> EngineRequest {
        var entries: [Transcript.Entry] = []
        if let instructions {
            entries.append(.instructions(.init(id: "instructions", segments: [.text(.init(id: "i", content: instructions))])))
        }
        entries.append(.prompt(.init(id: "prompt", segments: [.text(.init(id: "p", content: prompt))])))
        return EngineRequest(transcript: Transcript(entries: entries), options: GenerationOptions(maximumResponseTokens: maxTokens), schema: schema)
    }

    /// One reply through a registry engine other than the embedded one: the text (or the structure for
    /// `--schema`) on standard output, or the `--json` report.
    static func respondThroughEngine(_ prompt: String, configuration: EngineConfiguration, schema: GenerationSchema?,
                                     instructions: String?, maxTokens: Int?, json: Bool) throws -> Int32 {
        let response: EngineResponse
        do {
            let engine = try EngineRegistry.provider(for: configuration).engine(for: AttemptContext(caseID: "respond", attempt: 0))
            response = try engine.respond(to: engineRequest(prompt, schema: schema, instructions: instructions, maxTokens: maxTokens)) { _ in }
        } catch let error as Fault {
            throw error.prefixed("respond: ")
        } catch let error as LanguageModelError {
            throw Fault.infrastructure("respond: \(error.description)")
        } catch {
            throw Fault.infrastructure("respond: engine '\(configuration.name)': \(error)")
        }
        let content = schema != nil && response.finishReason == .stop ? response.content : nil
        if json {
            printJSON(structuredReport(response, content: content).jsonString)
        } else {
            if let content { printJSON(content.jsonString) } else { print(response.text) }
        }
        return ExitStatus.ok
    }
}
