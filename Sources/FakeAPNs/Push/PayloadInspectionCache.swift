import Foundation
import PushCore

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
        let key = Self.key(of: payload)
        if let hit = entries.withLock({ $0[key] }), Self.sameBytes(hit.payload, payload) { return hit.inspection }
        let inspection = inspect(payload)
        entries.withLock { table in
            if table.count >= capacity { table.removeAll(keepingCapacity: true) }
            table[key] = Entry(payload: payload, inspection: inspection)
        }
        return inspection
    }

    /// `a == b`, by memcmp: `==` on two byte arrays compared a hit's payload element by
    /// element (~2,100 instructions for 300 bytes, on every push the cache answers).
    static func sameBytes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in
                guard let xs = x.baseAddress, let ys = y.baseAddress else { return true }  // both empty
                return memcmp(xs, ys, x.count) == 0
            }
        }
    }

    /// A fast 64-bit hash of the bytes, eight at a time (FNV-1a's prime over words, then a
    /// final mix). Every push is hashed, and `Hasher` (SipHash) cost ~2,700 instructions for
    /// 300 bytes; a collision only costs a byte comparison and a second inspection, and a
    /// slot holds one payload, so crafted collisions cannot grow anything.
    static func key(of payload: [UInt8]) -> Int {
        payload.withUnsafeBytes { bytes -> Int in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count)
            var offset = 0
            while offset + 8 <= bytes.count {
                hash = (hash ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x100_0000_01b3
                hash ^= hash >> 29
                offset += 8
            }
            while offset < bytes.count {
                hash = (hash ^ UInt64(bytes[offset])) &* 0x100_0000_01b3
                offset += 1
            }
            hash ^= hash >> 32
            hash = hash &* 0x9e37_79b9_7f4a_7c15
            hash ^= hash >> 29
            return Int(truncatingIfNeeded: hash)
        }
    }
}
