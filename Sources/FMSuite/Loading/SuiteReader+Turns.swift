import FMCore

extension SuiteReader {
    /// A case's `turns:` list: each item is a prompt, or `{prompt, transcript}` where `transcript` edits the
    /// history before that turn. Returns the prompts and the edits keyed by 0-based turn index.
    func turns(_ node: YAMLNode) -> (prompts: [String], edits: [Int: TranscriptEdit])? {
        guard let items = node.sequence, !items.isEmpty else {
            report(node, "turns must be a non-empty list of prompts")
            return nil
        }
        var prompts: [String] = []
        var edits: [Int: TranscriptEdit] = [:]
        for (index, item) in items.enumerated() {
            guard item.mapping != nil else {
                if let prompt = text(item, "each turn") { prompts.append(prompt) }
                continue
            }
            guard let keys = mapping(item, "turn \(index + 1)", allowed: ["prompt", "transcript"]) else { continue }
            if let prompt = keys["prompt"] {
                if let text = text(prompt, "turn \(index + 1) prompt") { prompts.append(text) }
            } else {
                report(item, "turn \(index + 1) needs a 'prompt' (the transcript edit is made before it)")
            }
            guard let editNode = keys["transcript"] else { continue }
            if index == 0 {
                report(editNode, "the first turn has no history to edit; move 'transcript' to a later turn")
            } else if let edit = transcriptEdit(editNode, turn: index + 1) {
                edits[index] = edit
            }
        }
        return (prompts, edits)
    }

    /// `{keepLast: N, drop: [KIND, ...]}`: at least one of the two.
    private func transcriptEdit(_ node: YAMLNode, turn: Int) -> TranscriptEdit? {
        let what = "turn \(turn) transcript"
        guard let keys = mapping(node, what, allowed: ["keepLast", "drop"]) else { return nil }
        guard keys["keepLast"] != nil || keys["drop"] != nil else {
            report(node, "\(what) needs 'keepLast' (entries of history to keep) or 'drop' (kinds of entry to remove)")
            return nil
        }
        var edit = TranscriptEdit(keepLast: int(keys["keepLast"], "\(what).keepLast", minimum: 0))
        if let dropNode = keys["drop"] {
            let kinds = TranscriptEdit.EntryKind.allCases.map(\.rawValue)
            guard let items = dropNode.sequence else {
                report(dropNode, "\(what).drop must be a list of entry kinds, e.g. [toolCalls, toolOutput]")
                return nil
            }
            for item in items {
                guard let name = string(item, "\(what).drop") else { continue }
                guard let kind = TranscriptEdit.EntryKind(rawValue: name) else {
                    let hint = Suggestion.closest(to: name, in: kinds).map { "did you mean '\($0)'? " } ?? ""
                    report(item, "unknown transcript entry kind '\(name)' in \(what).drop; \(hint)use one of \(kinds.joined(separator: ", ")) (the instructions always stay)")
                    continue
                }
                if !edit.drop.contains(kind) { edit.drop.append(kind) }
            }
        }
        return edit
    }
}
