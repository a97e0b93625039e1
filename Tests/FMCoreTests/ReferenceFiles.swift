import Foundation

/// `reference/apple-fm-sdk` in the package root, found from this file's path.
let appleReferenceDirectory: URL = {
    var url = URL(fileURLWithPath: #filePath)
    while url.path != "/" {
        url.deleteLastPathComponent()
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { break }
    }
    return url.appendingPathComponent("reference/apple-fm-sdk")
}()

/// The seven reference GenerationSchema files.
let referenceSchemaNames = ["age", "cat", "hedgehog", "newsletter", "person", "petClub", "shelter"]

/// The text of reference file `name`.json.
func referenceText(_ name: String) throws -> String {
    try String(contentsOf: appleReferenceDirectory.appendingPathComponent(name + ".json"), encoding: .utf8)
}

/// A test that cannot go on, with the reason.
struct TestFailure: Error, CustomStringConvertible {
    /// Why.
    var description: String
    /// Creates a failure with a reason.
    init(_ description: String) { self.description = description }
}
