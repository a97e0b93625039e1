import FMEngines

/// The flags of `fmeval run`, each declared once: they parse its arguments and write its help.
extension RunCommand {
    static let model = Flag("--model", .value("FILE"),
                            help: "the model for the engine (its `model` option); overrides each suite's `model:`")
    static let variant = Flag("--variant", .repeatable("NAME"), help: "run only this variant (repeatable)")
    static let repeatCount = Flag("--repeat", .value("N"),
                                  help: "attempts per case (1 to 10000), replacing each case's `repeat`")
    static let jobs = Flag("--jobs", short: "-j", .value("N"),
                           help: "cases run in parallel, each in its own session (default 1)")
    static let filter = Flag("--filter", short: "-k", .value("EXPR"), help: """
        comma-separated terms, any may match: tag:NAME, suite:NAME, id:GLOB or GLOB;
        a leading ! excludes (e.g. "tag:forum,!id:*slow*"); id: matches the whole
        id suite/case[@variant], so write id:*paris* for part of it
        """)
    static let json = Flag("--json", .value("FILE"), help: "results file (default: OUT/results.json)")
    static let out = Flag("--out", short: "-o", .value("DIR"), help: "folder for outputs (default: reports)")
    static let failFast = Flag("--fail-fast", short: "-x", help: """
        start no new case once one fails its gate or errors (running cases finish);
        the cases not run are listed as skipped and counted in the summary, and the
        results, journal and reports are written as usual (finish with --resume FILE)
        """)
    static let lastFailed = Flag("--last-failed", .optionalValue("FILE"), help: """
        rerun only the cases that failed the run in FILE (status failed or error, or a
        diverged determinism rerun; flaky cases held their gate and are not rerun);
        FILE defaults to this run's results file and must be attached with '='. The
        new results hold just the rerun cases. When none failed, says so and exits 0
        """)
    static let retryErrors = Flag("--retry-errors", .value("FILE"), help: """
        rerun only the `error` cases of FILE (on the same engine and model) and merge
        them into FILE's results, the other cases kept as they were; the merged
        results go back to FILE (or to --json FILE), and reports are written from them
        """)
    static let record = Flag("--record", .value("FILE"),
                             help: "record every engine call into a cassette for the replay engine")
    static let cache = Flag("--cache", .value("FILE"), help: """
        a record-through cache: answer each engine call recorded in FILE, run the
        engine on a miss and add its answer to FILE (errors are not cached); one
        engine per file. FILE is a cassette: --cassette FILE replays it fail-closed
        """)
    static let cassette = Flag("--cassette", .value("FILE"), help:
                               "the cassette the replay engine plays (its `cassette` option; implies --engine replay)")
    static let resume = Flag("--resume", .value("FILE"), help: """
        finish an interrupted run: keep the cases finished in FILE (results or .jsonl
        journal; FILE's journal when FILE was never written) whose definition and
        engine are unchanged; the others run again, and a line says which and why
        """)
    static let fresh = Flag("--fresh", help: """
        start over although the output holds the journal of an interrupted run (that
        journal is replaced); without it such a run stops with exit 2 and says how to resume
        """)
    static let checkDeterminism = Flag("--check-determinism",
                                       help: "rerun each greedy attempt and flag any divergence (exit 1)")
    static let keepGoing = Flag("--keep-going", help: """
        when a suite's recorded transcripts (`transcripts:`) include invalid files, score
        the valid ones and list the invalid ones as error cases (the run still exits 2);
        without it, an invalid transcript stops the run before anything is scored
        """)
    static let transcriptDialect = Flag("--transcript-dialect", .value("26|27"), help: """
        the Foundation Models dialect of every transcript in the results and journal: 27
        (`"version": "1.1"`, flat options, data: images) or 26 (`"version": 1`, options
        under `sampling`) for teams still on 26; by default a new session's is 27 and a
        recorded file's stays its own (docs/results-format.md)
        """)
    static let noProbe = Flag("--no-probe", help: """
        send no constraint-honesty probe: by default, before grammar-channel cases run
        on a server-backed engine (openai), one request checks that the server enforces
        response_format, and a server that ignores it stops the run (exit 3)
        """)
    static let color = Flag("--color", .value("WHEN"), help: """
        auto (default: colour when standard output is a terminal, NO_COLOR is unset or
        empty and TERM is not dumb), always (even with NO_COLOR), never
        """)

    static let usage = CommandUsage("run", "[PATH...]", flags:
        EngineFlags.table(default: "each suite's `engine:`, else \(EngineRegistry.defaultEngine)")
        + FlagTable(model, variant, repeatCount, jobs, filter, json, out)
        + ReportFlags.table(providing: [.results]) + ReportFlags.gateTable + ShardFlags.table
        + .oneOf(record, cassette, cache) + .oneOf(resume, fresh, lastFailed, retryErrors)
        + FlagTable(failFast, checkDeterminism, keepGoing, SettingOverrideFlags.device,
                    SettingOverrideFlags.guideEnforcement, transcriptDialect, noProbe, color)
        + ReportFlags.verbosityTable
        + HistoryFlags.table + ThroughputFlags.table)
}
