// Hex helpers shared by the Crypto*Tests suites.

enum CryptoHex {
    /// Bytes from a hex string (spaces ignored); test fixtures only, so a bad digit is a
    /// test bug and yields an empty array the expectations will flag.
    static func bytes(_ text: String) -> [UInt8] {
        let digits = Array(text.filter { !$0.isWhitespace })
        guard digits.count.isMultiple(of: 2) else { return [] }
        var bytes: [UInt8] = []
        var index = 0
        while index < digits.count {
            guard let byte = UInt8(String(digits[index...index + 1]), radix: 16) else { return [] }
            bytes.append(byte)
            index += 2
        }
        return bytes
    }

    static func string(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}

