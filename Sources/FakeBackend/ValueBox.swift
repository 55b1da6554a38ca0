/// Values kept behind one reference. ``RegisteredDevice`` and ``BackendJournalEntry`` keep
/// their stored values in one, so a copy of either (into the journal, out to `onRequest`,
/// into every snapshot) is one retain rather than one per String it holds; a setter puts
/// the changed values in a new box.
final class ValueBox<Value: Sendable>: Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
