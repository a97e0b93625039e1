import Foundation
import FMCore

/// Where suites are when a command is given no paths: the `suites` folder of the current folder, else
/// the nearest one above it (as pytest finds its root), else an error saying what to do.
public enum SuiteDiscovery {
    /// The folder name looked for.
    public static let folderName = "suites"

    /// `suites` when it is in `directory`; else the nearest `suites` folder above it, as a path relative
    /// to `directory` (`../../suites`). Throws `invalidInput` naming `command` when there is none.
    public static func defaultPaths(from directory: String = FileManager.default.currentDirectoryPath,
                                    command: String) throws -> [String] {
        var folder = FilePaths.absolute(directory)
        var up = 0
        while true {
            var isDirectory: ObjCBool = false
            let candidate = FilePaths.join(folder, folderName)
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), isDirectory.boolValue {
                return [String(repeating: "../", count: up) + folderName]
            }
            let parent = FilePaths.parent(of: folder)
            guard parent != folder, up < 64 else { break }
            folder = parent
            up += 1
        }
        throw Fault.invalidInput("\(command): no suite paths given, and no '\(folderName)' folder in \(directory) "
            + "or any folder above it; give suite files or folders ('fmeval \(command) PATH...'), "
            + "or start a project with 'fmeval init'")
    }
}
