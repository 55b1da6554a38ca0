/// The HPACK dynamic table (RFC 7541 §2.3.2, §4): newest entry first, evicted oldest first
/// so that its size (name + value octets + 32 per entry) never exceeds `maximumSize`.
struct HPACKDynamicTable: Sendable {
    struct Entry: Sendable, Equatable {
        var name: String
        var value: String
        var size: Int
        /// The name's length as sent, for re-inserting it under an indexed name.
        var nameOctets: Int
    }

    /// Oldest first; `entries[head...]` are live, so eviction does not shift the array each time.
    private var storage: [Entry] = []
    private var head = 0
    private(set) var size = 0
    private(set) var maximumSize: Int

    init(maximumSize: Int = 4096) { self.maximumSize = maximumSize }

    var count: Int { storage.count - head }

    /// The entry at dynamic index `index` (1 = newest), or nil.
    func entry(at index: Int) -> Entry? {
        guard index >= 1, index <= count else { return nil }
        return storage[storage.count - index]
    }

    /// The dynamic index (1 = newest) of an exact match, and of a name match.
    func find(name: String, value: String) -> (exact: Int?, name: Int?) {
        var nameOnly: Int?
        var index = 1
        var position = storage.count - 1
        while position >= head {
            let entry = storage[position]
            if entry.name == name {
                if entry.value == value { return (index, index) }
                if nameOnly == nil { nameOnly = index }
            }
            index += 1
            position -= 1
        }
        return (nil, nameOnly)
    }

    /// Inserts a field, evicting as needed; an entry larger than the table empties it (§4.4).
    /// The octet counts are the name's and value's length as sent, when known (a lossy UTF-8 decoding
    /// of a value must not change the size both peers account).
    mutating func insert(name: String, value: String, nameOctets: Int? = nil, valueOctets: Int? = nil) {
        let nameLength = nameOctets ?? name.utf8.count
        let entrySize = nameLength + (valueOctets ?? value.utf8.count) + 32
        if entrySize > maximumSize {
            removeAll()
            return
        }
        // Bounded by the entries held, so no size arithmetic can make an insertion loop.
        while size + entrySize > maximumSize, head < storage.count { evictOldest() }
        storage.append(Entry(name: name, value: value, size: entrySize, nameOctets: nameLength))
        size += entrySize
    }

    /// Changes the maximum size, evicting entries that no longer fit.
    mutating func setMaximumSize(_ newSize: Int) {
        maximumSize = newSize
        while size > maximumSize { evictOldest() }
    }

    private mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
        head = 0
        size = 0
    }

    private mutating func evictOldest() {
        guard head < storage.count else { return }
        size -= storage[head].size
        head += 1
        if head == storage.count {
            removeAll()
        } else if head >= 32 && head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
    }
}
