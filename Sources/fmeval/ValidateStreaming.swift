import Foundation
import FMCore
import FMRun
import FMSuite

/// What `fmeval validate` checks on each batch of streamed cases, kept by suite file so only the suites that
/// load without errors count (as when every case is loaded at once).
struct StreamedChecks {
    private var recordedByFile: [String: [Diagnostic]] = [:]
    private var engineByFile: [String: [String]] = [:]
    /// Cases that run on a device profile, for the context-window preflight.
    private(set) var onDevices: [ExpandedCase] = []

    /// Checks `batch`, cases of the suite in `file`.
    mutating func add(_ batch: [ExpandedCase], of file: String) {
        recordedByFile[file, default: []] += RecordedCases.problems(of: batch)
        engineByFile[file, default: []] += EngineResolution.problems(for: batch, request: nil)
        onDevices += batch.filter { $0.settings.device != nil }
    }

    /// Problems of recorded transcripts in the suites of `files`, each once.
    func recorded(in files: Set<String>) -> [Diagnostic] {
        var seen = Set<Diagnostic>()
        return recordedByFile.keys.sorted().filter(files.contains).flatMap { recordedByFile[$0] ?? [] }
            .filter { seen.insert($0).inserted }
    }

    /// Engine problems of the suites in `files`, each line once.
    func engineLines(in files: Set<String>) -> [String] {
        var seen = Set<String>()
        return engineByFile.keys.sorted().filter(files.contains).flatMap { engineByFile[$0] ?? [] }
            .filter { seen.insert($0).inserted }
    }
}

/// `fmeval validate --json`'s array of expanded cases, written to a temporary file a batch at a time and copied
/// to standard output only when there are no errors.
final class ExpandedCasesFile {
    private let url: URL
    private let handle: FileHandle
    private let encoder = JSONEncoder()
    private var empty = true
    private var failure: (any Error)?

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-validate-\(UUID().uuidString).json")
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            let folder = url.deletingLastPathComponent().path
            throw Fault.infrastructure("cannot create a temporary file in \(folder) for --json; set TMPDIR to a "
                + "writable folder")
        }
        handle = try FileHandle(forWritingTo: url)
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    }

    deinit {
        try? handle.close()
        try? FileManager.default.removeItem(at: url)
    }

    /// Appends `batch` as the array's next elements, indented as in one pretty-printed array; a failure to
    /// encode or write is kept and thrown by `copyToStandardOutput`, so no case goes missing unnoticed.
    func append(_ batch: [ExpandedCase]) {
        guard !batch.isEmpty, failure == nil else { return }
        do {
            let data = try encoder.encode(batch)
            // The batch's own array without its brackets: "[\n" first and "\n]" last.
            try handle.write(contentsOf: Data((empty ? "[\n" : ",\n").utf8))
            try handle.write(contentsOf: data.dropFirst(2).dropLast(2))
            empty = false
        } catch {
            failure = error
        }
    }

    /// Writes the array to standard output.
    func copyToStandardOutput() throws {
        if let failure {
            throw Fault.infrastructure("cannot write the expanded cases to \(url.path) for --json: \(failure)")
        }
        try handle.write(contentsOf: Data((empty ? "[\n\n]\n" : "\n]\n").utf8))
        try handle.close()
        let reader = try FileHandle(forReadingFrom: url)
        defer { try? reader.close() }
        while let chunk = try reader.read(upToCount: 1 << 20), !chunk.isEmpty {
            FileHandle.standardOutput.write(chunk)
        }
    }
}
