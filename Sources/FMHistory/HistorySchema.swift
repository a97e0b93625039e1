/// The history database's tables (docs/history.md), as forward migrations from an empty file.
///
/// Migration `n` (1-based) takes a database at version `n - 1` to version `n`; a database records its
/// version in `schema_version`. Migrations are only ever appended: a released one never changes.
enum HistorySchema {
    /// The schema version this build writes and reads.
    static var currentVersion: Int { migrations.count }

    /// The scripts, in order: `migrations[0]` creates version 1 from nothing.
    static let migrations: [String] = [version1, version2, version3, version4, version5]

    /// Version 1: runs, cases, per-run case results and attempts.
    static let version1 = """
    CREATE TABLE schema_version (version INTEGER NOT NULL);
    INSERT INTO schema_version (version) VALUES (0);
    CREATE TABLE runs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        run_id TEXT NOT NULL UNIQUE,
        started_at TEXT NOT NULL,
        finished_at TEXT,
        duration_ms REAL,
        recorded_at TEXT NOT NULL,
        engine TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        git_commit TEXT,
        git_branch TEXT,
        arguments TEXT NOT NULL,
        paths TEXT NOT NULL,
        shard TEXT,
        filter TEXT,
        total INTEGER NOT NULL,
        passed INTEGER NOT NULL,
        failed INTEGER NOT NULL,
        flaky INTEGER NOT NULL,
        errored INTEGER NOT NULL,
        known_issues INTEGER NOT NULL,
        skipped INTEGER NOT NULL,
        gates_failed INTEGER NOT NULL,
        attempts INTEGER NOT NULL
    );
    CREATE TABLE cases (
        id INTEGER PRIMARY KEY,
        case_key TEXT NOT NULL UNIQUE,
        suite TEXT NOT NULL,
        case_name TEXT NOT NULL,
        variant TEXT
    );
    CREATE TABLE case_results (
        id INTEGER PRIMARY KEY,
        run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        case_ref INTEGER NOT NULL REFERENCES cases(id),
        status TEXT NOT NULL,
        gate_holds INTEGER NOT NULL,
        fails_run INTEGER NOT NULL,
        passes INTEGER NOT NULL,
        pass_rate REAL NOT NULL,
        tags TEXT NOT NULL,
        definition TEXT,
        reason TEXT NOT NULL,
        duration_ms REAL NOT NULL,
        UNIQUE (run, case_ref)
    );
    CREATE TABLE attempts (
        result INTEGER NOT NULL REFERENCES case_results(id) ON DELETE CASCADE,
        attempt INTEGER NOT NULL,
        status TEXT NOT NULL,
        metrics TEXT NOT NULL,
        violations TEXT NOT NULL,
        input_tokens INTEGER NOT NULL,
        output_tokens INTEGER NOT NULL,
        duration_ms REAL NOT NULL,
        error TEXT,
        PRIMARY KEY (result, attempt)
    );
    """

    /// Version 2: retries per attempt, determinism divergence per case, and the index the trend,
    /// flip and flakiness queries read a case's results through.
    static let version2 = """
    ALTER TABLE attempts ADD COLUMN retries INTEGER;
    ALTER TABLE case_results ADD COLUMN diverged INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX case_results_by_case ON case_results (case_ref, run);
    CREATE INDEX runs_by_branch ON runs (git_branch, id);
    """

    /// Version 3: the engine each case ran on (its `EngineIdentity` as JSON), so drift can tell a model
    /// change from a case change per case; rows written before it fall back to the run's engine.
    static let version3 = """
    ALTER TABLE case_results ADD COLUMN engine TEXT;
    """

    /// Version 4: whether the case's verdict changed in a session reused after other cases (`contamination`).
    static let version4 = """
    ALTER TABLE case_results ADD COLUMN history_dependent INTEGER NOT NULL DEFAULT 0;
    """

    /// Version 5: about 1 MB per 10,000-case run. Texts a run repeats from case to case and run to run
    /// (tag lists, reasons, definition hashes, attempt metrics) are stored once, in `texts`, and referred
    /// to by id; case results are keyed by (run, case) and attempts by (run, case, attempt), without row
    /// ids; durations are whole microseconds; an empty violation count is NULL.
    static let version5 = """
    CREATE TABLE texts (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE);
    INSERT INTO texts (text)
        SELECT tags FROM case_results UNION SELECT reason FROM case_results
        UNION SELECT definition FROM case_results WHERE definition IS NOT NULL UNION SELECT metrics FROM attempts;
    CREATE TABLE case_results_v5 (
        run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        case_ref INTEGER NOT NULL REFERENCES cases(id),
        status TEXT NOT NULL,
        gate_holds INTEGER NOT NULL,
        fails_run INTEGER NOT NULL,
        passes INTEGER NOT NULL,
        pass_rate REAL NOT NULL,
        tags_ref INTEGER NOT NULL REFERENCES texts(id),
        definition_ref INTEGER REFERENCES texts(id),
        reason_ref INTEGER NOT NULL REFERENCES texts(id),
        duration_us INTEGER NOT NULL,
        diverged INTEGER NOT NULL,
        engine TEXT,
        history_dependent INTEGER NOT NULL,
        PRIMARY KEY (run, case_ref)
    ) WITHOUT ROWID;
    CREATE TABLE attempts_v5 (
        run INTEGER NOT NULL,
        case_ref INTEGER NOT NULL,
        attempt INTEGER NOT NULL,
        status TEXT NOT NULL,
        metrics_ref INTEGER NOT NULL REFERENCES texts(id),
        violations TEXT,
        input_tokens INTEGER NOT NULL,
        output_tokens INTEGER NOT NULL,
        duration_us INTEGER NOT NULL,
        error TEXT,
        retries INTEGER,
        PRIMARY KEY (run, case_ref, attempt),
        FOREIGN KEY (run, case_ref) REFERENCES case_results_v5 (run, case_ref) ON DELETE CASCADE
    ) WITHOUT ROWID;
    INSERT INTO case_results_v5
        SELECT run, case_ref, status, gate_holds, fails_run, passes, pass_rate,
               (SELECT id FROM texts WHERE text = tags), (SELECT id FROM texts WHERE text = definition),
               (SELECT id FROM texts WHERE text = reason), CAST(round(duration_ms * 1000) AS INTEGER), diverged, engine,
               history_dependent
        FROM case_results;
    INSERT INTO attempts_v5
        SELECT cr.run, cr.case_ref, a.attempt, a.status, (SELECT id FROM texts WHERE text = a.metrics),
               nullif(a.violations, '{}'), a.input_tokens, a.output_tokens,
               CAST(round(a.duration_ms * 1000) AS INTEGER),
               a.error, a.retries
        FROM attempts a JOIN case_results cr ON cr.id = a.result;
    DROP TABLE attempts;
    DROP TABLE case_results;
    ALTER TABLE case_results_v5 RENAME TO case_results;
    ALTER TABLE attempts_v5 RENAME TO attempts;
    CREATE INDEX case_results_by_case ON case_results (case_ref, run);
    """
}
