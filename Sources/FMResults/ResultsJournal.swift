import Foundation
import FMCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The crash-safe side of a results file: one JSON line per finished case, appended as it finishes.
///
/// `FILE.jsonl` beside the results `FILE`: first `{"journal": 1, "run": RunInfo}`, then one
/// `{"case": CaseResult}` per line. Nothing finished is lost to a crash or Ctrl-C.
///
/// A new journal is written beside the old one and renamed over it only once it holds the header and
/// the carried cases, so an earlier journal is never lost to a failed start. A write that fails (a
/// full disk) is cut back to the last whole line, so the journal stays readable by `--resume`.
// @unchecked Sendable: the descriptor, `length`, `lines` and `texts` are used only under `lock`; `path` is immutable.
public final class ResultsJournal: @unchecked Sendable {
    /// The journal path for results file `resultsPath`.
    public static func path(for resultsPath: String) -> String { resultsPath + "l" }

    /// Where the journal is written.
    public let path: String
    private var descriptor: Int32
    private var length = 0
    private var lines = 0
    private let lock = NSLock()
    private var texts: [(id: String, text: String)] = []

    /// Starts a journal at `path` for the run described by `run`, replacing any old journal once the new
    /// one holds `carried` (cases finished by an earlier, resumed run), which are written first.
    public init(path: String, run: RunInfo, carried: [CaseResult] = []) throws {
        self.path = path
        try? FileManager.default.createDirectory(atPath: FilePaths.parent(of: path), withIntermediateDirectories: true)
        let fresh = path + ".new-\(getpid())"
        descriptor = open(fresh, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw Fault.infrastructure("cannot create the results journal \(path): "
                + "\(String(cString: strerror(errno))); "
                + "check that the folder is writable")
        }
        do {
            try appendLine(Array(#"{"journal":1,"run":"#.utf8) + ContentEncoder.jsonBytes(run) + Array("}\n".utf8))
            for result in carried { try append(result) }
            guard rename(fresh, path) == 0 else {
                throw Fault.infrastructure("cannot replace the results journal \(path): "
                    + "\(String(cString: strerror(errno)))")
            }
        } catch {
            // Closed here and marked, so `deinit` (which may run for a failed initializer) cannot close
            // the number again after another thread reused it.
            close(descriptor)
            descriptor = -1
            unlink(fresh)
            throw error
        }
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// Appends one finished case (thread-safe).
    public func append(_ result: CaseResult) throws {
        try append(try Self.encode(result), id: result.id)
    }

    /// The journal line of `result` and its JSON text; encoding needs no lock, so callers can do it in parallel.
    public static func encode(_ result: CaseResult) throws -> (line: [UInt8], text: String) {
        let body = try ContentEncoder.jsonBytes(result)
        var line: [UInt8] = []
        line.reserveCapacity(body.count + 10)
        line.append(contentsOf: #"{"case":"#.utf8)
        line.append(contentsOf: body)
        line.append(contentsOf: "}\n".utf8)
        return (line, String(decoding: body, as: UTF8.self))
    }

    /// Appends one case already encoded by `encode`, whose id is `id` (thread-safe).
    public func append(_ encoded: (line: [UInt8], text: String), id: String) throws {
        try appendLine(encoded.line)
        lock.lock()
        texts.append((id, encoded.text))
        lock.unlock()
    }

    /// The JSON texts of `cases` as the journal holds them, in the order of `cases` (which may differ
    /// from the order they finished in); nil when the journal lacks one of them.
    public func caseTexts(for cases: [CaseResult]) -> [String]? {
        lock.lock()
        let byID = Dictionary(texts.map { ($0.id, $0.text) }, uniquingKeysWith: { _, last in last })
        lock.unlock()
        let ordered = cases.compactMap { byID[$0.id] }
        return ordered.count == cases.count ? ordered : nil
    }

    /// Deletes the journal (the complete results file now holds everything).
    public func finish() {
        lock.lock()
        defer { lock.unlock() }
        unlink(path)
    }

    /// Appends `line` whole or not at all: a failed write is cut back to the last whole line.
    private func appendLine(_ line: [UInt8]) throws {
        lock.lock()
        defer { lock.unlock() }
        var done = 0
        while done < line.count {
            let count = line.withUnsafeBytes { write(descriptor, $0.baseAddress! + done, line.count - done) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let code = count < 0 ? errno : ENOSPC
                _ = ftruncate(descriptor, off_t(length))
                _ = lseek(descriptor, off_t(length), SEEK_SET)
                throw JournalWriteError(path: path, code: code, cases: max(0, lines - 1))
            }
            done += count
        }
        length += line.count
        lines += 1
    }

    /// `read(path:)` for `--resume FILE`, falling back to FILE's journal when the run was interrupted
    /// before FILE was written (FILE missing), or after an earlier run wrote it (the journal is newer);
    /// `note` says so when it does.
    public static func readForResume(path: String) throws -> (run: RunInfo?, cases: [CaseResult], note: String?) {
        let journal = Self.path(for: path)
        let manager = FileManager.default
        let modified = { (file: String) in (try? manager.attributesOfItem(atPath: file))?[.modificationDate] as? Date }
        if !path.hasSuffix(".jsonl"), let journalDate = modified(journal) {
            let resultsDate = modified(path)
            if resultsDate == nil || resultsDate! < journalDate {
                let read = try read(path: journal)
                let why = resultsDate == nil ? "\(path) does not exist (the run was interrupted before writing it)"
                    : "\(path) is older than its journal (the run that wrote it was followed by an interrupted one)"
                return (read.run, read.cases, "--resume: \(why); resuming from the journal \(journal) (\(read.cases.count) finished case\(read.cases.count == 1 ? "" : "s"))")
            }
        }
        let read = try read(path: path)
        return (read.run, read.cases, nil)
    }

    /// The run and the finished cases in a results file or journal: a complete or partial `RunResult`
    /// document, or a journal (a torn last line from a crash is ignored).
    public static func read(path: String) throws -> (run: RunInfo?, cases: [CaseResult]) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Fault.invalidInput("--resume: cannot read \(path); give the results file (or its .jsonl journal) "
                + "of the interrupted run")
        }
        // FMCore's parser, not JSONDecoder: it keeps each number's written form (`1.0` stays `1.0`).
        func decode<Value: Decodable>(_ type: Value.Type, from bytes: Data) throws -> Value {
            try ContentDecoder.decode(type, from: try GeneratedContent(json: String(decoding: bytes, as: UTF8.self)))
        }
        if let result = try? decode(RunResult.self, from: data) {
            try ResultsFile.checkUniqueIDs(result.cases, in: "--resume: \(path)")
            return (result.run, result.cases)
        }
        var run: RunInfo?
        var cases: [CaseResult] = []
        let lines = data.split(separator: 0x0a, omittingEmptySubsequences: true)
        for (number, line) in lines.enumerated() {
            if number == 0 {
                guard let header = try? decode(JournalHeader.self, from: Data(line)) else {
                    throw Fault.invalidInput("--resume: \(path) is neither a results file nor a results journal "
                        + "(line 1 is not a journal header)")
                }
                run = header.run
                continue
            }
            do {
                cases.append(try decode(JournalCase.self, from: Data(line)).case)
            } catch where number == lines.count - 1 {
                break
            } catch {
                throw Fault.invalidInput("--resume: \(path) line \(number + 1) is not a finished case: \(error)")
            }
        }
        try ResultsFile.checkUniqueIDs(cases, in: "--resume: \(path)")
        return (run, cases)
    }
}

private struct JournalHeader: Codable {
    var journal: Int
    var run: RunInfo
}

private struct JournalCase: Codable {
    var `case`: CaseResult
}

/// A journal line that could not be written (a full disk, most often); the journal keeps every line before it.
public struct JournalWriteError: Error, CustomStringConvertible, Sendable {
    /// The journal.
    public var path: String
    /// The `errno` of the failed write.
    public var code: Int32
    /// Finished cases the journal holds.
    public var cases: Int

    /// One line: what failed, what the journal still holds, how to finish.
    public var description: String {
        let what = code == ENOSPC ? "the disk is full" : String(cString: strerror(code))
        return "cannot write the results journal \(path): \(what); it keeps the \(cases) case\(cases == 1 ? "" : "s") "
            + "finished so far: free space, then finish with --resume \(path)"
    }
}
