// base64url without padding (RFC 4648 §5, as JWS uses it, RFC 7515 §2).

/// base64url encoding and strict decoding, no padding.
package enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Encodes `bytes` without `=` padding.
    package static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let remaining = bytes.count - index
            let b0 = UInt32(bytes[index])
            let b1 = remaining > 1 ? UInt32(bytes[index + 1]) : 0
            let b2 = remaining > 2 ? UInt32(bytes[index + 2]) : 0
            let group = b0 << 16 | b1 << 8 | b2
            out.append(alphabet[Int(group >> 18 & 0x3f)])
            out.append(alphabet[Int(group >> 12 & 0x3f)])
            if remaining > 1 { out.append(alphabet[Int(group >> 6 & 0x3f)]) }
            if remaining > 2 { out.append(alphabet[Int(group & 0x3f)]) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes unpadded base64url; `nil` for any character outside the alphabet (including
    /// `=`, `+`, `/` and whitespace), an impossible length, or non-zero leftover bits (so
    /// each byte string has exactly one accepted encoding and a token cannot be altered
    /// without changing its bytes).
    package static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for character in text.utf8 {
            guard let value = sextet(character) else { return nil }
            buffer = buffer << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
                buffer &= (1 << UInt32(bits)) - 1
            }
        }
        // 6 leftover bits means a length ≡ 1 (mod 4), which no byte string encodes to.
        guard bits < 6, buffer == 0 else { return nil }
        return out
    }

    private static func sextet(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
