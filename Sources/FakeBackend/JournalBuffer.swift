/// A bounded journal: a ring buffer that drops the oldest entry when full and counts drops.
struct JournalBuffer: Sendable {
    private var storage: [BackendJournalEntry] = []
    private var head = 0
    private(set) var capacity: Int
    private(set) var dropped = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    mutating func append(_ entry: BackendJournalEntry) {
        if storage.count < capacity {
            storage.append(entry)
        } else {
            storage[head] = entry
            head = (head + 1) % capacity
            dropped &+= 1
        }
    }

    /// Oldest first.
    var entries: [BackendJournalEntry] {
        if head == 0 { return storage }
        return Array(storage[head...] + storage[..<head])
    }

    var count: Int { storage.count }

    mutating func removeAll() {
        storage.removeAll()
        head = 0
        dropped = 0
    }
}
