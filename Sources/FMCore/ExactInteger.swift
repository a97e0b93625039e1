import Foundation

/// An integer of any size, kept as its decimal digits so that comparisons are exact where a `Double`
/// would round (integers beyond ±2^53, such as `9007199254740993`).
public struct ExactInteger: Hashable, Sendable, CustomStringConvertible {
    /// True for a value below zero.
    public let negative: Bool
    /// The decimal digits of the magnitude, without leading zeros (`"0"` for zero).
    public let magnitude: String

    /// The integer written as `literal` (an optional `-` then decimal digits); nil for anything else.
    public init?<Text: StringProtocol>(literal: Text) {
        var digits = Substring(literal)
        let negative = digits.first == "-"
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        let trimmed = digits.drop { $0 == "0" }
        self.magnitude = trimmed.isEmpty ? "0" : String(trimmed)
        self.negative = negative && !trimmed.isEmpty
    }

    /// The exact value of an integral, finite `value`; nil otherwise.
    public init?(_ value: Double) {
        guard value.isFinite, value == value.rounded() else { return nil }
        let text = abs(value) < 9.2e18 ? String(Int64(value)) : String(format: "%.0f", value)
        self.init(literal: text)
    }

    /// The decimal text, e.g. `-9007199254740993`.
    public var description: String { (negative ? "-" : "") + magnitude }

    /// The nearest `Double`.
    public var doubleValue: Double { Double(description) ?? (negative ? -.infinity : .infinity) }

    /// -1, 0 or 1 as `self` is below, equal to or above `other`.
    public func compare(to other: ExactInteger) -> Int {
        if negative != other.negative { return negative ? -1 : 1 }
        let magnitudeOrder: Int
        if magnitude.utf8.count != other.magnitude.utf8.count {
            magnitudeOrder = magnitude.utf8.count < other.magnitude.utf8.count ? -1 : 1
        } else {
            magnitudeOrder = magnitude == other.magnitude ? 0 : (magnitude < other.magnitude ? -1 : 1)
        }
        return negative ? -magnitudeOrder : magnitudeOrder
    }

    /// -1, 0 or 1 as `self` is below, equal to or above the exact value of the finite `value`.
    public func compare(to value: Double) -> Int {
        if let integral = ExactInteger(value) { return compare(to: integral) }
        // Between two integers: `self` is below `value` exactly when it is at most its floor.
        guard let floor = ExactInteger(value.rounded(.down)) else { return value > 0 ? -1 : 1 }
        return compare(to: floor) <= 0 ? -1 : 1
    }
}
