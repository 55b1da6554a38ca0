/// The loop's open connections by descriptor: an array indexed by the descriptor (the
/// kernel hands out the lowest free number, so they are small and dense), so finding an
/// event's connection is an index, not a hash of the descriptor (three per request).
struct ConnectionTable {
    private var slots: [ServerConnection?] = []
    /// Open connections.
    private(set) var count = 0

    subscript(fd: Int32) -> ServerConnection? {
        get {
            let index = Int(fd)
            return index >= 0 && index < slots.count ? slots[index] : nil
        }
        set {
            let index = Int(fd)
            guard index >= 0 else { return }
            if index >= slots.count {
                guard newValue != nil else { return }
                slots.append(contentsOf: repeatElement(nil, count: max(index + 1, slots.count * 2) - slots.count))
            }
            if slots[index] == nil && newValue != nil { count += 1 }
            if slots[index] != nil && newValue == nil { count -= 1 }
            slots[index] = newValue
        }
    }

    /// Every open connection, by descriptor.
    var values: [ServerConnection] { slots.compactMap { $0 } }
}
