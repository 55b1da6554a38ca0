import PushCrypto
/// One direction's record protection (RFC 8446 §5.2–5.3): AES-128-GCM under a traffic
/// secret's key, the per-record nonce (IV xor sequence number) and the record header as AAD.
struct TLSRecordCipher {
    private let aead: AES128GCM
    private let iv: [UInt8]
    private var sequence: UInt64 = 0
    /// The traffic secret, kept for KeyUpdate.
    let trafficSecret: [UInt8]
    /// Reused for the nonce and additional data of each record.
    private var nonce: [UInt8]
    private var additionalData: [UInt8] = [TLSContentType.applicationData.rawValue, 0x03, 0x03, 0, 0]

    /// - Parameter handshake: true for a handshake traffic secret, whose cipher protects a few
    ///   records only (`AES128GCM`'s `fewRecords`: no GHASH power tables to build).
    init?(trafficSecret: [UInt8], handshake: Bool = false) {
        let key = TLSKeySchedule.expandLabel(trafficSecret, "key", context: [], length: TLSKeySchedule.keyLength)
        guard let aead = AES128GCM(key: key, fewRecords: handshake) else { return nil }
        self.aead = aead
        iv = TLSKeySchedule.expandLabel(trafficSecret, "iv", context: [], length: TLSKeySchedule.ivLength)
        nonce = iv
        self.trafficSecret = trafficSecret
    }

    /// The cipher for the next generation of this secret (KeyUpdate).
    func updated() -> TLSRecordCipher? {
        TLSRecordCipher(trafficSecret: TLSKeySchedule.nextTrafficSecret(trafficSecret))
    }

    private mutating func advanceNonce() {
        for index in 0..<12 { nonce[index] = iv[index] }
        for byteIndex in 0..<8 {
            nonce[4 + byteIndex] ^= UInt8(truncatingIfNeeded: sequence >> UInt64(8 * (7 - byteIndex)))
        }
        sequence &+= 1
    }

    private mutating func setLength(_ length: Int) {
        additionalData[3] = UInt8(truncatingIfNeeded: length >> 8)
        additionalData[4] = UInt8(truncatingIfNeeded: length)
    }

    /// Appends `content` as protected records of `type` to `output`, at most 2^14 bytes of
    /// content per record, each sealed where it lies in `output` (no other buffer).
    mutating func seal(_ content: ArraySlice<UInt8>, type: TLSContentType, into output: inout [UInt8]) {
        let records = max(1, (content.count + TLSProtocol.maxPlaintext - 1) / TLSProtocol.maxPlaintext)
        output.reserveCapacity(output.count + content.count + records * (5 + 1 + AES128GCM.tagByteCount))
        var start = content.startIndex
        repeat {
            let end = min(content.endIndex, start + TLSProtocol.maxPlaintext)
            setLength(end - start + 1 + AES128GCM.tagByteCount)
            advanceNonce()
            output.append(contentsOf: additionalData)
            let sealedFrom = output.count
            output.append(contentsOf: content[start..<end])
            output.append(type.rawValue)
            aead.seal(inPlace: &output, from: sealedFrom, nonce: nonce, additionalData: additionalData)
            start = end
        } while start < content.endIndex
    }

    /// Decrypts one protected record body (`header` is its 5-byte header, the AAD), appends
    /// its content (padding and the inner type removed) to `plaintext` and returns the inner
    /// content type. On an error nothing is appended.
    mutating func open(_ body: ArraySlice<UInt8>, header: ArraySlice<UInt8>, appendingTo plaintext: inout [UInt8]) throws(TLSAlert) -> TLSContentType {
        for (offset, byte) in header.enumerated() { additionalData[offset] = byte }
        advanceNonce()
        let start = plaintext.count
        plaintext.append(contentsOf: body)
        guard aead.open(inPlace: &plaintext, from: start, nonce: nonce, additionalData: additionalData) else {
            throw TLSAlert(.badRecordMAC, "a record failed authentication")
        }
        guard plaintext.count - start <= TLSProtocol.maxPlaintext + 1 else {
            plaintext.removeSubrange(start...)
            throw TLSAlert(.recordOverflow, "a record's plaintext exceeds 2^14 bytes")
        }
        while plaintext.count > start, plaintext[plaintext.count - 1] == 0 { plaintext.removeLast() }
        guard plaintext.count > start, let typeByte = plaintext.popLast() else {
            throw TLSAlert(.unexpectedMessage, "a record holds only padding")
        }
        guard let type = TLSContentType(rawValue: typeByte), type != .changeCipherSpec else {
            plaintext.removeSubrange(start...)
            throw TLSAlert(.unexpectedMessage, "protected record of content type \(typeByte)")
        }
        return type
    }
}
