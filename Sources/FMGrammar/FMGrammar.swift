// Module FMGrammar: see DESIGN.md (../shared/DESIGN.md) and docs/architecture.md.
