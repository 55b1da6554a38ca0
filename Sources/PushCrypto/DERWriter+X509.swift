// The DER pieces an X.509 v3 certificate (RFC 5280) is built from: strings, times, BIT and
// OCTET STRINGs, BOOLEAN, SET, context-specific tags, and the OIDs the test CA uses.
import Foundation

extension DERWriter {
    /// An OBJECT IDENTIFIER from its contents bytes (see `DEROID`).
    package static func objectIdentifier(_ contents: [UInt8]) -> [UInt8] {
        element(DERTag.objectIdentifier, contents)
    }

    /// A UTF8String.
    package static func utf8String(_ text: String) -> [UInt8] {
        element(0x0c, Array(text.utf8))
    }

    /// An IA5String (ASCII), the type of a dNSName.
    package static func ia5String(_ text: String) -> [UInt8] {
        element(0x16, Array(text.utf8))
    }

    /// A PrintableString (the caller keeps to A–Z a–z 0–9 space '()+,-./:=?).
    package static func printableString(_ text: String) -> [UInt8] {
        element(0x13, Array(text.utf8))
    }

    /// A BOOLEAN.
    package static func boolean(_ value: Bool) -> [UInt8] {
        element(0x01, [value ? 0xff : 0x00])
    }

    /// A BIT STRING holding whole bytes (no unused bits).
    package static func bitString(_ bytes: [UInt8]) -> [UInt8] {
        element(DERTag.bitString, [0x00] + bytes)
    }

    /// A BIT STRING of named bits (bit 0 is the top bit of the first byte), trailing zero bits
    /// dropped as DER requires for named-bit lists (X.690 §11.2.2), e.g. keyUsage.
    package static func namedBits(_ bits: [Int]) -> [UInt8] {
        guard let highest = bits.max(), highest >= 0 else { return element(DERTag.bitString, [0x00]) }
        var bytes = [UInt8](repeating: 0, count: highest / 8 + 1)
        for bit in bits where bit >= 0 {
            bytes[bit / 8] |= 0x80 >> UInt8(bit % 8)
        }
        return element(DERTag.bitString, [UInt8(7 - highest % 8)] + bytes)
    }

    /// An OCTET STRING.
    package static func octetString(_ bytes: [UInt8]) -> [UInt8] {
        element(DERTag.octetString, bytes)
    }

    /// A SET of already-encoded elements, in DER's order (sorted by their encodings).
    package static func set(_ parts: [[UInt8]]) -> [UInt8] {
        element(0x31, parts.sorted { $0.lexicographicallyPrecedes($1) }.flatMap { $0 })
    }

    /// A context-specific tag `[number]` (0…30): constructed for EXPLICIT tagging or an
    /// IMPLICIT constructed type, primitive for an IMPLICIT primitive type.
    package static func contextSpecific(_ number: UInt8, constructed: Bool, _ contents: [UInt8]) -> [UInt8] {
        element(0x80 | (constructed ? 0x20 : 0) | (number & 0x1f), contents)
    }

    /// An X.509 Time: UTCTime (YYMMDDHHMMSSZ) for 1950–2049, GeneralizedTime
    /// (YYYYMMDDHHMMSSZ) otherwise, as RFC 5280 §4.1.2.5 requires; whole seconds, UTC.
    package static func time(_ date: Date) -> [UInt8] {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civilDate(daysSince1970: days)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let clock = two(month) + two(day) + two(secondOfDay / 3600) + two(secondOfDay / 60 % 60) + two(secondOfDay % 60) + "Z"
        if (1950...2049).contains(year) {
            return element(0x17, Array((two(year % 100) + clock).utf8))
        }
        let paddedYear = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return element(0x18, Array((paddedYear + clock).utf8))
    }

    /// The proleptic Gregorian (year, month, day) of a day count from 1970-01-01, by
    /// counting 400-year eras of 146,097 days from 0000-03-01 (so leap days come last).
    private static func civilDate(daysSince1970: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = daysSince1970 + 719_468  // days from 0000-03-01
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153  // 0 = March
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension DEROID {
    /// ecdsa-with-SHA256, 1.2.840.10045.4.3.2.
    package static let ecdsaWithSHA256: [UInt8] = [0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02]
    /// id-at-commonName, 2.5.4.3.
    package static let commonName: [UInt8] = [0x55, 0x04, 0x03]
    /// id-at-organizationName, 2.5.4.10.
    package static let organizationName: [UInt8] = [0x55, 0x04, 0x0a]
    /// id-ce-subjectKeyIdentifier, 2.5.29.14.
    package static let subjectKeyIdentifier: [UInt8] = [0x55, 0x1d, 0x0e]
    /// id-ce-keyUsage, 2.5.29.15.
    package static let keyUsage: [UInt8] = [0x55, 0x1d, 0x0f]
    /// id-ce-subjectAltName, 2.5.29.17.
    package static let subjectAltName: [UInt8] = [0x55, 0x1d, 0x11]
    /// id-ce-basicConstraints, 2.5.29.19.
    package static let basicConstraints: [UInt8] = [0x55, 0x1d, 0x13]
    /// id-ce-authorityKeyIdentifier, 2.5.29.35.
    package static let authorityKeyIdentifier: [UInt8] = [0x55, 0x1d, 0x23]
    /// id-ce-extKeyUsage, 2.5.29.37.
    package static let extendedKeyUsage: [UInt8] = [0x55, 0x1d, 0x25]
    /// id-kp-serverAuth, 1.3.6.1.5.5.7.3.1.
    package static let serverAuthentication: [UInt8] = [0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x01]
    /// id-kp-clientAuth, 1.3.6.1.5.5.7.3.2.
    package static let clientAuthentication: [UInt8] = [0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x02]
}
