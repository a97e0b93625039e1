// Module FMRun: see DESIGN.md (../shared/DESIGN.md) and docs/architecture.md.
