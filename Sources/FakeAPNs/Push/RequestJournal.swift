import FakeSupport
import LoopbackHTTP

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

    mutating func append(_ entry: consuming APNsJournalEntry) { entries.append(entry) }

    /// Forgets the entries; the sequence keeps counting (a `?since=` cursor stays valid).
    mutating func removeAll() { entries.removeAll() }
}

extension FakeAPNs {
    /// What every request handler does around its answer: `answer` runs under the state lock
    /// and returns the response with the request's journal entry; the entry is journaled and
    /// the request waits it satisfies collected (with any `answer` collected itself), then,
    /// once the lock is released, those waits resume and `onRequest` sees the entry.
    @inline(__always)
    func journaling(_ answer: (_ state: inout FakeAPNsState, _ wakeups: inout Wakeups) -> (HTTPResponse, APNsJournalEntry))
        -> HTTPResponse {
        journaling(unless: { _ in false }, answer) ?? HTTPResponse(status: .internalServerError)
    }

    /// ``journaling(_:)``, unless `notYet`, asked first in the same critical section, says
    /// the request cannot be answered yet (a push whose provider token is to be verified
    /// outside the lock): then nothing is changed, journaled or answered, and nil is returned.
    @inline(__always)
    func journaling(unless notYet: (_ state: inout FakeAPNsState) -> Bool,
                    _ answer: (_ state: inout FakeAPNsState, _ wakeups: inout Wakeups) -> (HTTPResponse, APNsJournalEntry))
        -> HTTPResponse? {
        var wakeups = Wakeups()
        var journaled: APNsJournalEntry?
        let response = state.withLock { s -> HTTPResponse? in
            if notYet(&s) { return nil }
            let (response, entry) = answer(&s, &wakeups)
            collectRequestWakeups(for: entry, waits: &s.waits, into: &wakeups)
            if onRequest != nil { journaled = entry }
            s.journal.append(entry)  // its last use: the entry is moved into the journal, not copied
            return response
        }
        guard let response else { return nil }
        wakeups.resume()
        if let journaled { onRequest?(journaled) }
        return response
    }
}
