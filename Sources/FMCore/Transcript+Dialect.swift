extension Transcript {
    /// The JSON dialect of a transcript file: what its `version` says and how options and images are written.
    public enum Dialect: String, Hashable, Sendable, CaseIterable {
        /// Foundation Models 26 and python-apple-fm-sdk: `"version": 1`, options nested under `sampling`,
        /// attachments in fmeval's earlier shape (FM 26 has none).
        case fm26 = "26"
        /// Foundation Models 27 (`Transcript`'s Codable encoding on macOS 27 and the `fm` tool): `"version": "1.1"`,
        /// flat options, images as `data:` URIs, `contextOptions` on prompts and `assets` on every response.
        case fm27 = "27"

        /// The `version` value this dialect writes.
        public var version: GeneratedContent { self == .fm26 ? GeneratedContent(1) : GeneratedContent("1.1") }

        /// The dialect a `version` value names, nil for a version this reader does not understand.
        public init?(version: GeneratedContent) {
            if version.stringValue == "1.1" {
                self = .fm27
            } else if version.stringValue == nil, version.intValue == 1 {
                self = .fm26
            } else {
                return nil
            }
        }

        /// The versions understood, as an error message names them.
        public static let understood = #"1 (Foundation Models 26) and "1.1" (Foundation Models 27)"#

        /// How options without a form of their own are written in this dialect.
        var optionsForm: GenerationOptions.Form { self == .fm26 ? .nested : .flat }
    }

    /// The transcript written in `dialect`: every option, attachment and member default that followed the
    /// file it was read from now follows `dialect` instead (`fmeval transcript convert`, `--transcript-dialect`).
    public func converted(to dialect: Dialect) -> Transcript {
        var copy = self
        copy.dialect = dialect
        copy.entries = entries.map { entry in
            switch entry {
            case .instructions(var instructions):
                instructions.segments = instructions.segments.map(Self.resettingForm)
                return .instructions(instructions)
            case .prompt(var prompt):
                prompt.options.form = nil
                prompt.writesContextOptions = prompt.writesContextOptions == false ? nil : prompt.writesContextOptions
                prompt.segments = prompt.segments.map(Self.resettingForm)
                return .prompt(prompt)
            case .response(var response):
                response.writesEmptyAssets = nil
                response.segments = response.segments.map(Self.resettingForm)
                return .response(response)
            case .reasoning, .toolCalls, .toolOutput:
                return entry
            }
        }
        return copy
    }

    private static func resettingForm(_ segment: Segment) -> Segment {
        guard case .attachment(var attachment) = segment else { return segment }
        attachment.form = nil
        return .attachment(attachment)
    }
}
