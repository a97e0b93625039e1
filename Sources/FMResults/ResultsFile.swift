import Foundation
import FMCore

/// Reads and writes results documents (docs/results-format.md) for `compare`, `merge` and reports.
public enum ResultsFile {
    /// Reads the results document at `path`, with errors that name the file and the JSON path.
    ///
    /// Files written by other tools may carry lone UTF-16 surrogate escapes (`"\ud800"`), which
    /// Foundation refuses; they are read as U+FFFD instead of failing the whole report.
    public static func load(_ path: String) throws -> RunResult {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw Fault.invalidInput("\(path): cannot read the results file (\(error.localizedDescription)); check "
                + "the path")
        }
        return try decode(data, path: path)
    }

    /// Decodes a results document from `data`; `path` names it in errors.
    ///
    /// The text is parsed once by FMCore's JSON parser (errors at line:column) and decoded from that
    /// tree by `ContentDecoder`, an order of magnitude faster than `JSONDecoder` on large files.
    public static func decode(_ data: Data, path: String) throws -> RunResult {
        let content: GeneratedContent
        do {
            content = try parse(data)
        } catch let first {
            guard let repaired = try? parse(JSONRepair.repairingLoneSurrogates(data)) else {
                throw Fault.invalidInput("\(path): not valid JSON: \(first); see docs/results-format.md")
            }
            content = repaired
        }
        if let version = content["version"]?.intValue { try checkVersion(version, path: path) }
        let result: RunResult
        do {
            result = try ContentDecoder.decode(RunResult.self, from: content)
        } catch {
            throw Fault.invalidInput("\(path): not a valid fmeval results document: \(describe(error)); see "
                + "docs/results-format.md")
        }
        try checkUniqueIDs(result.cases, in: path)
        return result
    }

    /// Throws when two of `cases` share an id: a run's ids are unique, so such a file (written before ids were
    /// checked, or edited) would let one verdict stand for another; `source` names the file in the message.
    public static func checkUniqueIDs(_ cases: [CaseResult], in source: String) throws {
        var seen: Set<String> = []
        for item in cases where !seen.insert(item.id).inserted {
            throw Fault.invalidInput("\(source): case id '\(item.id)' appears more than once, so one verdict would "
                + "hide another; "
                + "rename the colliding suites or cases (fmeval validate names both places) and run them again")
        }
    }

    private static func parse(_ data: Data) throws -> GeneratedContent {
        try GeneratedContent(json: String(decoding: data, as: UTF8.self))
    }

    private static func checkVersion(_ version: Int, path: String) throws {
        guard version > RunResult.currentVersion else { return }
        throw Fault.invalidInput("\(path): results format version \(version) is newer than this fmeval reads "
            + "(\(RunResult.currentVersion)); upgrade fmeval")
    }

    /// Writes `run` atomically to `path`, creating the parent folder: one line per top-level key and one
    /// line per case. `caseTexts`, when given, is the JSON text of each of `run.cases` already encoded
    /// (the journal's lines, reused rather than encoded again).
    public static func write(_ run: RunResult, to path: String, caseTexts: [String]? = nil) throws {
        do {
            let url = URL(fileURLWithPath: path)
            try FileManager.default.createDirectory(atPath: FilePaths.parent(of: path), withIntermediateDirectories: true)
            let cases = try caseTexts ?? run.cases.map { try ContentEncoder.jsonText($0) }
            var text = "{\n\"version\": \(run.version),\n\"run\": " + (try ContentEncoder.jsonText(run.run))
            text += ",\n\"summary\": " + (try ContentEncoder.jsonText(run.summary))
            text += ",\n\"cases\": [\n" + cases.joined(separator: ",\n") + "\n]"
            text += ",\n\"skipped\": " + (try ContentEncoder.jsonText(run.skipped))
            text += ",\n\"classifications\": " + (try ContentEncoder.jsonText(run.classifications)) + "\n}\n"
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            throw Fault.infrastructure("cannot write results to \(path): \(FileErrors.reason(of: error)); check "
                + "the folder exists and is writable")
        }
    }

    /// Writes `data` to `path` atomically, creating the parent folder; errors name the path.
    public static func writeReport(_ data: Data, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(atPath: FilePaths.parent(of: path), withIntermediateDirectories: true)
            try data.write(to: url, options: .atomic)
        } catch {
            throw Fault.infrastructure("\(path): cannot write the report (\(error.localizedDescription)); check "
                + "the folder exists and is writable")
        }
    }

    /// A decoding error as `at cases[3].status: message`.
    static func describe(_ error: Error) -> String {
        func path(_ keys: [CodingKey]) -> String {
            var text = "$"
            for key in keys {
                if let index = key.intValue { text += "[\(index)]" } else { text += "." + key.stringValue }
            }
            return text
        }
        switch error as? DecodingError {
        case .keyNotFound(let key, let context)?:
            return "at \(path(context.codingPath)): missing key '\(key.stringValue)'"
        case .typeMismatch(let type, let context)?:
            return "at \(path(context.codingPath)): expected \(type) (\(context.debugDescription))"
        case .valueNotFound(let type, let context)?:
            return "at \(path(context.codingPath)): expected \(type), found null"
        case .dataCorrupted(let context)?:
            let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return "at \(path(context.codingPath)): \(underlying ?? context.debugDescription)"
        default:
            return String(describing: error)
        }
    }

    private struct VersionProbe: Decodable {
        var version: Int?
    }
}

/// Byte-level repairs that let Foundation read JSON written by less strict tools.
public enum JSONRepair {
    /// Replaces `\uD800`–`\uDFFF` escapes that are not part of a valid surrogate pair with `\uFFFD`.
    public static func repairingLoneSurrogates(_ data: Data) -> Data {
        let bytes = [UInt8](data)
        guard bytes.contains(UInt8(ascii: "\\")) else { return data }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < bytes.count else {
                output.append(byte)
                index += 1
                continue
            }
            guard bytes[index + 1] == UInt8(ascii: "u"), let unit = hexUnit(bytes, at: index + 2) else {
                output.append(contentsOf: bytes[index...index + 1])
                index += 2
                continue
            }
            if (0xD800...0xDBFF).contains(unit), index + 12 <= bytes.count,
               bytes[index + 6] == UInt8(ascii: "\\"), bytes[index + 7] == UInt8(ascii: "u"),
               let low = hexUnit(bytes, at: index + 8), (0xDC00...0xDFFF).contains(low) {
                output.append(contentsOf: bytes[index..<index + 12])
                index += 12
            } else if (0xD800...0xDFFF).contains(unit) {
                output.append(contentsOf: Array("\\uFFFD".utf8))
                index += 6
            } else {
                output.append(contentsOf: bytes[index..<index + 6])
                index += 6
            }
        }
        return Data(output)
    }

    /// The 16-bit value of four hex digits at `offset`, or nil.
    private static func hexUnit(_ bytes: [UInt8], at offset: Int) -> UInt32? {
        guard offset + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for byte in bytes[offset..<offset + 4] {
            guard let digit = hexDigit(byte) else { return nil }
            value = value << 4 | digit
        }
        return value
    }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }
}
