import FMSession
import FMSuite

extension SessionTool {
    /// The session form of a suite tool: its definition and its output as the suite declared it.
    init(suiteTool: SuiteTool) {
        self.init(definition: suiteTool.definition, output: suiteTool.output)
    }
}
