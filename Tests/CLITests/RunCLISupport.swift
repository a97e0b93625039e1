import Foundation
import Testing

/// A fixture suite under Tests/CLITests/fixtures.
func fixture(_ name: String) -> String {
    packageRoot.appendingPathComponent("Tests/CLITests/fixtures/\(name)").path
}

/// A fresh temporary folder for one test's outputs.
func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-run-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A results document read back as JSON objects.
struct Results {
    let document: [String: Any]

    init(path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    var cases: [[String: Any]] { document["cases"] as? [[String: Any]] ?? [] }
    var summary: [String: Any] { document["summary"] as? [String: Any] ?? [:] }

    /// The case whose `caseID` is `id`.
    func `case`(_ id: String) throws -> [String: Any] {
        try #require(cases.first { $0["caseID"] as? String == id }, "no case \(id) in results")
    }

    /// caseID → status for every case.
    var statuses: [String: String] {
        Dictionary(uniqueKeysWithValues: cases.map { ($0["caseID"] as? String ?? "", $0["status"] as? String ?? "") })
    }

    /// The attempts of case `id`.
    func attempts(_ id: String) throws -> [[String: Any]] {
        try #require(try self.case(id)["attempts"] as? [[String: Any]])
    }

    /// The error object of attempt `index` of case `id`.
    func error(_ id: String, attempt index: Int = 0) throws -> [String: Any] {
        try #require(try attempts(id)[index]["error"] as? [String: Any], "case \(id) has no error")
    }
}

/// Runs `fmeval run` with `arguments`, writing results into `folder`; returns the process result and results.
func runSuite(_ arguments: [String], in folder: URL) throws -> (CLIResult, Results?) {
    let json = folder.appendingPathComponent("results.json").path
    let result = try runFMEval(["run"] + arguments + ["--json", json], environment: ["CI": "true"])
    let results = FileManager.default.fileExists(atPath: json) ? try Results(path: json) : nil
    return (result, results)
}
