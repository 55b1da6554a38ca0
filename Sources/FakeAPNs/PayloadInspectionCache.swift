import LoopbackHTTP

/// Remembers the inspection of recent payloads, so a fan-out (one notification sent to many
/// device tokens, byte for byte the same payload) is parsed and checked once.
///
/// Keyed by the payload's hash and confirmed by comparing the bytes, so a collision can never
/// return another payload's verdict. Bounded: when full it starts over.
final class PayloadInspectionCache: Sendable {
    private struct Entry {
        var payload: [UInt8]
        var inspection: PayloadInspection
    }

    private let entries = Locked<[Int: Entry]>([:])
    private let capacity: Int

    init(capacity: Int = 256) {
        self.capacity = max(1, capacity)
    }

    /// The cached inspection of `payload`, or `inspect(payload)` (then cached).
    func inspection(of payload: [UInt8], _ inspect: PayloadInspector) -> PayloadInspection {
        var hasher = Hasher()
        payload.withUnsafeBytes { hasher.combine(bytes: $0) }
        let key = hasher.finalize()
        if let hit = entries.withLock({ $0[key] }), hit.payload == payload { return hit.inspection }
        let inspection = inspect(payload)
        entries.withLock { table in
            if table.count >= capacity { table.removeAll(keepingCapacity: true) }
            table[key] = Entry(payload: payload, inspection: inspection)
        }
        return inspection
    }
}
