import Foundation
import Testing
@testable import FMCore

/// One path shape and what each `FilePaths` function gives for it.
struct PathShape: Sendable, CustomStringConvertible {
    var path: String
    var parent: String
    var last: String
    var pathExtension: String
    var stem: String
    var normalized: String

    var description: String { "'\(path)'" }
}

/// Every shape: one character (what trapped Foundation's `deletingLastPathComponent`), `.`, `..`, trailing
/// and repeated slashes, absolute paths, the root, the empty path, dotfiles and non-ASCII names (a
/// combining mark right after a slash, which a `Character`-based split would glue to it).
let pathShapes: [PathShape] = [
    PathShape(path: "o", parent: ".", last: "o", pathExtension: "", stem: "o", normalized: "o"),
    PathShape(path: "a", parent: ".", last: "a", pathExtension: "", stem: "a", normalized: "a"),
    PathShape(path: "j/x.xml", parent: "j", last: "x.xml", pathExtension: "xml", stem: "x", normalized: "j/x.xml"),
    PathShape(path: ".", parent: ".", last: ".", pathExtension: "", stem: ".", normalized: "."),
    PathShape(path: "..", parent: ".", last: "..", pathExtension: "", stem: "..", normalized: ".."),
    PathShape(path: "", parent: ".", last: "", pathExtension: "", stem: "", normalized: "."),
    PathShape(path: "/", parent: "/", last: "/", pathExtension: "", stem: "/", normalized: "/"),
    PathShape(path: "//", parent: "/", last: "/", pathExtension: "", stem: "/", normalized: "/"),
    PathShape(path: "/x", parent: "/", last: "x", pathExtension: "", stem: "x", normalized: "/x"),
    PathShape(path: "a/b/", parent: "a", last: "b", pathExtension: "", stem: "b", normalized: "a/b"),
    PathShape(path: "a//b///", parent: "a", last: "b", pathExtension: "", stem: "b", normalized: "a/b"),
    PathShape(path: "/a/b/../c/./d.tar.gz", parent: "/a/b/../c/.", last: "d.tar.gz", pathExtension: "gz", stem: "d.tar",
          normalized: "/a/c/d.tar.gz"),
    PathShape(path: "../../x", parent: "../..", last: "x", pathExtension: "", stem: "x", normalized: "../../x"),
    PathShape(path: "/../x", parent: "/..", last: "x", pathExtension: "", stem: "x", normalized: "/x"),
    PathShape(path: "reports/.hidden", parent: "reports", last: ".hidden", pathExtension: "", stem: ".hidden",
          normalized: "reports/.hidden"),
    PathShape(path: "name.", parent: ".", last: "name.", pathExtension: "", stem: "name.", normalized: "name."),
    PathShape(path: "résumé/ü.json", parent: "résumé", last: "ü.json", pathExtension: "json", stem: "ü", normalized: "résumé/ü.json"),
    PathShape(path: "d/\u{301}x", parent: "d", last: "\u{301}x", pathExtension: "", stem: "\u{301}x", normalized: "d/\u{301}x"),
    PathShape(path: "模型/🙂.gguf", parent: "模型", last: "🙂.gguf", pathExtension: "gguf", stem: "🙂", normalized: "模型/🙂.gguf"),
]

@Test(arguments: pathShapes)
func everyPathShapeHasAnAnswer(_ shape: PathShape) {
    #expect(FilePaths.parent(of: shape.path) == shape.parent)
    #expect(FilePaths.lastComponent(of: shape.path) == shape.last)
    #expect(FilePaths.pathExtension(of: shape.path) == shape.pathExtension)
    #expect(FilePaths.stem(of: shape.path) == shape.stem)
    #expect(FilePaths.normalized(shape.path) == shape.normalized)
}

@Test func joinPutsOneSlashBetweenAndKeepsAbsoluteNames() {
    #expect(FilePaths.join("o", "results.json") == "o/results.json")
    #expect(FilePaths.join("o/", "results.json") == "o/results.json")
    #expect(FilePaths.join("", "results.json") == "results.json")
    #expect(FilePaths.join(".", "x") == "./x")
    #expect(FilePaths.join("/", "x") == "/x")
    #expect(FilePaths.join("a", "/etc/x") == "/etc/x")
    #expect(FilePaths.join("a", "") == "a")
    #expect(FilePaths.join("模型", "🙂") == "模型/🙂")
}

@Test func absoluteAndInsideCompareNormalizedPaths() {
    #expect(FilePaths.absolute("x", base: "/tmp/a") == "/tmp/a/x")
    #expect(FilePaths.absolute("../x", base: "/tmp/a") == "/tmp/x")
    #expect(FilePaths.absolute("/x/./y", base: "/tmp") == "/x/y")
    #expect(FilePaths.isInside("/tmp/a/b", folder: "/tmp/a"))
    #expect(FilePaths.isInside("/tmp/a", folder: "/tmp/a/"))
    #expect(!FilePaths.isInside("/tmp/ab", folder: "/tmp/a"))
    #expect(!FilePaths.isInside("/tmp/a/../b", folder: "/tmp/a"))
    #expect(FilePaths.isInside("/anything", folder: "/"))
}
