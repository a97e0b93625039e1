/// The error names a suite may write, checked when it loads: `expect: { error: NAME }` and a scripted
/// step's `error: NAME`, with did-you-mean for typos and Foundation Models 26 names mapped to their
/// 27 spelling.
public enum ErrorTaxonomy {
    /// The case names an attempt can end in and a suite can expect: Foundation Models'
    /// (`LanguageModelError`, `LanguageModelSession.Error`, `GeneratedContent.ParsingError` as
    /// `parsingError`) and fmeval's session (`SessionError`).
    public static let expectableNames = LanguageModelError.caseNames
        + ["concurrentRequests", "transcriptMutationWhileResponding", "parsingError"]
        + ["toolCallLimitExceeded", "toolCallingModeViolation", "toolCallError"]

    /// fmeval's earlier names still accepted, and the Foundation Models name each stands for: a suite that
    /// writes one loads (with a did-you-mean warning) and matches the error of that name.
    public static let deprecatedAliases: [String: (name: String, spelled: String)] = [
        "toolCallFailed": ("toolCallError", "LanguageModelSession.ToolCallError"),
    ]

    /// Whether the error named `name` is retryable infrastructure (`rateLimited`, `timeout`).
    public static func isRetryable(_ name: String) -> Bool {
        LanguageModelError(caseName: name, debugDescription: "")?.failureClass == .retryableInfrastructure
    }

    /// The name `name` stands for: its Foundation Models name when it is a deprecated alias, else itself.
    public static func canonical(_ name: String) -> String { deprecatedAliases[name]?.name ?? name }

    /// The warning for a deprecated alias (nil for any other name): what to write instead.
    public static func deprecation(of name: String) -> String? {
        guard let alias = deprecatedAliases[name] else { return nil }
        return "'\(name)' is deprecated; did you mean '\(alias.name)' (Foundation Models' \(alias.spelled))? It matches the same errors"
    }

    /// Foundation Models 26 names and what replaced them in 27: the name to write and how to say it.
    public static let renames: [String: (name: String, spelled: String)] = [
        "exceededContextWindowSize": ("contextSizeExceeded", "LanguageModelError.contextSizeExceeded"),
        "unsupportedGuide": ("unsupportedGenerationGuide", "LanguageModelError.unsupportedGenerationGuide"),
        "decodingFailure": ("parsingError", "GeneratedContent.ParsingError"),
    ]

    /// What is wrong with `name` as one of `known` (nil when it is one), saying what to write instead:
    /// the 27 name for a 26 name, else the closest known name, else the whole list.
    public static func problem(with name: String, known: [String], what: String) -> String? {
        guard !known.contains(name), !known.contains(canonical(name)) else { return nil }
        if let rename = renames[name] {
            let since = "'\(name)' is the Foundation Models 26 name; since 27 it is \(rename.spelled)"
            return known.contains(rename.name) ? since + ": write '\(rename.name)'"
                : since + ", which is not a \(what) here; use one of \(known.joined(separator: ", "))"
        }
        if let close = Suggestion.closest(to: name, in: known) {
            return "unknown \(what) '\(name)'; did you mean '\(close)'?"
        }
        return "unknown \(what) '\(name)'; use one of \(known.joined(separator: ", "))"
    }
}
