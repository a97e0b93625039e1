import Foundation
import Testing
import FMCore
import FMResults
import FMRun

/// A store that keeps the runs saved to it, or refuses every save.
private final class ListStore: ResultStore {
    let location: String
    let refuses: Bool
    var runs: [RunResult] = []
    var saved: [String] { runs.map(\.run.id) }

    init(location: String, refuses: Bool = false) {
        self.location = location
        self.refuses = refuses
    }

    func save(_ run: RunResult) throws {
        if refuses { throw Fault.infrastructure("\(location): refused") }
        runs.append(run)
    }

    func loadRun(named name: String) throws -> RunResult {
        guard let run = name == "last" ? runs.last : runs.first(where: { $0.run.id == name }) else {
            throw Fault.invalidInput("\(location): no run '\(name)'")
        }
        return run
    }
}

/// `RunPipeline.execute(…, stores:)`: after the results file, each store gets the run; one that fails is
/// a warning and never costs the results.
@Test func executeSavesToEveryStoreAfterTheResultsFileAndWarnsForOneThatFails() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stores-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let suite = folder.appendingPathComponent("demo.yaml").path
    try Data("suite: demo\nengine: scripted\ncases:\n  - { id: one, prompt: Hi, script: [ { text: Hello } ], expect: { contains: Hello } }\n".utf8)
        .write(to: URL(fileURLWithPath: suite))
    let resultsPath = folder.appendingPathComponent("results.json").path
    let request = RunRequest(paths: [suite], resultsPath: resultsPath)
    let broken = ListStore(location: "broken.sqlite", refuses: true), kept = ListStore(location: "kept.sqlite")
    var notices: [String] = []
    let result = try RunPipeline.execute(request, plan: try RunPipeline.plan(request), notice: { notices.append($0) },
                                         stores: [broken, kept])
    #expect(kept.saved == [result.run.id])
    #expect(try ResultsFile.load(resultsPath).run.id == result.run.id)
    #expect(notices == ["warning: broken.sqlite: refused; the run is not in it, but its results are in \(resultsPath)"])
}

/// The seam reads back what it saved: a store of the caller's own and the results file alike name
/// runs `last` or by id, and a name they do not hold is invalid input.
@Test func everyStoreReadsBackTheRunItSaved() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stores-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let suite = folder.appendingPathComponent("demo.yaml").path
    let text = "suite: demo\nengine: scripted\ncases:\n"
        + "  - { id: one, prompt: Hi, script: [ { text: Hello } ], expect: { contains: Hello } }\n"
    try Data(text.utf8).write(to: URL(fileURLWithPath: suite))
    let resultsPath = folder.appendingPathComponent("results.json").path
    let request = RunRequest(paths: [suite], resultsPath: resultsPath)
    let list = ListStore(location: "list")
    let result = try RunPipeline.execute(request, plan: try RunPipeline.plan(request), stores: [list])
    let stores: [any ResultStore] = [list, ResultsFileStore(path: resultsPath)]
    for store in stores {
        for name in ["last", result.run.id] {
            let read = try store.loadRun(named: name)
            #expect(read.run.id == result.run.id && read.cases.map(\.id) == ["demo/one"], "\(store.location) \(name)")
        }
        #expect(throws: Fault.self) { try store.loadRun(named: "nope") }
    }
}
