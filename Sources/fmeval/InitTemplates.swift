/// The files `fmeval init` writes: a commented starter suite, the dataset it reads and a CI workflow.
enum InitTemplates {
    /// Each file's path relative to the target folder, and its text, in the order they are written; the
    /// CI files are the ones `ci` names.
    static func files(ci: InitCITarget) -> [(path: String, text: String)] {
        [
            ("suites/example.yaml", suite),
            ("suites/tools.yaml", toolsSuite),
            ("datasets/example.jsonl", dataset),
        ] + ci.files
    }

    /// A suite that runs on the embedded engine and passes, commented key by key.
    static let suite = """
    # An fmeval suite: every case sends a prompt to the model and checks what comes back.
    # Check it with `fmeval validate suites`; run it with `fmeval run suites`.
    # Every key is described in fmeval's docs/suite-format.md. For completion in your editor, save the
    # schema with `fmeval schema suite > suite.schema.json` and add this line to the file:
    #   `# yaml-language-server: $schema=../suite.schema.json`

    # The suite's name: cases print as example/CASE-ID.
    suite: example
    description: Classify the sentiment of short product reviews.

    # The engine: embedded (the default) runs SmolLM2-135M-Instruct in-process; scripted plays back
    # canned responses (for testing the harness), replay plays a recorded cassette.
    engine: embedded

    # Generation options. Greedy sampling gives the same answer on every run, so a failure is real.
    options:
      sampling: greedy
      maximumResponseTokens: 8

    # The instructions the model sees before every prompt.
    instructions: |
      You classify the sentiment of a product review.
      Answer with exactly one word: positive, negative or neutral.

    # What the model must generate. Here one label of an enum; guided generation keeps the output
    # inside it. Leave `generating` out for free text, or give a JSON schema with `schema:`.
    generating:
      enum: [positive, negative, neutral]

    # Applied to every case, before the case's own expectations.
    defaults:
      tags: [sentiment]
      expect:
        - constraints: { maxViolations: 0 }   # the output satisfies the requested schema

    # More cases, one JSON object per line (paths resolve relative to this file).
    dataset: ../datasets/example.jsonl

    cases:
      - id: love-it                  # unique in the suite
        prompt: I love this phone. The battery lasts all day!
        expect:
          - equals: positive         # also: oneOf, contains, regex, not, schema, toolCalls, usage, ...
      - id: broke
        prompt: It broke after two days. Waste of money.
        tags: [complaint]            # select cases with `fmeval run --filter tag:complaint`
        expect:
          - oneOf: [negative, neutral]
          - not: { equals: positive }

    """

    /// A tool-calling suite that runs on the embedded engine and passes: the `required` loop idiom, with the
    /// expectation it needs.
    static let toolsSuite = """
    # Tool calling, as the device does it. With toolCallingMode required the model must call a tool on
    # every turn, so after each tool output it calls again and never answers: on the device the session
    # loops forever. fmeval's loop guard (maxToolCalls) ends that loop with the error
    # toolCallLimitExceeded, so a case that checks which tool the model picks expects that error as its
    # end, beside the toolCalls it checks. (A case where the model must answer after calling tools uses
    # toolCallingMode allowed instead.) Every key is described in docs/suite-format.md.
    suite: tools
    description: Route weather questions to the weather tool.

    instructions: |
      You can ONLY call getCityInfo for London, Paris and New York.

    # maxToolCalls: how many calls the loop guard lets through before it ends the prompt.
    options: { sampling: greedy, maximumResponseTokens: 96, toolCallingMode: required, maxToolCalls: 2 }

    tools:
      - name: getCityInfo
        description: Get the weather in a city.
        arguments:                   # a GenerationSchema: the grammar keeps the call's arguments inside it
          type: object
          properties:
            city: { type: string, enum: [London, New York, Paris] }
          required: [city]
        outputs:                     # the first rule whose `when` matches the call answers it
          - when: { city: Paris }
            output: "Paris: sunny, 21°C."
          - output: "No data for this city."

    cases:
      - id: paris
        prompt: What's the weather in Paris?
        expect:
          - error: toolCallLimitExceeded    # the loop's end under required: the guard stopped it
          - toolCalls:                      # the calls the model made before that, in order
              ordered: [ { name: getCityInfo, arguments: { city: Paris } } ]

    """

    /// The dataset the starter suite reads: one case per line.
    static let dataset = """
    {"id": "great-value", "prompt": "Excellent quality and great value. Very happy!", "expect": {"equals": "positive"}}
    {"id": "refund", "prompt": "Awful quality, I want a refund.", "expect": {"equals": "negative"}, "tags": ["complaint"]}

    """
}
