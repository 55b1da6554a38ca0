import PushCrypto
/// The TLS 1.3 key schedule for TLS_AES_128_GCM_SHA256 without PSK (RFC 8446 §7.1): from the
/// (EC)DHE shared secret and transcript hashes to traffic secrets, keys, IVs and Finished MACs.
///
/// Pure functions over SHA-256, so RFC 8448's trace checks each step byte for byte.
enum TLSKeySchedule {
    static let hashLength = 32
    static let keyLength = 16
    static let ivLength = 12

    /// HKDF-Expand-Label(secret, label, context, length) with the "tls13 " prefix.
    static func expandLabel(_ secret: [UInt8], _ label: String, context: [UInt8], length: Int) -> [UInt8] {
        HKDF.expand(pseudoRandomKey: secret, info: hkdfLabel(label, context: context, length: length), length: length)
    }

    /// The HkdfLabel structure: uint16 length, opaque label<7..255>, opaque context<0..255>.
    static func hkdfLabel(_ label: String, context: [UInt8], length: Int) -> [UInt8] {
        let fullLabel = Array("tls13 \(label)".utf8)
        var info: [UInt8] = [UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)]
        info.append(UInt8(truncatingIfNeeded: fullLabel.count))
        info.append(contentsOf: fullLabel)
        info.append(UInt8(truncatingIfNeeded: context.count))
        info.append(contentsOf: context)
        return info
    }

    /// Derive-Secret(secret, label, messages) given Transcript-Hash(messages).
    static func deriveSecret(_ secret: [UInt8], _ label: String, transcriptHash: [UInt8]) -> [UInt8] {
        expandLabel(secret, label, context: transcriptHash, length: hashLength)
    }

    /// SHA-256 of the empty string, the transcript of the "derived" steps.
    static let emptyHash: [UInt8] = SHA256.hash([UInt8]())

    /// Early_Secret = HKDF-Extract(0, 0) — no PSK.
    static var earlySecret: [UInt8] {
        HKDF.extract(salt: [UInt8](repeating: 0, count: hashLength), inputKeyingMaterial: [UInt8](repeating: 0, count: hashLength))
    }

    /// Handshake_Secret from the (EC)DHE shared secret.
    static func handshakeSecret(sharedSecret: [UInt8]) -> [UInt8] {
        let derived = deriveSecret(earlySecret, "derived", transcriptHash: emptyHash)
        return HKDF.extract(salt: derived, inputKeyingMaterial: sharedSecret)
    }

    /// Master_Secret from the Handshake_Secret.
    static func masterSecret(handshakeSecret: [UInt8]) -> [UInt8] {
        let derived = deriveSecret(handshakeSecret, "derived", transcriptHash: emptyHash)
        return HKDF.extract(salt: derived, inputKeyingMaterial: [UInt8](repeating: 0, count: hashLength))
    }

    /// finished_key and the Finished verify_data over `transcriptHash` (RFC 8446 §4.4.4).
    static func finishedVerifyData(trafficSecret: [UInt8], transcriptHash: [UInt8]) -> [UInt8] {
        let finishedKey = expandLabel(trafficSecret, "finished", context: [], length: hashLength)
        return HMACSHA256.authenticationCode(for: transcriptHash, key: finishedKey)
    }

    /// The next generation of an application traffic secret (KeyUpdate, RFC 8446 §7.2).
    static func nextTrafficSecret(_ secret: [UInt8]) -> [UInt8] {
        expandLabel(secret, "traffic upd", context: [], length: hashLength)
    }

    /// The secrets of one handshake, derived in the order the handshake learns its inputs.
    struct Secrets {
        var clientHandshake: [UInt8]
        var serverHandshake: [UInt8]
        var handshakeSecret: [UInt8]

        init(sharedSecret: [UInt8], helloHash: [UInt8]) {
            handshakeSecret = TLSKeySchedule.handshakeSecret(sharedSecret: sharedSecret)
            clientHandshake = TLSKeySchedule.deriveSecret(handshakeSecret, "c hs traffic", transcriptHash: helloHash)
            serverHandshake = TLSKeySchedule.deriveSecret(handshakeSecret, "s hs traffic", transcriptHash: helloHash)
        }

        /// client and server application_traffic_secret_0 from the hash through the server Finished.
        func applicationSecrets(serverFinishedHash: [UInt8]) -> (client: [UInt8], server: [UInt8]) {
            let master = TLSKeySchedule.masterSecret(handshakeSecret: handshakeSecret)
            return (TLSKeySchedule.deriveSecret(master, "c ap traffic", transcriptHash: serverFinishedHash),
                    TLSKeySchedule.deriveSecret(master, "s ap traffic", transcriptHash: serverFinishedHash))
        }
    }
}
