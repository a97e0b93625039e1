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

    /// A horizontal bar chart of rates with interval whiskers and a percentage at the end of each row.
    public static func rates(_ bars: [RateBar], title: String, width: Int = 640) -> String {
        let labelWidth = 200, rowHeight = 22, top = 8
        let plotWidth = Double(width - labelWidth - 70)
        let height = top * 2 + rowHeight * max(1, bars.count)
        var svg = HTMLBuffer(capacity: 256 * (bars.count + 1))
        svg.open("svg", cls: "chart", [("xmlns", "http://www.w3.org/2000/svg"), ("width", "\(width)"),
                                       ("height", "\(height)"), ("viewBox", "0 0 \(width) \(height)"),
                                       ("role", "img"), ("aria-label", title)])
        svg.element("title", title)
        for (row, bar) in bars.enumerated() {
            let y = top + row * rowHeight
            let rate = clamp(bar.rate)
            svg.raw("<text x=\"\(labelWidth - 6)\" y=\"\(y + 15)\" text-anchor=\"end\">")
            svg.text(truncated(bar.label, to: 30))
            svg.raw("</text>")
            svg.raw("<rect class=\"track\" x=\"\(labelWidth)\" y=\"\(y + 3)\" width=\"\(format(plotWidth))\" height=\"16\"/>")
            svg.raw("<rect class=\"\(cssClass(bar.style))\" x=\"\(labelWidth)\" y=\"\(y + 3)\" width=\"\(format(plotWidth * rate))\" height=\"16\"/>")
            if let interval = bar.interval {
                let low = Double(labelWidth) + plotWidth * clamp(interval.lowerBound)
                let high = Double(labelWidth) + plotWidth * clamp(interval.upperBound)
                let mid = y + 11
                svg.raw("<path class=\"whisker\" d=\"M\(format(low)) \(mid)H\(format(high))M\(format(low)) \(mid - 5)v10M\(format(high)) \(mid - 5)v10\"/>")
            }
            svg.raw("<text x=\"\(labelWidth + Int(plotWidth) + 6)\" y=\"\(y + 15)\">\(percent(rate))</text>")
        }
        svg.close("svg")
        return svg.html
    }

    /// A single stacked bar of counts with a legend underneath.
    public static func stacked(_ segments: [Segment], title: String, width: Int = 640) -> String {
        let total = segments.reduce(0) { $0 + max(0, $1.count) }
        let height = 52
        var svg = HTMLBuffer(capacity: 256 * (segments.count + 1))
        svg.open("svg", cls: "chart", [("xmlns", "http://www.w3.org/2000/svg"), ("width", "\(width)"),
                                       ("height", "\(height)"), ("viewBox", "0 0 \(width) \(height)"),
                                       ("role", "img"), ("aria-label", title)])
        svg.element("title", title)
        var x = 0.0
        var legendX = 0
        for segment in segments where segment.count > 0 {
            let share = total == 0 ? 0 : Double(segment.count) / Double(total)
            svg.raw("<rect class=\"\(cssClass(segment.style))\" x=\"\(format(x))\" y=\"0\" width=\"\(format(share * Double(width)))\" height=\"20\"/>")
            x += share * Double(width)
            svg.raw("<rect class=\"\(cssClass(segment.style))\" x=\"\(legendX)\" y=\"32\" width=\"12\" height=\"12\"/>")
            svg.raw("<text x=\"\(legendX + 16)\" y=\"43\">")
            let legend = "\(segment.label) \(segment.count)"
            svg.text(legend)
            svg.raw("</text>")
            legendX += 28 + 8 * legend.count
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

    private static func truncated(_ label: String, to length: Int) -> String {
        label.count <= length ? label : String(label.prefix(length - 1)) + "…"
    }

    /// Style names are ours, but keep them to `[a-z-]` so a caller can never inject markup through one.
    private static func cssClass(_ style: String) -> String {
        let kept = style.unicodeScalars.filter { ("a"..."z").contains($0) || $0 == "-" }
        return kept.isEmpty ? "bar" : String(String.UnicodeScalarView(kept))
    }
}
