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
        let letters: UInt8 = uppercase ? 55 : 87  // 10 + 55 = "A", 10 + 87 = "a"
        return String(unsafeUninitializedCapacity: 36) { out in
            // `count` hex digits of `word` from its nibble `first` (0: the top one) at `position`:
            // the groups are written one after another, no per-digit test for a dash.
            func digits(_ word: UInt64, from first: Int, count: Int, at position: Int) {
                for i in 0..<count {
                    let value = UInt8(truncatingIfNeeded: (word >> UInt64(60 &- (first &+ i) &* 4)) & 0xF)
                    out[position &+ i] = value < 10 ? 48 &+ value : letters &+ value  // 0-9, then A-F / a-f
                }
            }
            digits(high, from: 0, count: 8, at: 0)       // 8-4-4-4-12
            out[8] = UInt8(ascii: "-")
            digits(high, from: 8, count: 4, at: 9)
            out[13] = UInt8(ascii: "-")
            digits(high, from: 12, count: 4, at: 14)
            out[18] = UInt8(ascii: "-")
            digits(low, from: 0, count: 4, at: 19)
            out[23] = UInt8(ascii: "-")
            digits(low, from: 4, count: 12, at: 24)
            return 36
        }
    }

    /// An id from the system's generator (for callers without a seeded one).
    static func make(uppercase: Bool = true) -> String {
        var generator = SystemRandomNumberGenerator()
        return make(uppercase: uppercase, using: &generator)
    }
}
