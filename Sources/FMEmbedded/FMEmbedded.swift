// Module FMEmbedded: see docs/architecture.md.
