import Foundation
import FMCore
import FMEvaluate

extension SuiteReader {
    /// Suite keys that describe a live session and so do not apply to recorded transcripts.
    static let liveOnlySuiteKeys = ["engine", "model", "options", "device", "instructions", "tools", "generating", "dataset",
                                    "variants"]
    /// The keys a case of a transcripts suite may set: everything else comes from its transcript.
    static let recordedCaseKeys = ["id", "tags", "expect", "knownIssue"]

    /// The cases of a suite of recorded transcripts: one per file `transcripts:` names (id from the
    /// file name unless given), with `cases:` entries adding expectations, tags and known issues by id.
    func recordedCases(_ transcriptsNode: YAMLNode, keys: [String: YAMLNode]) -> [SuiteCase] {
        for key in Self.liveOnlySuiteKeys.sorted() {
            guard let node = keys[key] else { continue }
            report(node, "'\(key)' does not apply to a suite of recorded transcripts: the session already happened, "
                + "so its prompts, instructions, tools, schema and options come from each transcript; remove '\(key)' or move the live cases to another suite")
        }
        var cases: [SuiteCase] = []
        var byID: [String: Int] = [:]
        for (path, id, node) in transcriptSources(transcriptsNode) {
            let caseID = id ?? FilePaths.lastComponent(of: path).replacingOccurrences(of: ".json", with: "", options: [.anchored, .backwards, .caseInsensitive])
            if let first = byID[caseID] {
                report(node, "two transcripts have the id '\(caseID)' (\(cases[first].recorded?.path ?? "") and \(displayPath(URL(fileURLWithPath: path)))); "
                    + "give one an id with {path: FILE, id: ID}")
                continue
            }
            byID[caseID] = cases.count
            cases.append(SuiteCase(id: caseID, prompt: nil, turns: nil, instructions: nil, generating: nil, options: OptionsPatch(),
                                   tags: [], repeatCount: 1, gate: nil, expect: [], vars: [:], variants: nil,
                                   knownIssue: nil, knownIssueVariants: nil, knownIssueNode: nil, location: node.location,
                                   recorded: recordedTranscript(at: path)))
        }
        guard let casesNode = keys["cases"] else { return cases }
        var items: [YAMLNode] = []
        guard forEachCase(in: casesNode, { items.append($0) }) else {
            report(casesNode, "cases must be a list of {id, expect?, tags?, knownIssue?} naming transcripts, not \(casesNode.kindName)")
            return cases
        }
        var seen: Set<String> = []
        for item in items {
            guard let entry = mapping(item, "a case of a transcripts suite (its prompts come from the transcript)", allowed: Self.recordedCaseKeys) else { continue }
            guard let idNode = entry["id"], let id = text(idNode, "case id") else {
                if entry["id"] == nil { report(item, "a case of a transcripts suite needs the 'id' of the transcript it scores") }
                continue
            }
            guard let index = byID[id] else {
                let hint = Suggestion.closest(to: id, in: Array(byID.keys)).map { "did you mean '\($0)'? " } ?? ""
                report(idNode, "no transcript has the id '\(id)'; \(hint)ids are the file names without .json (transcripts: \(byID.keys.sorted().joined(separator: ", ")))")
                continue
            }
            guard seen.insert(id).inserted else {
                report(idNode, "case '\(id)' is listed twice; keep one entry per transcript")
                continue
            }
            cases[index].expect = entry["expect"].map { expectations($0, "expect") } ?? []
            cases[index].tags = stringList(entry["tags"], "tags") ?? []
            let known = entry["knownIssue"].flatMap { scopedKnownIssue($0) }
            cases[index].knownIssue = known?.issue
            cases[index].knownIssueVariants = known?.variants
            cases[index].knownIssueNode = entry["knownIssue"]
            cases[index].location = item.location
        }
        return cases
    }

    /// The files `transcripts:` names, in order: a path, a folder (its `.json` files), or a glob whose
    /// last component has `*`, `?` or `[…]`; or a list of those and of `{path: FILE, id: ID}`.
    private func transcriptSources(_ node: YAMLNode) -> [(path: String, id: String?, node: YAMLNode)] {
        let usage = "transcripts must be a path, folder or glob (recorded/*.json), or a list of those and of {path: FILE, id: ID}"
        let items: [YAMLNode]
        if node.scalar != nil { items = [node] } else if let sequence = node.sequence { items = sequence } else {
            report(node, "\(usage), not \(node.kindName)")
            return []
        }
        var sources: [(path: String, id: String?, node: YAMLNode)] = []
        for item in items {
            if item.mapping != nil {
                guard let entry = mapping(item, "a transcript entry", allowed: ["path", "id"]) else { continue }
                guard let pathNode = entry["path"], let path = string(pathNode, "transcript path") else {
                    if entry["path"] == nil { report(item, "a transcript entry needs a 'path' ({path: FILE, id: ID})") }
                    continue
                }
                guard let url = readableFile(path, at: pathNode, what: "transcript") else { continue }
                sources.append((url.path, entry["id"].flatMap { text($0, "transcript id") }, item))
                continue
            }
            guard let pattern = string(item, "transcripts") else { continue }
            let files = matchingFiles(pattern)
            if files.isEmpty { report(item, "transcripts '\(pattern)' matches no file (looked in \(FilePaths.parent(of: resolve(pattern).path))); paths resolve relative to the suite file") }
            sources += files.map { ($0, nil, item) }
        }
        if items.isEmpty { report(node, "\(usage); the list is empty") }
        return sources
    }

    /// The files `pattern` names, sorted: the file itself, a folder's `.json` files, or the matches of
    /// a glob in its last component.
    private func matchingFiles(_ pattern: String) -> [String] {
        let url = resolve(pattern)
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { return [url.path] }
            return ((try? manager.contentsOfDirectory(atPath: url.path)) ?? [])
                .filter { !$0.hasPrefix(".") && FilePaths.pathExtension(of: $0).lowercased() == "json" }
                .sorted().map { FilePaths.join(url.path, $0) }
        }
        let name = FilePaths.lastComponent(of: url.path)
        guard name.contains(where: { "*?[".contains($0) }) else { return [] }
        let folder = FilePaths.parent(of: url.path)
        return ((try? manager.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { !$0.hasPrefix(".") && fnmatch(name, $0, 0) == 0 }
            .sorted().map { FilePaths.join(folder, $0) }
    }

    /// The transcript at `path` with its SHA-256; a file that is not valid Foundation Models transcript
    /// JSON keeps its problem (`file:line:col` and the JSON pointer) for the run to report.
    private func recordedTranscript(at path: String) -> RecordedTranscript {
        let shown = displayPath(URL(fileURLWithPath: path))
        if let problem = RegularFile.problem(path, tree: directory.path, allowLinksOut: allowsLinksOutside) {
            return RecordedTranscript(path: shown, sha256: "", transcript: nil,
                                      problem: Diagnostic(SourceLocation(file: shown, line: 1, column: 1), "the transcript \(problem)"))
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            return RecordedTranscript(path: shown, sha256: "", transcript: nil,
                                      problem: Diagnostic(SourceLocation(file: shown, line: 1, column: 1), "cannot read the transcript; check its permissions"))
        }
        let digest = SHA256.hex(of: [UInt8](data))
        do {
            guard let text = String(data: data, encoding: .utf8) else {
                throw JSONDocumentError(file: shown, location: nil, pointer: nil, message: "the file is not UTF-8 text")
            }
            let document = try JSONDocument(text: text, file: shown)
            return RecordedTranscript(path: shown, sha256: digest, transcript: try document.decode { try Transcript(content: $0) })
        } catch let error as JSONDocumentError {
            let location = SourceLocation(file: shown, line: error.location?.line ?? 1, column: error.location?.column ?? 1)
            let message = (error.pointer.map { "at \($0.isEmpty ? "/" : $0): " } ?? "") + error.message
            return RecordedTranscript(path: shown, sha256: digest, transcript: nil,
                                      problem: Diagnostic(location, "not a valid FoundationModels.Transcript: \(message)"))
        } catch {
            return RecordedTranscript(path: shown, sha256: digest, transcript: nil,
                                      problem: Diagnostic(SourceLocation(file: shown, line: 1, column: 1), "not a valid FoundationModels.Transcript: \(error)"))
        }
    }
}
