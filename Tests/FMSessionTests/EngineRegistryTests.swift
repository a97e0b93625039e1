import Foundation
import Testing
import FMCore
@testable import FMEngines

@Test func theRegistryIsTheOneListOfEngines() {
    #expect(EngineRegistry.names == ["embedded", "scripted", "replay", "openai", "system"])
    #expect(EngineRegistry.knownNames == ["embedded", "scripted", "replay", "openai", "system", "apple"])
    #expect(EngineRegistry.descriptor(named: EngineRegistry.defaultEngine) != nil)
    #expect(EngineRegistry.descriptor(named: "embedded")?.options.map(\.name) == ["model", "prefixCacheMB"])
    #expect(EngineRegistry.descriptor(named: "replay")?.option("cassette")?.isRequired == true)
    #expect(EngineRegistry.descriptor(named: "scripted")?.options.isEmpty == true)
    #expect(EngineRegistry.descriptor(named: "openai")?.options.filter(\.isRequired).map(\.name) == ["baseURL", "model"])
    #expect(EngineRegistry.descriptor(named: "apple") == nil)
}

@Test(arguments: [
    ("replay", ["cassete": GeneratedContent("c.json")], "engine option 'cassete' is not an option of engine 'replay' (did you mean 'cassette'?)"),
    ("embedded", ["temperature": GeneratedContent(1)], "engine option 'temperature' is not an option of engine 'embedded' (options: model, prefixCacheMB)"),
    ("scripted", ["model": GeneratedContent("m")], "engine option 'model' is not an option of engine 'scripted' (it takes no options)"),
    ("embedded", ["model": GeneratedContent(3)], "engine option 'model' of engine 'embedded' must be a string, not number 3"),
    ("replay", [:], "engine 'replay' needs option 'cassette'"),
    ("embeded", [:], "unknown engine 'embeded'; did you mean 'embedded'? use one of embedded, scripted, replay, openai, system, apple"),
])
func badConfigurationsNameTheProblem(name: String, options: [String: GeneratedContent], message: String) {
    let problems = EngineRegistry.problems(EngineConfiguration(name: name, options: options))
    #expect(problems.count == (name == "replay" && !options.isEmpty ? 2 : 1), "a missing required option is reported too")
    #expect(problems.first?.message.hasPrefix(message) == true, "\(problems)")
    #expect(problems.first?.option == (options.isEmpty ? nil : options.keys.first))
}

@Test func goodAndReservedConfigurationsHaveNoProblems() {
    #expect(EngineRegistry.problems(EngineConfiguration(name: "embedded", model: "m.gguf")).isEmpty)
    #expect(EngineRegistry.problems(EngineConfiguration(name: "replay", cassette: "c.json")).isEmpty)
    #expect(EngineRegistry.problems(EngineConfiguration(name: "apple", options: ["baseUrl": GeneratedContent("x")])).isEmpty)
    #expect(EngineRegistry.problems(EngineConfiguration(name: "openai", options: ["baseURL": GeneratedContent("http://127.0.0.1:8080/v1"),
                                                                                  "model": GeneratedContent("m")])).isEmpty)
}

@Test func reservedEnginesAreNotAvailableAndBadOptionsStopTheBuild() {
    do {
        _ = try EngineRegistry.provider(for: EngineConfiguration(name: "apple"))
        Issue.record("expected a setup error")
    } catch let error as Fault {
        #expect(error.isInfrastructure)
        #expect(error.message.contains("not available in this build (available: embedded, scripted, replay, openai, system)"))
    } catch {
        Issue.record("unexpected \(error)")
    }
    do {
        _ = try EngineRegistry.provider(for: EngineConfiguration(name: "scripted", options: ["x": GeneratedContent(true)]))
        Issue.record("expected a setup error")
    } catch let error as Fault {
        #expect(!error.isInfrastructure && error.message.contains("'x' is not an option of engine 'scripted'"))
    } catch {
        Issue.record("unexpected \(error)")
    }
}

@Test(arguments: [
    (EngineOptionType.integer, GeneratedContent(3), true), (.integer, GeneratedContent(2.5), false),
    (.number, GeneratedContent(2.5), true), (.string, GeneratedContent("a"), true), (.string, GeneratedContent(1), false),
    (.boolean, GeneratedContent(false), true), (.array, GeneratedContent([GeneratedContent(1)]), true),
    (.object, GeneratedContent(properties: [("a", GeneratedContent(1))]), true), (.object, GeneratedContent([]), false),
])
func optionTypesAcceptTheirJSONKinds(type: EngineOptionType, value: GeneratedContent, accepted: Bool) {
    #expect(type.accepts(value) == accepted)
}

@Test func configurationsAreEqualByNameAndOptionsWhateverTheirOrder() {
    let a = EngineConfiguration(name: "x", options: ["a": GeneratedContent(1), "b": GeneratedContent("t")])
    let b = EngineConfiguration(name: "x", options: ["b": GeneratedContent("t"), "a": GeneratedContent(1)])
    #expect(a == b && a.hashValue == b.hashValue)
    #expect(a != EngineConfiguration(name: "x", options: ["a": GeneratedContent(2), "b": GeneratedContent("t")]))
    #expect(EngineConfiguration(name: "embedded", model: "m").summary == #"embedded {"model":"m"}"#)
    #expect(EngineConfiguration(name: "scripted").summary == "scripted")
}

@Test func helpAndSchemaListEveryEngineAndOption() throws {
    let help = EngineRegistry.helpText()
    for descriptor in EngineRegistry.descriptors {
        #expect(help.contains(descriptor.name) && help.contains(descriptor.summary))
        for option in descriptor.options { #expect(help.contains("\(option.name) (")) }
    }
    #expect(help.contains("openai") && help.contains("apple"))
    let schema = try GeneratedContent(json: EngineRegistry.jsonSchemaDefinition)
    #expect(schema["anyOf"]?.arrayValue?.first?["enum"]?.arrayValue?.compactMap(\.stringValue) == EngineRegistry.knownNames)
    let objects = try #require(schema["anyOf"]?.arrayValue?.last?["oneOf"]?.arrayValue)
    #expect(objects.count == EngineRegistry.descriptors.count + 1)
    #expect(objects[2]["required"]?.arrayValue?.compactMap(\.stringValue) == ["name", "cassette"])
}

@Test func docsListEveryEngineAndOption() throws {
    var root = URL(fileURLWithPath: #filePath)
    while !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) { root.deleteLastPathComponent() }
    let docs = try String(contentsOf: root.appendingPathComponent("docs/engines.md"), encoding: .utf8)
    for name in EngineRegistry.knownNames { #expect(docs.contains("`\(name)`"), "docs/engines.md does not name \(name)") }
    for descriptor in EngineRegistry.descriptors {
        for option in descriptor.options { #expect(docs.contains("`\(option.name)`"), "docs/engines.md does not name \(descriptor.name)'s \(option.name)") }
    }
}

@Test func defaultsFillLeftOutOptionsSoThatGivingTheDefaultConfiguresTheSameEngine() {
    let descriptor = EngineDescriptor(name: "probe", summary: "a test engine", options: [
        EngineOptionSpec("timeout", .number, "seconds per request", default: GeneratedContent(30)),
        EngineOptionSpec("model", .string, "the model", required: true),
    ]) { _ in ScriptedEngineProvider() }
    let given = EngineConfiguration(name: "probe", options: ["model": GeneratedContent("m")])
    let filled = descriptor.withDefaults(given)
    #expect(filled.options["timeout"]?.intValue == 30)
    #expect(filled == descriptor.withDefaults(EngineConfiguration(name: "probe", options: ["model": GeneratedContent("m"), "timeout": GeneratedContent(30)])))
    #expect(descriptor.withDefaults(EngineConfiguration(name: "probe", options: ["timeout": GeneratedContent(5)])).options["timeout"]?.intValue == 5)
    #expect(descriptor.problems(given.options).isEmpty)
    #expect(descriptor.problems([:]).map(\.message) == ["engine 'probe' needs option 'model': the model"])
}
