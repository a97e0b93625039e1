import FMSession
import FMSuite

extension SessionTool {
    /// The session form of a suite tool: its definition and where its output comes from.
    init(suiteTool: SuiteTool) {
        self.init(definition: suiteTool.definition, output: ToolOutputSource(suiteTool.output))
    }
}

extension ToolOutputSource {
    /// The session form of a suite's tool output (fixture files were read when the suite loaded).
    init(_ output: ToolOutput) {
        switch output {
        case .text(let text): self = .text(text)
        case .structure(let content): self = .text(content.jsonString)
        case .file(_, let text): self = .text(text)
        case .command(let argv, let timeout): self = .command(ToolCommand(argv: argv, timeoutSeconds: timeout))
        case .byArguments(let rules):
            self = .byArguments(rules.map { ArgumentRule(when: $0.when, output: ToolOutputSource($0.output)) })
        }
    }
}
