/// Random (version 4) UUID strings for `apns-id` and `apns-unique-id`.
///
/// Built from `SystemRandomNumberGenerator` (one `getrandom` call, no file opened), because
/// this runs up to twice per request.
enum APNsIdentifier {
    private static let hex: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// An uppercase UUID, as APNs generates `apns-id`.
    static func make(uppercase: Bool = true) -> String {
        var generator = SystemRandomNumberGenerator()
        var high = generator.next() as UInt64
        var low = generator.next() as UInt64
        high = (high & ~0xF000) | 0x4000                       // version 4
        low = (low & ~(0xC << 60)) | (0x8 << 60)               // variant 10xx
        var out = [UInt8]()
        out.reserveCapacity(36)
        for (index, word) in [high, low].enumerated() {
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
}
