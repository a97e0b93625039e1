/// The history database's tables (docs/history.md), as forward migrations from an empty file.
///
/// Migration `n` (1-based) takes a database at version `n - 1` to version `n`; a database records its
/// version in `schema_version`. Migrations are only ever appended: a released one never changes.
enum HistorySchema {
    /// The schema version this build writes and reads.
    static var currentVersion: Int { migrations.count }

    /// The scripts, in order: `migrations[0]` creates version 1 from nothing.
    static let migrations: [String] = [version1, version2, version3, version4]

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
}
