import Foundation
import FMCore
import FMStdio

setvbuf(fms_standard_output(), nil, _IOLBF, 0)

/// SIGINT and SIGTERM: no child starts any more, every running child's process group is ended, the
/// journal keeps what finished (it is written per case), and fmeval exits 130 or 143. The signals are
/// blocked in every thread (threads inherit this mask) and taken by one waiting thread, so no handler
/// runs inside other code and no worker can be starved of it.
func waitForStopSignals() {
    var stopSignals = sigset_t()
    sigemptyset(&stopSignals)
    sigaddset(&stopSignals, SIGINT)
    sigaddset(&stopSignals, SIGTERM)
    pthread_sigmask(SIG_BLOCK, &stopSignals, nil)
    let waited = stopSignals
    Thread.detachNewThread {
        var signals = waited
        var received: Int32 = 0
        guard sigwait(&signals, &received) == 0 else { return }
        ChildProcess.terminateAll()
        exit(128 + received)
    }
}
waitForStopSignals()

let words = Array(CommandLine.arguments.dropFirst())

if words.isEmpty || words == ["--help"] || words == ["-h"] {
    print(HelpCommand.overview)
    exit(words.isEmpty ? ExitStatus.invalidInput : ExitStatus.ok)
}
if words == ["--version"] {
    print(FMEvalVersion.current)
    exit(ExitStatus.ok)
}
guard let (command, rest) = findCommand(words) else {
    if let text = groupHelp(words[0]) {
        if words.count == 1 || words[1] == "--help" || words[1] == "-h" {
            print(text)
            exit(ExitStatus.ok)
        }
        let names = commandGroup(words[0]).map { $0.path[1] }
        var message = "unknown subcommand '\(words[1])' of '\(words[0])'"
        if let guess = Suggestion.closest(to: words[1], in: names) { message += " (did you mean '\(guess)'?)" }
        printError("fmeval: error: \(message); run 'fmeval \(words[0])' for its subcommands")
        exit(ExitStatus.invalidInput)
    }
    let known = Set(allCommands.map { $0.path.joined(separator: " ") })
    var message = "unknown command '\(words[0])'"
    if let guess = Suggestion.closest(to: words[0], in: Array(known)) { message += " (did you mean '\(guess)'?)" }
    printError("fmeval: error: \(message); run 'fmeval --help' for the list")
    exit(ExitStatus.invalidInput)
}
if rest.contains("--help") || rest.contains("-h") {
    print(command.help)
    exit(ExitStatus.ok)
}
do {
    exit(try command.run(rest))
} catch let error as Fault {
    printError("fmeval: error: \(error.message)")
    exit(error.exitStatus)
} catch {
    printError("fmeval: error: \(error)")
    exit(ExitStatus.invalidInput)
}
