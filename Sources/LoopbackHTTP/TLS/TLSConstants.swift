/// Record content types (RFC 8446 §5.1).
enum TLSContentType: UInt8 {
    case changeCipherSpec = 20
    case alert = 21
    case handshake = 22
    case applicationData = 23
}

/// Handshake message types (RFC 8446 §4) this server reads or writes.
enum TLSHandshakeType: UInt8 {
    case clientHello = 1
    case serverHello = 2
    case newSessionTicket = 4
    case endOfEarlyData = 5
    case encryptedExtensions = 8
    case certificate = 11
    case certificateRequest = 13
    case certificateVerify = 15
    case finished = 20
    case keyUpdate = 24
    /// The synthetic message that replaces ClientHello1 in the transcript after a
    /// HelloRetryRequest (RFC 8446 §4.4.1).
    case messageHash = 254
}

/// Extension code points (RFC 8446 §4.2, RFC 6066, RFC 7301), in the order of their numbers.
enum TLSExtensionType {
    static let serverName: UInt16 = 0, supportedGroups: UInt16 = 10, signatureAlgorithms: UInt16 = 13
    static let applicationLayerProtocolNegotiation: UInt16 = 16, preSharedKey: UInt16 = 41, supportedVersions: UInt16 = 43
    static let pskKeyExchangeModes: UInt16 = 45, certificateAuthorities: UInt16 = 47, keyShare: UInt16 = 51
}

/// The key-exchange groups this server implements, in its order of preference.
package enum TLSNamedGroup: UInt16, Sendable, CaseIterable {
    case x25519 = 0x001d
    case secp256r1 = 0x0017
}

/// Protocol constants and limits.
enum TLSProtocol {
    static let version13: UInt16 = 0x0304
    static let legacyVersion: UInt16 = 0x0303
    static let aes128GCMSHA256: UInt16 = 0x1301
    static let ecdsaSecp256r1SHA256: UInt16 = 0x0403
    static let rsaPSSRSAESHA256: UInt16 = 0x0804
    /// Largest plaintext fragment (RFC 8446 §5.1).
    static let maxPlaintext = 1 << 14
    /// Largest protected record body (RFC 8446 §5.2).
    static let maxCiphertext = (1 << 14) + 256
    /// Largest handshake message this server accepts; a ClientHello is far smaller.
    static let maxHandshakeMessage = 64 * 1024
    /// The ServerHello.random of a HelloRetryRequest: SHA-256 of "HelloRetryRequest"
    /// (RFC 8446 §4.1.3).
    static let helloRetryRequestRandom: [UInt8] = [
        0xcf, 0x21, 0xad, 0x74, 0xe5, 0x9a, 0x61, 0x11, 0xbe, 0x1d, 0x8c, 0x02, 0x1e, 0x65, 0xb8, 0x91,
        0xc2, 0xa2, 0x11, 0x16, 0x7a, 0xbb, 0x8c, 0x5e, 0x07, 0x9e, 0x09, 0xe2, 0xc8, 0xa8, 0x33, 0x9c,
    ]
}
