import FMCore
import Testing

/// Snapshots show each change of a growing structure; past `everyDeltaBytes` the text is parsed only
/// when it has grown by an eighth, so the bytes parsed over a whole stream stay linear in its length.
@Test func snapshotsShowChangesAndParseALinearAmountOfText() {
    var snapshots = PartialStructureSnapshots()
    var text = #"{"a":"#
    var shown: [GeneratedContent] = []
    var parsedBytes = 0
    func step(_ delta: String) {
        text += delta
        let snapshot = snapshots.next(length: text.utf8.count) {
            parsedBytes += text.utf8.count
            return text
        }
        if let snapshot { shown.append(snapshot) }
    }
    step(" ")
    step("\"x")
    step("y")
    step("\"")
    step("}")
    #expect(shown.map { $0.jsonString } == ["{}", #"{"a":"x"}"#, #"{"a":"xy"}"#, #"{"a":"xy"}"#])
    #expect(shown.last?.isComplete == true)

    let small = PartialStructureSnapshots.everyDeltaBytes
    snapshots = PartialStructureSnapshots()
    text = #"{"a":""#
    parsedBytes = 0
    let total = 1 << 20
    while text.utf8.count < total { step("zzzz") }
    let parsedBeyondSmall = parsedBytes - small * small / 8
    #expect(parsedBeyondSmall < 10 * total, "parsed \(parsedBytes) bytes for a \(total)-byte stream")
}
