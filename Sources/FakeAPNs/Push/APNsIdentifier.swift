/// Random (version 4) UUID strings for `apns-id` and `apns-unique-id`.
///
/// Built from a generator FakeAPNs seeds once from the system's (no system call per id),
/// because this runs up to twice per request; the ids need to be unique, not secret.
enum APNsIdentifier {
    /// An uppercase UUID, as APNs generates `apns-id`.
    static func make(uppercase: Bool = true, using generator: inout some RandomNumberGenerator) -> String {
        var high = generator.next() as UInt64
        var low = generator.next() as UInt64
        high = (high & ~0xF000) | 0x4000                       // version 4
        low = (low & ~(0xC << 60)) | (0x8 << 60)               // variant 10xx
        return String(unsafeUninitializedCapacity: 36) { out in
            var position = 0
            for index in 0..<2 {
                let word = index == 0 ? high : low
                for nibble in 0..<16 {
                    let digits = index * 16 + nibble
                    if digits == 8 || digits == 12 || digits == 16 || digits == 20 {
                        out[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    let value = UInt8(truncatingIfNeeded: (word >> UInt64(60 - nibble * 4)) & 0xF)
                    // 0-9, then A-F (a-f in lowercase): no table, no intermediate array.
                    out[position] = value < 10 ? 48 + value : (uppercase ? 55 : 87) + value
                    position += 1
                }
            }
            return position
        }
    }

    /// An id from the system's generator (for callers without a seeded one).
    static func make(uppercase: Bool = true) -> String {
        var generator = SystemRandomNumberGenerator()
        return make(uppercase: uppercase, using: &generator)
    }
}
