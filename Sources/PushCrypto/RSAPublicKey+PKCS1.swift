// RSASSA-PKCS1-v1_5 verification with SHA-256 (RFC 8017 §8.2.2): how CAs sign certificates
// (sha256WithRSAEncryption), e.g. Apple's intermediate over a team's push certificate. Not a
// TLS 1.3 handshake signature (RFC 8446 allows PKCS#1 v1.5 only inside certificates).
import Foundation

extension RSAPublicKey {
    /// DigestInfo for SHA-256 (RFC 8017 §9.2 note 1), which precedes the 32-byte digest.
    static let sha256DigestInfoPrefix: [UInt8] = [
        0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20,
    ]

    /// Whether `signature` is a PKCS#1 v1.5 signature of the SHA-256 `digest`: the whole
    /// encoding 00 01 FF…FF 00 DigestInfo is rebuilt and compared (never parsed).
    package func verifyPKCS1SHA256(signature: [UInt8], digest: [UInt8]) -> Bool {
        let length = modulusByteCount
        let trailer = Self.sha256DigestInfoPrefix + digest
        guard signature.count == length, digest.count == SHA256.digestByteCount, length >= trailer.count + 11,
              let s = RSAModulus.limbs(bigEndian: signature[...], count: modulus.limbs.count),
              RSAModulus.isLess(s, modulus.limbs) else { return false }
        let encoded = RSAModulus.bigEndianBytes(modulus.power(s, exponent: exponent), count: length)
        let expected = [0x00, 0x01] + [UInt8](repeating: 0xff, count: length - trailer.count - 3) + [0x00] + trailer
        return encoded == expected
    }
}

extension DERReader {
    /// Reads an X.509 Time: UTCTime YYMMDDHHMMSSZ (years 1950–2049) or GeneralizedTime
    /// YYYYMMDDHHMMSSZ, UTC, whole seconds (RFC 5280 §4.1.2.5).
    package mutating func readTime(_ what: String) throws(CryptoEncodingError) -> Date {
        let tag = peekTag
        guard tag == 0x17 || tag == 0x18, let tag else {
            throw CryptoEncodingError(.malformedDER, "\(what): expected UTCTime or GeneralizedTime")
        }
        let text = Array(try read(tag, what))
        let yearDigits = tag == 0x17 ? 2 : 4
        guard text.count == yearDigits + 11, text.last == UInt8(ascii: "Z"),
              text.dropLast().allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            throw CryptoEncodingError(.malformedDER, "\(what): not a UTC time in whole seconds ending in Z")
        }
        func number(_ start: Int, _ count: Int) -> Int {
            text[start..<(start + count)].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }
        var year = number(0, yearDigits)
        if yearDigits == 2 { year += year < 50 ? 2000 : 1900 }
        let (month, day) = (number(yearDigits, 2), number(yearDigits + 2, 2))
        let (hour, minute, second) = (number(yearDigits + 4, 2), number(yearDigits + 6, 2), number(yearDigits + 8, 2))
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60 else {
            throw CryptoEncodingError(.malformedDER, "\(what): a date or time out of range")
        }
        // Days from 1970-01-01 of a proleptic Gregorian date, counting from March so the
        // leap day falls last in the year.
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3600 + minute * 60 + second))
    }
}
