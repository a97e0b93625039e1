/// Every subcommand, in the order `fmeval --help` lists them. Add a command here and in its own file.
let allCommands: [Command.Type] = [
    RunCommand.self,
    ValidateCommand.self,
    CompareCommand.self,
    MergeCommand.self,
    ReportCommand.self,
    InitCommand.self,
    RespondCommand.self,
    SchemaCheckCommand.self,
    SchemaSuiteCommand.self,
    TranscriptInspectCommand.self,
    TokenizeCommand.self,
    ModelFetchCommand.self,
    ModelInfoCommand.self,
    BenchCommand.self,
    BenchMaskCommand.self,
    HelpCommand.self,
]
