/// Marks a property that records how a value was written in a file (a key's spelling, whether an empty
/// member was present) rather than what it is: two values that differ only in it compare equal.
@propertyWrapper
public struct WrittenForm<Value: Sendable>: Hashable, Sendable {
    /// The recorded form.
    public var wrappedValue: Value

    /// Wraps `wrappedValue`.
    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }

    /// Always true: the form of a value is not part of its identity.
    public static func == (lhs: Self, rhs: Self) -> Bool { true }

    /// Hashes nothing, consistently with `==`.
    public func hash(into hasher: inout Hasher) {}
}
