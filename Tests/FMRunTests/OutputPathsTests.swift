import Foundation
import Testing
import FMCore
import FMResults
import FMRun

/// Output paths are checked before anything runs, with one line naming the flag.
@Suite struct OutputPathsTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("outputs-\(UUID().uuidString)")

    func message(_ path: String, flag: String) -> String? {
        do {
            try OutputPaths.check(path, flag: flag)
            return nil
        } catch let error as Fault {
            guard case .invalidInput(let message) = error else { return "not invalid input: \(error)" }
            return message
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test func aWritablePathGetsItsFoldersAndLeavesNoProbe() throws {
        let path = folder.appendingPathComponent("a/b/report.xml").path
        #expect(message(path, flag: "--junit \(path)") == nil)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("a/b").path)
        #expect(left.isEmpty, "the probe is removed: \(left)")
    }

    @Test func aFileWhereAFolderIsNeeded() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("reports").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let text = message(file + "/deeper/results.json", flag: "--out \(file)/deeper")
        #expect(text == "--out \(file)/deeper: \(file) is a file, but a folder is needed there to write \(file)/deeper/results.json; remove or rename it, or choose another path")
    }

    @Test func aFolderWhereAFileIsNeeded() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(message(folder.path, flag: "--html \(folder.path)") == "--html \(folder.path): \(folder.path) is a folder; give a file path")
    }

    @Test func anUnwritableFolder() throws {
        // /proc accepts no new files, even for root.
        let text = try #require(message("/proc/fmeval-report.xml", flag: "--junit /proc/fmeval-report.xml"))
        #expect(text.hasPrefix("--junit /proc/fmeval-report.xml: cannot write in the folder /proc ("))
        #expect(!text.contains("\n"))
    }

    @Test func fileSystemErrorsReadAsOneLine() {
        let error = NSError(domain: NSCocoaErrorDomain, code: 642, userInfo: [
            NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC)),
            NSFilePathErrorKey: "/x/results.json",
        ])
        #expect(FileErrors.reason(of: error) == String(cString: strerror(ENOSPC)))
        #expect(!FileErrors.reason(of: CocoaError(.fileWriteUnknown)).contains("\n"))
    }
}
