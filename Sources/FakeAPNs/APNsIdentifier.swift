/// Random (version 4) UUID strings for `apns-id` and `apns-unique-id`.
///
/// Built from a generator FakeAPNs seeds once from the system's (no system call per id),
/// because this runs up to twice per request; the ids need to be unique, not secret.
enum APNsIdentifier {
    private static let hex: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// An uppercase UUID, as APNs generates `apns-id`.
    static func make(uppercase: Bool = true, using generator: inout some RandomNumberGenerator) -> String {
        var high = generator.next() as UInt64
        var low = generator.next() as UInt64
        high = (high & ~0xF000) | 0x4000                       // version 4
        low = (low & ~(0xC << 60)) | (0x8 << 60)               // variant 10xx
        var out = [UInt8]()
        out.reserveCapacity(36)
        for index in 0..<2 {
            let word = index == 0 ? high : low
            for nibble in 0..<16 {
                let position = index * 16 + nibble
                if position == 8 || position == 12 || position == 16 || position == 20 { out.append(UInt8(ascii: "-")) }
                var digit = hex[Int((word >> UInt64(60 - nibble * 4)) & 0xF)]
                if !uppercase && digit >= 65 { digit += 32 }
                out.append(digit)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// An id from the system's generator (for callers without a seeded one).
    static func make(uppercase: Bool = true) -> String {
        var generator = SystemRandomNumberGenerator()
        return make(uppercase: uppercase, using: &generator)
    }
}
