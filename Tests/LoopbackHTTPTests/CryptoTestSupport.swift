// Hex helpers for the Crypto*Tests and TLSCrypto*Tests suites.

enum CryptoHex {
    /// Bytes from a hex string (spaces ignored); see `hexBytes`.
    static func bytes(_ text: String) -> [UInt8] { hexBytes(text) }

    /// Lower-case hex, two digits a byte.
    static func string(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
