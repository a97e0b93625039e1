// swift-tools-version:6.0
// fmeval: an evaluation harness and regression test runner for Foundation Models features.
// No dependencies beyond the Swift toolchain; see README.md.
import PackageDescription

let package = Package(
    name: "fmeval",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "fmeval", targets: ["fmeval"]),
        .library(name: "FMCore", targets: ["FMCore"]),
        // For an app's test target: load and run suites, assert on results, write reports (docs/swift-api.md).
        .library(name: "FMEval", targets: ["FMEval"]),
    ],
    targets: [
        // Starting a child process that dies with fmeval (fork, parent-death signal, exec; C).
        .target(name: "FMSpawn"),
        // Vocabulary, Apple-compatible JSON codecs, schema validator.
        .target(name: "FMCore", dependencies: ["FMSpawn"]),
        // GenerationSchema -> grammar -> token masks.
        .target(name: "FMGrammar", dependencies: ["FMCore"]),
        // Innermost quantized dot-product kernels (C, run-time CPU dispatch). No contraction of a·b + c into
        // one fused multiply-add: every level must round as the others (docs/engine.md, "Kernels").
        .target(name: "FMKernels", cSettings: [.unsafeFlags(["-ffp-contract=off"])]),
        // C's standard output stream for the CLI (Swift 6 cannot read C's `stdout` global).
        .target(name: "FMStdio"),
        // GGUF reader, tokenizer, llama forward pass, KV cache.
        .target(name: "FMEmbedded", dependencies: ["FMCore", "FMKernels"]),
        // Foundation Models session semantics over any engine.
        .target(name: "FMSession", dependencies: ["FMCore"]),
        // Engine implementations: embedded adapter, scripted, replay/record.
        .target(name: "FMEngines", dependencies: ["FMCore", "FMSession", "FMEmbedded", "FMGrammar"]),
        // Suite format: YAML subset, JSON/JSONL loader, validation.
        .target(name: "FMSuite", dependencies: ["FMCore", "FMEvaluate", "FMEngines"]),
        // Evaluators, metrics, statistics.
        .target(name: "FMEvaluate", dependencies: ["FMCore"]),
        // Results model, its versioned JSON codec, the journal, the ResultStore seam.
        .target(name: "FMResults", dependencies: ["FMCore", "FMEvaluate"]),
        // Runner: expansion, attempts, repeats, gates.
        .target(name: "FMRun", dependencies: ["FMCore", "FMSuite", "FMSession", "FMEngines", "FMEvaluate", "FMResults"]),
        // The system SQLite C library (libsqlite3-dev on Linux, the SDK's on macOS) for the run history.
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        // Run history in SQLite: a ResultStore of every run, and the trend, flip and flakiness queries.
        .target(name: "FMHistory", dependencies: ["FMCore", "FMEvaluate", "FMResults", "CSQLite"]),
        // JUnit XML, HTML, terminal, comparison, merge: reads results only (never the runner or engines).
        .target(name: "FMReport", dependencies: ["FMCore", "FMEvaluate", "FMResults"]),
        // The library for app test targets: suites, engines (yours too), results, reports (docs/swift-api.md).
        .target(name: "FMEval", dependencies: ["FMCore", "FMSession", "FMEngines", "FMSuite", "FMEvaluate", "FMResults", "FMRun", "FMReport"]),
        // The command-line tool.
        .executableTarget(
            name: "fmeval",
            dependencies: ["FMCore", "FMGrammar", "FMEmbedded", "FMSession", "FMEngines", "FMSuite", "FMEvaluate", "FMResults", "FMRun", "FMReport", "FMStdio", "FMHistory"]
        ),

        // Harness throughput benchmark: replayed cases per second (see Sources/fmeval-bench-harness).
        .executableTarget(name: "fmeval-bench-harness", dependencies: ["FMRun", "FMResults", "FMEngines"]),
        // Run-history benchmark: recording a 10,000-case run, the trend query over 100 runs (see Sources/fmeval-bench-history).
        .executableTarget(name: "fmeval-bench-history", dependencies: ["FMHistory", "FMResults", "FMEvaluate", "FMCore", "FMEngines"]),
        // HTML report benchmark input: a 10,000-case run and its report (see benchmarks/html-report-paint.sh).
        .executableTarget(name: "fmeval-bench-html", dependencies: ["FMReport", "FMResults", "FMEvaluate", "FMCore"]),

        .testTarget(name: "FMCoreTests", dependencies: ["FMCore", "TestSupport"]),
        .testTarget(name: "FMGrammarTests", dependencies: ["FMGrammar", "FMCore"]),
        .testTarget(name: "FMEmbeddedTests", dependencies: ["FMEmbedded", "FMKernels", "FMCore"]),
        .testTarget(name: "FMSessionTests", dependencies: ["FMSession", "FMEngines", "FMCore"]),
        // A loopback HTTP server for fault tests, shared by the engine's and the CLI's tests.
        .target(name: "FaultServer", path: "Tests/FaultServer"),
        // Helpers every test target may share: deadline polling, process checks.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "OpenAIEngineTests", dependencies: ["FMEngines", "FMSession", "FMEmbedded", "FMCore", "FaultServer", "TestSupport"]),
        .testTarget(name: "FMEvaluateTests", dependencies: ["FMEvaluate", "FMCore", "TestSupport"]),
        .testTarget(name: "FMSuiteTests", dependencies: ["FMSuite", "FMCore", "TestSupport"]),
        .testTarget(name: "FMResultsTests", dependencies: ["FMResults", "FMEvaluate", "FMCore"]),
        .testTarget(name: "FMRunTests", dependencies: ["FMRun", "FMResults", "FMSession", "FMEngines", "FMGrammar", "FMEvaluate", "FMSuite", "FMCore", "TestSupport"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "FMHistoryTests", dependencies: ["FMHistory", "FMReport", "FMResults", "FMEvaluate", "FMCore"]),
        .testTarget(name: "FMReportTests", dependencies: ["FMReport", "FMResults", "FMEvaluate", "FMCore", "TestSupport"]),
        // Uses FMEval exactly as an app's test target would (only `import FMEval`).
        .testTarget(name: "FMEvalLibraryTests", dependencies: ["FMEval"]),
        .testTarget(name: "CLITests", dependencies: ["FMCore", "FMReport", "FMResults", "FaultServer", "TestSupport"],
                    exclude: ["fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)

// `FMEVAL_PACKAGE_SUBSET=engine` (.ci/run's sanitizer stages): only the engine, the grammar, the runner and
// their tests, so each sanitized build compiles half the package; unset, the whole package.
let engineSubset: Set<String> = [
    "FMSpawn", "FMCore", "FMGrammar", "FMKernels", "FMEmbedded", "FMSession", "FMEngines", "FMSuite", "FMEvaluate",
    "FMResults", "FMRun", "FMEmbeddedTests", "FMGrammarTests", "FMRunTests", "TestSupport",
]
if Context.environment["FMEVAL_PACKAGE_SUBSET"] == "engine" {
    package.targets.removeAll { !engineSubset.contains($0.name) }
    package.products = []
}
