/// An error that is a kind and a message (after swift-nio's and async-http-client's
/// error structs): equal — and, where `Hashable`, hashed — on the kind alone, so a test
/// compares with a static member (`error == .timedOut`) while the message carries the
/// details; described by its message. The package's error structs share this one shape.
package protocol CodedError: Error, Equatable, CustomStringConvertible {
    /// The private list of kinds; new kinds do not break callers.
    associatedtype Code: Hashable
    /// The kind of problem; what `==` compares.
    var code: Code { get }
    /// What went wrong, where, and what to do next.
    var message: String { get }
}

extension CodedError {
    /// Equal when the kind is the same, whatever the details of the message.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    /// The message.
    public var description: String { message }
    /// Hashes the kind, as `==` compares it (the witness for the errors that are `Hashable`).
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
