import Foundation
import Testing

extension Tag {
    /// Tests that pin the default model's incidental output (which case passes, which known issue still
    /// reproduces) rather than fmeval's behaviour; a new model or kernel changes them: regenerate them
    /// with `Golden.command` and review the diff.
    @Tag public static var golden: Self
}

/// Golden files under Tests/Golden/: recorded outputs of the default model that tests compare with.
public enum Golden {
    /// The one command that regenerates every golden file (the golden tests live in suites named `Golden…`).
    public static let command =
        "FMEVAL_UPDATE_GOLDEN=1 swift test -c release -Xswiftc -enable-testing --filter Golden"

    /// Tests/Golden/.
    public static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Golden")

    /// True when the golden files are being rewritten (`FMEVAL_UPDATE_GOLDEN=1`).
    public static var isUpdating: Bool { ProcessInfo.processInfo.environment["FMEVAL_UPDATE_GOLDEN"] == "1" }

    /// The golden file `name`'s text, nil when it does not exist.
    public static func text(_ name: String) -> String? {
        try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    /// Records an issue unless `actual` is golden file `name`'s text, naming the lines that differ and the
    /// command that regenerates it; while updating, writes `actual` to the file instead.
    public static func check(_ actual: String, name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let url = folder.appendingPathComponent(name)
        if isUpdating {
            do { try actual.write(to: url, atomically: true, encoding: .utf8) } catch {
                Issue.record(Comment(rawValue: "cannot write golden file \(url.path): \(error)"),
                             sourceLocation: sourceLocation)
            }
            return
        }
        guard let expected = text(name) else {
            Issue.record(Comment(rawValue: "golden file Tests/Golden/\(name) is missing; create it with: \(command)"),
                         sourceLocation: sourceLocation)
            return
        }
        guard expected != actual else { return }
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let removed = old.filter { !new.contains($0) }.map { "- " + $0 }
        let added = new.filter { !old.contains($0) }.map { "+ " + $0 }
        let changes: String = (removed + added).prefix(40).joined(separator: "\n")
        let message = "the default model's output differs from Tests/Golden/\(name):\n\(changes)\n"
            + "If the change is expected (a new model, kernel or suite), regenerate with: \(command)"
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }
}
