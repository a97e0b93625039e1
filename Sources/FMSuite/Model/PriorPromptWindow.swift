/// Gathers, in file order, what `contamination: N` cases take: the first prompts of the N live (not recorded)
/// cases before each under its variant, counting on from the suite's end for the first ones (never itself).
///
/// It keeps each variant's first and last `RunSettings.maximumContamination` prompts, so cases can be handed
/// on a batch at a time: a case that counts on from the end is pending until the suite's end is known.
struct PriorPromptWindow {
    /// A contamination case whose prompts come partly from its variant's end, by index in the cases given.
    struct Pending {
        let index: Int
        let position: Int
    }

    private struct Lane {
        var head: [PriorPrompt?] = []
        var tail: [PriorPrompt?] = []
        var count = 0

        /// The entry of the live case at `position`, which must be among the first or last ones kept.
        func entry(_ position: Int) -> PriorPrompt? {
            position < head.count ? head[position] : tail[position - (count - tail.count)]
        }

        /// Counts the next live case, keeping its entry while it is among the first or last ones.
        mutating func add(_ entry: PriorPrompt?) {
            if head.count < PriorPromptWindow.span { head.append(entry) }
            tail.append(entry)
            if tail.count > PriorPromptWindow.span { tail.removeFirst() }
            count += 1
        }
    }

    private static let span = RunSettings.maximumContamination
    private var lanes: [String?: Lane] = [:]

    /// Fills the prior prompts of `cases[start...]` (the next cases in file order) that need only cases before
    /// them; returns those that also need the suite's end, for `complete` once every case has been taken.
    mutating func take(_ cases: inout [ExpandedCase], from start: Int = 0) -> [Pending] {
        var pending: [Pending] = []
        // Fields are read in place and each lane is changed inside the table: copying a case or a lane out
        // costs more than the rest of the loop on a dataset of a million cases.
        for index in start..<cases.count where cases[index].recorded == nil {
            let variant = cases[index].variant
            let position = lanes[variant]?.count ?? 0
            if let count = cases[index].settings.contamination, count > 0 {
                if position >= count {
                    cases[index].priorPrompts = (lanes[variant]?.tail.suffix(count) ?? []).compactMap { $0 }
                } else {
                    pending.append(Pending(index: index, position: position))
                }
            }
            let own = (cases[index].prompt(ofAttempt: 0) ?? cases[index].turns?.first)
                .map { PriorPrompt(caseID: cases[index].id, prompt: $0) }
            lanes[variant, default: Lane()].add(own)
        }
        return pending
    }

    /// Fills the prior prompts of `pending` cases now that every case of the suite has been taken.
    func complete(_ cases: inout [ExpandedCase], _ pending: [Pending]) {
        for wait in pending {
            let item = cases[wait.index]
            guard let lane = lanes[item.variant], let count = item.settings.contamination else { continue }
            let before = (1..<max(lane.count, 1)).prefix(count).map {
                lane.entry((wait.position - $0 + lane.count) % lane.count)
            }
            cases[wait.index].priorPrompts = before.reversed().compactMap { $0 }
        }
    }
}
