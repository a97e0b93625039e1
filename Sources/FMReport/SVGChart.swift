import Foundation

/// Inline SVG charts for the HTML report: no script, no network, labels escaped.
public enum SVGChart {
    /// One bar of a rate chart: a label, a rate in 0...1 and an optional interval drawn as a whisker.
    public struct RateBar: Equatable, Sendable {
        /// The row label (escaped when drawn).
        public var label: String
        /// The rate, clamped to 0...1 when drawn.
        public var rate: Double
        /// The interval (e.g. Wilson 95 %), clamped to 0...1 when drawn.
        public var interval: ClosedRange<Double>?
        /// A CSS class for the bar colour (`pass`, `fail`, `a`, `b` …).
        public var style: String

        /// A bar with all of its parts.
        public init(label: String, rate: Double, interval: ClosedRange<Double>? = nil, style: String = "pass") {
            self.label = label
            self.rate = rate
            self.interval = interval
            self.style = style
        }
    }

    /// One segment of a stacked count bar.
    public struct Segment: Equatable, Sendable {
        /// Legend text (escaped).
        public var label: String
        /// How many items the segment holds.
        public var count: Int
        /// A CSS class for the segment colour.
        public var style: String

        /// A segment with all of its parts.
        public init(label: String, count: Int, style: String) {
            self.label = label
            self.count = count
            self.style = style
        }
    }

    /// A horizontal bar chart of rates: each row's label in full above its bar (long labels wrap onto
    /// more lines, never clipped), interval whiskers, and the percentage after the bar. The default
    /// width reads unscaled on a 420 px screen.
    public static func rates(_ bars: [RateBar], title: String, width: Int = 400) -> String {
        let lineHeight = 16, barHeight = 16, gap = 10, top = 4
        let plotWidth = Double(width - 56)
        let rows = bars.map { wrapped($0.label, to: max(8, width / charWidth)) }
        let height = top + rows.reduce(0) { $0 + $1.count * lineHeight + barHeight + gap }
        var svg = HTMLBuffer(capacity: 256 * (bars.count + 1))
        svg.open("svg", cls: "chart", [("xmlns", "http://www.w3.org/2000/svg"), ("width", "\(width)"),
                                       ("height", "\(height)"), ("viewBox", "0 0 \(width) \(height)"),
                                       ("role", "img"), ("aria-label", title)])
        svg.element("title", title)
        var y = top
        for (bar, lines) in zip(bars, rows) {
            for line in lines {
                svg.raw("<text x=\"0\" y=\"\(y + 12)\">")
                svg.text(line)
                svg.raw("</text>")
                y += lineHeight
            }
            let rate = clamp(bar.rate)
            svg.raw("<rect class=\"track\" x=\"0\" y=\"\(y)\" width=\"\(format(plotWidth))\" height=\"\(barHeight)\"/>")
            svg.raw("<rect class=\"\(cssClass(bar.style))\" x=\"0\" y=\"\(y)\" width=\"\(format(plotWidth * rate))\" height=\"\(barHeight)\"/>")
            if let interval = bar.interval {
                let low = plotWidth * clamp(interval.lowerBound), high = plotWidth * clamp(interval.upperBound)
                let mid = y + barHeight / 2
                svg.raw("<path class=\"whisker\" d=\"M\(format(low)) \(mid)H\(format(high))M\(format(low)) \(mid - 5)v10M\(format(high)) \(mid - 5)v10\"/>")
            }
            svg.raw("<text x=\"\(Int(plotWidth) + 6)\" y=\"\(y + 12)\">\(percent(rate))</text>")
            y += barHeight + gap
        }
        svg.close("svg")
        return svg.html
    }

    /// A single stacked bar of counts with a legend underneath that wraps onto more rows when it is
    /// wider than the chart.
    public static func stacked(_ segments: [Segment], title: String, width: Int = 400) -> String {
        let total = segments.reduce(0) { $0 + max(0, $1.count) }
        var legend: [(segment: Segment, text: String, x: Int, row: Int)] = []
        var legendX = 0, row = 0
        for segment in segments where segment.count > 0 {
            let text = "\(segment.label) \(segment.count)"
            let itemWidth = 16 + charWidth * text.count + 12
            if legendX > 0 && legendX + itemWidth > width { legendX = 0; row += 1 }
            legend.append((segment, text, legendX, row))
            legendX += itemWidth
        }
        let height = 32 + 20 * (row + 1)
        var svg = HTMLBuffer(capacity: 256 * (segments.count + 1))
        svg.open("svg", cls: "chart", [("xmlns", "http://www.w3.org/2000/svg"), ("width", "\(width)"),
                                       ("height", "\(height)"), ("viewBox", "0 0 \(width) \(height)"),
                                       ("role", "img"), ("aria-label", title)])
        svg.element("title", title)
        var x = 0.0
        for segment in segments where segment.count > 0 {
            let share = total == 0 ? 0 : Double(segment.count) / Double(total)
            svg.raw("<rect class=\"\(cssClass(segment.style))\" x=\"\(format(x))\" y=\"0\" width=\"\(format(share * Double(width)))\" height=\"20\"/>")
            x += share * Double(width)
        }
        for item in legend {
            let y = 32 + 20 * item.row
            svg.raw("<rect class=\"\(cssClass(item.segment.style))\" x=\"\(item.x)\" y=\"\(y)\" width=\"12\" height=\"12\"/>")
            svg.raw("<text x=\"\(item.x + 16)\" y=\"\(y + 11)\">")
            svg.text(item.text)
            svg.raw("</text>")
        }
        if total == 0 { svg.raw("<rect class=\"track\" x=\"0\" y=\"0\" width=\"\(width)\" height=\"20\"/>") }
        svg.close("svg")
        return svg.html
    }

    /// `0.953` → `95.3%`.
    public static func percent(_ rate: Double) -> String {
        guard rate.isFinite else { return "–" }
        return Fixed.format(rate * 100, 1) + "%"
    }

    private static func clamp(_ value: Double) -> Double { value.isFinite ? min(1, max(0, value)) : 0 }

    private static func format(_ value: Double) -> String { Fixed.format(value, 1) }

    /// The widest a character of the chart font (12 px system-ui) is drawn, rounded up, for layout.
    private static let charWidth = 8

    /// `label` cut into lines of at most `length` characters, breaking after a space, `/`, `@`, `-`
    /// or `.` where one falls in the second half of a line, else mid-word.
    static func wrapped(_ label: String, to length: Int) -> [String] {
        var lines: [String] = []
        var rest = Substring(label)
        while rest.count > length {
            let window = rest.prefix(length)
            let breaks: Set<Character> = [" ", "/", "@", "-", "."]
            var cut = window.endIndex
            if let found = window.lastIndex(where: { breaks.contains($0) }), window.distance(from: window.startIndex, to: found) >= length / 2 {
                cut = window.index(after: found)
            }
            lines.append(String(rest[..<cut]))
            rest = rest[cut...]
        }
        if !rest.isEmpty || lines.isEmpty { lines.append(String(rest)) }
        return lines
    }

    /// Style names are ours, but keep them to `[a-z-]` so a caller can never inject markup through one.
    private static func cssClass(_ style: String) -> String {
        let kept = style.unicodeScalars.filter { ("a"..."z").contains($0) || $0 == "-" }
        return kept.isEmpty ? "bar" : String(String.UnicodeScalarView(kept))
    }
}
