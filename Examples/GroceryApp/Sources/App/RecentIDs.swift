/// The last `capacity` notification ids seen, to drop repeats without growing forever
/// (APNs repeats within minutes, not months).
struct RecentIDs: Sendable {
    private var members: Set<NotificationID> = []
    private var order: [NotificationID] = []
    private var oldest = 0
    let capacity: Int

    init(capacity: Int = 1_000) {
        self.capacity = max(1, capacity)
    }

    /// Adds `id`; false when it was already there.
    mutating func insert(_ id: NotificationID) -> Bool {
        guard members.insert(id).inserted else { return false }
        if order.count < capacity {
            order.append(id)
        } else {
            members.remove(order[oldest])
            order[oldest] = id
            oldest = (oldest + 1) % capacity
        }
        return true
    }

    mutating func remove(_ id: NotificationID) {
        // Left in `order`: evicting an id that is no longer a member is harmless.
        members.remove(id)
    }
}
