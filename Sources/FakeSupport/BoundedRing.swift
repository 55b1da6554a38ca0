/// A bounded journal: the newest `capacity` elements, oldest first, with a count of those
/// dropped to make room. Both fakes keep their request journals in one.
///
/// The type is `public` (its API is `package`) only so that ``append(_:)`` is specialised in
/// the fakes: the compiler does not serialise an `@inlinable` body for a `package` type, and
/// unspecialised, `append` cost a fake ~1,000 instructions per request in metadata lookups
/// and value-witness calls.
public struct BoundedRing<Element> {
    @usableFromInline var storage: [Element] = []
    /// Where the oldest element sits once the ring is full.
    @usableFromInline var head = 0
    /// The most elements kept (at least 1).
    @usableFromInline let kept: Int
    @usableFromInline var droppedCount = 0

    /// An empty ring keeping at most `capacity` elements (at least 1).
    package init(capacity: Int) {
        self.kept = max(1, capacity)
    }

    /// The most elements kept (at least 1).
    package var capacity: Int { kept }

    /// How many elements were dropped since the ring was made or emptied.
    package var dropped: Int { droppedCount }

    /// Adds `element`, dropping the oldest one when the ring is full. Inlinable: each fake
    /// journals every request through it; `consuming`, so a caller's last use of an entry
    /// moves it into the ring instead of copying it (a FakeAPNs journal entry: ~1,400
    /// instructions per request to copy and later destroy the copy).
    @inlinable
    package mutating func append(_ element: consuming Element) {
        if storage.count < kept {
            storage.append(element)
        } else {
            storage[head] = element
            head = head + 1 == kept ? 0 : head + 1
            droppedCount &+= 1
        }
    }

    /// The kept elements, oldest first.
    package var elements: [Element] {
        if head == 0 { return storage }
        return Array(storage[head...] + storage[..<head])
    }

    /// How many elements are kept.
    package var count: Int { storage.count }

    /// Empties the ring and resets the dropped count.
    package mutating func removeAll() {
        storage.removeAll()
        head = 0
        droppedCount = 0
    }
}

extension BoundedRing: Sendable where Element: Sendable {}
