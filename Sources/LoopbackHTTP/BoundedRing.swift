/// A bounded journal: the newest `capacity` elements, oldest first, with a count of those
/// dropped to make room. Both fakes keep their request journals in one.
package struct BoundedRing<Element> {
    @usableFromInline var storage: [Element] = []
    /// Where the oldest element sits once the ring is full.
    @usableFromInline var head = 0
    /// The most elements kept (at least 1).
    package let capacity: Int
    /// How many elements were dropped since the ring was made or emptied.
    package internal(set) var dropped = 0

    /// An empty ring keeping at most `capacity` elements (at least 1).
    package init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Adds `element`, dropping the oldest one when the ring is full. Inlinable: each fake
    /// journals every request through it, and unspecialised it cost ~1,000 instructions.
    @inlinable
    package mutating func append(_ element: Element) {
        if storage.count < capacity {
            storage.append(element)
        } else {
            storage[head] = element
            head = (head + 1) % capacity
            dropped &+= 1
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
        dropped = 0
    }
}

extension BoundedRing: Sendable where Element: Sendable {}
