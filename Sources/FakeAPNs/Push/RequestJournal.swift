import FakeSupport

/// FakeAPNs' journal: every request answered, in a bounded ring, numbered by a sequence that
/// keeps counting across ``FakeAPNs/reset()``. Part of ``FakeAPNsState``, behind the fake's
/// one lock.
struct RequestJournal {
    private(set) var entries: BoundedRing<APNsJournalEntry>
    private(set) var sequence = 0

    init(capacity: Int) {
        entries = BoundedRing(capacity: capacity)
    }

    /// The next request's sequence number.
    mutating func nextSequence() -> Int {
        sequence += 1
        return sequence
    }

    mutating func append(_ entry: APNsJournalEntry) { entries.append(entry) }

    /// Forgets the entries; the sequence keeps counting (a `?since=` cursor stays valid).
    mutating func removeAll() { entries.removeAll() }
}
