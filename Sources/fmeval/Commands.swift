/// Every subcommand, in the order `fmeval --help` lists them. Add a command here and in its own file.
let allCommands: [Command.Type] = [
    HelpCommand.self,
    CompareCommand.self,
    MergeCommand.self,
    RunCommand.self,
    SchemaCheckCommand.self,
    TranscriptInspectCommand.self,
    ValidateCommand.self,
    TokenizeCommand.self,
    ModelFetchCommand.self,
    ModelInfoCommand.self,
    BenchCommand.self,
    BenchMaskCommand.self,
    RespondCommand.self,
]
