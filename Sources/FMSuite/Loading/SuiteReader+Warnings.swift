import FMCore

extension SuiteReader {
    /// Warnings for settings that load but have no effect: a `temperature` under greedy sampling
    /// (every case × variant is judged with its layered options; each offending key is reported once).
    func greedyTemperatureWarnings(_ item: SuiteCase, suite: Suite, root: YAMLNode) {
        guard item.options.generation.temperature != nil || suite.options.generation.temperature != nil
                || suite.variants.contains(where: { $0.options.generation.temperature != nil }) else { return }
        let variants: [Variant?] = suite.variants.isEmpty ? [nil]
            : suite.variants.filter { item.variants?.contains($0.name) ?? true }
        for variant in variants {
            let merged = suite.options.overridden(by: variant?.options ?? OptionsPatch()).overridden(by: item.options)
            guard let temperature = merged.generation.temperature, merged.resolvedOptions.sampling == .greedy else {
                continue
            }
            let source: SourceLocation
            if item.options.generation.temperature != nil {
                source = item.temperatureLocation ?? item.location
            } else if let variant, variant.options.generation.temperature != nil {
                let node = root["variants"]?.sequence?.first { $0.location == variant.location }
                source = node?["options"]?["temperature"]?.location ?? variant.location
            } else {
                source = root["options"]?["temperature"]?.location ?? root.location
            }
            guard temperatureWarnings.insert(source).inserted else { continue }
            warnings.append(Diagnostic(source,
                "temperature \(GeneratedContent(temperature).jsonString) has no effect under greedy sampling "
                + "(the default); set sampling to {randomTopK: K} or {randomProbabilityThreshold: P} to sample, "
                + "or remove temperature"))
        }
    }
}
