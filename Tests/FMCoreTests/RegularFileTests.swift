import Foundation
import Testing
@testable import FMCore

/// A fresh folder under the temporary directory (its real path, so links and `realpath` agree).
private func scratchFolder() throws -> String {
    let path = FilePaths.join(FileManager.default.temporaryDirectory.path, "fmeval-regular-\(UUID().uuidString)")
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return try #require(RegularFile.realPath(path))
}

@Test func aRegularFileInsideTheTreeIsAccepted() throws {
    let folder = try scratchFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let file = FilePaths.join(folder, "data.json")
    try Data("{}".utf8).write(to: URL(fileURLWithPath: file))
    #expect(RegularFile.problem(file, tree: folder) == nil)
    let inner = FilePaths.join(folder, "inner-link.json")
    try FileManager.default.createSymbolicLink(atPath: inner, withDestinationPath: "data.json")
    #expect(RegularFile.problem(inner, tree: folder) == nil, "a link that stays in the tree is fine")
}

@Test func kernelFilesDevicesFifosSocketsAndFoldersAreRefused() throws {
    let folder = try scratchFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    #expect(RegularFile.problem("/proc/self/environ")?.contains("is in /proc, a kernel file system") == true)
    #expect(RegularFile.problem("/sys/kernel/mm/transparent_hugepage/enabled").map { $0.contains("/sys") } ?? true)
    #expect(RegularFile.problem("/dev/null")?.contains("is in /dev") == true)
    let environLink = FilePaths.join(folder, "env.txt")
    try FileManager.default.createSymbolicLink(atPath: environLink, withDestinationPath: "/proc/self/environ")
    #expect(RegularFile.problem(environLink)?.contains("it resolves to /proc/") == true)

    let fifo = FilePaths.join(folder, "pipe.jsonl")
    #expect(mkfifo(fifo, 0o600) == 0)
    #expect(RegularFile.problem(fifo)?.contains("is a FIFO") == true)

    let socketPath = FilePaths.join(folder, "s.sock")
    let socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(socket) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (index, byte) in socketPath.utf8.enumerated() where index < raw.count - 1 { raw[index] = byte }
    }
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    #expect(bound == 0)
    #expect(RegularFile.problem(socketPath)?.contains("is a socket") == true)
    #expect(RegularFile.problem(folder)?.contains("is a folder") == true)
    #expect(RegularFile.problem(FilePaths.join(folder, "missing")) == "does not exist")
    #expect(RegularFile.problem("") == "the path is empty")
}

@Test func aLinkLeavingTheTreeIsRefusedUnlessAllowed() throws {
    let outside = try scratchFolder(), tree = try scratchFolder()
    defer { [outside, tree].forEach { try? FileManager.default.removeItem(atPath: $0) } }
    let secret = FilePaths.join(outside, "secret.txt")
    try Data("s".utf8).write(to: URL(fileURLWithPath: secret))
    let link = FilePaths.join(tree, "fixture.txt")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: secret)
    let problem = try #require(RegularFile.problem(link, tree: tree))
    #expect(problem.contains("is a symbolic link to \(secret), outside the suite's folder"))
    #expect(problem.contains("allowLinksOutsideSuite: true"))
    #expect(RegularFile.problem(link, tree: tree, allowLinksOut: true) == nil)
    #expect(RegularFile.problem(secret, tree: tree) == nil, "a path written outside the tree is not a link leaving it")
    #expect(throws: FileReferenceError.self) { try RegularFile.read("/proc/self/environ", what: "tool output") }
}
