// Hex for test vectors, shared by every test target (the crypto suites, HPACK, the contracts').

/// Hex digits to bytes and back, for the RFC and NIST vectors the tests quote.
package enum CryptoHex {
    /// Bytes from a hex string (whitespace ignored); see ``hexBytes(_:)``.
    package static func bytes(_ text: String) -> [UInt8] { hexBytes(text) }

    /// Lower-case hex, two digits a byte.
    package static func string(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}

/// Parses the RFCs' hex dumps ("8286 8441 ...") into bytes; anything but hex digits is
/// skipped, so spaces and line breaks in a quoted vector do not matter. A test fixture with an
/// odd digit count is a test bug: the last digit is dropped and the expectations flag it.
package func hexBytes(_ text: String) -> [UInt8] {
    let digits = Array(text.filter { $0.isHexDigit })
    var bytes: [UInt8] = []
    bytes.reserveCapacity(digits.count / 2)
    var index = 0
    while index + 1 < digits.count {
        bytes.append(UInt8(String(digits[index...index + 1]), radix: 16) ?? 0)
        index += 2
    }
    return bytes
}
