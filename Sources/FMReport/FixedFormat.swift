import Foundation

/// Fast fixed-point formatting for reports (`String(format:)` goes through Foundation and dominated
/// the time to render 10,000 cases).
enum Fixed {
    /// `value` with exactly `decimals` digits after the point (0...6), rounded half away from zero;
    /// `–` for NaN and infinities; plain decimal notation (never an exponent).
    static func format(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return "–" }
        let places = min(max(decimals, 0), 6)
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9e18 else { return String(format: "%.\(places)f", value) }
        let units = UInt64(scaled)
        let divisor = UInt64(scale)
        var text = value < 0 && units > 0 ? "-" : ""
        text += String(units / divisor)
        if places > 0 {
            let fraction = String(units % divisor)
            text += "." + String(repeating: "0", count: places - fraction.count) + fraction
        }
        return text
    }
}
