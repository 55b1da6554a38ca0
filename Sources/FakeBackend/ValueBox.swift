/// Values kept behind one reference. ``RegisteredDevice`` and ``BackendJournalEntry`` keep
/// their stored values in one, so a copy of either (into the journal, out to `onRequest`,
/// into every snapshot) is one retain rather than one per String it holds; a setter puts
/// the changed values in a new box.
@usableFromInline
final class ValueBox<Value: Sendable>: Sendable {
    @usableFromInline let value: Value

    @usableFromInline
    init(_ value: Value) {
        self.value = value
    }

    /// A box of these values with `member` set to `newValue`.
    @inlinable
    func setting<Member>(_ member: WritableKeyPath<Value, Member>, to newValue: Member) -> ValueBox {
        var value = self.value
        value[keyPath: member] = newValue
        return ValueBox(value)
    }
}
