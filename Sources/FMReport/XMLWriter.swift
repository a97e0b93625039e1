/// A small streaming XML 1.0 writer: elements are opened and closed in order, and every attribute
/// value and text node goes through `XMLEscaping`, so the output is well-formed for any content.
/// Element and attribute names are the caller's constants, never user data.
public struct XMLWriter {
    /// The document written so far.
    public private(set) var output: String
    private var openElements: [String] = []
    private let indentUnit: String

    /// Starts a document with the XML declaration; `indent` is repeated once per nesting level.
    public init(indent: String = "  ") {
        self.indentUnit = indent
        self.output = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        output.reserveCapacity(1 << 16)
    }

    /// Opens element `name` with `attributes` (in the given order); close it with `close()`.
    public mutating func open(_ name: String, _ attributes: [(String, String)] = []) {
        writeStartTag(name, attributes, selfClosing: false)
        output += "\n"
        openElements.append(name)
    }

    /// Writes `<name attributes/>`.
    public mutating func empty(_ name: String, _ attributes: [(String, String)] = []) {
        writeStartTag(name, attributes, selfClosing: true)
        output += "\n"
    }

    /// Writes `<name attributes>text</name>` with the text escaped (whitespace kept as is).
    public mutating func element(_ name: String, _ attributes: [(String, String)] = [], text: String) {
        writeStartTag(name, attributes, selfClosing: false)
        XMLEscaping.appendText(text, to: &output)
        output += "</" + name + ">\n"
    }

    /// Closes the most recently opened element; does nothing when none is open.
    public mutating func close() {
        guard let name = openElements.popLast() else { return }
        indent()
        output += "</" + name + ">\n"
    }

    /// Closes every open element and returns the finished document.
    public mutating func finish() -> String {
        while !openElements.isEmpty { close() }
        return output
    }

    private mutating func writeStartTag(_ name: String, _ attributes: [(String, String)], selfClosing: Bool) {
        indent()
        output += "<" + name
        for (key, value) in attributes {
            output += " " + key + "=\""
            XMLEscaping.appendAttribute(value, to: &output)
            output += "\""
        }
        output += selfClosing ? "/>" : ">"
    }

    private mutating func indent() {
        for _ in 0..<openElements.count { output += indentUnit }
    }
}
