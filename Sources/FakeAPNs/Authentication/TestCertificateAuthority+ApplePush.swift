// Client certificates shaped like Apple's push certificates ("Apple Push Services"), so a
// sender configured for certificate authentication can be pointed at FakeAPNs: subject UID =
// the bundle id, the topics extension and the environment markers. Signed by the test CA
// with a P-256 key (Apple's are RSA 2048; FakeAPNs reads both).
import Foundation
import PushCrypto

/// Which APNs environments a push certificate is for (Apple: development, production, or both).
package enum ApplePushEnvironment: String, Sendable, Hashable, CaseIterable {
    case development, production, both

    /// Apple's topics extension, 1.2.840.113635.100.6.3.6 (dotted).
    package static let topicsExtension = "1.2.840.113635.100.6.3.6"
    /// Apple's development-environment marker, 1.2.840.113635.100.6.3.1 (dotted).
    package static let developmentMarker = "1.2.840.113635.100.6.3.1"
    /// Apple's production-environment marker, 1.2.840.113635.100.6.3.2 (dotted).
    package static let productionMarker = "1.2.840.113635.100.6.3.2"

    /// The marker extensions' OIDs (dotted) this environment sets.
    package var markerOIDs: [String] {
        switch self {
        case .development: [ApplePushEnvironment.developmentMarker]
        case .production: [ApplePushEnvironment.productionMarker]
        case .both: [ApplePushEnvironment.developmentMarker, ApplePushEnvironment.productionMarker]
        }
    }
}

extension TestCertificateAuthority {
    /// Issues a P-256 client certificate like Apple's push certificates for `topic` (a
    /// bundle id): subject UID = `topic`, CN "Apple Push Services: <topic>", the topics
    /// extension (1.2.840.113635.100.6.3.6) naming `topic`, `topic.voip` and
    /// `topic.complication`, and the development (…6.3.1) and/or production (…6.3.2) markers.
    ///
    /// ```swift
    /// let (der, key) = ca.issueApplePushCertificate(topic: "com.example.app", environment: .both)
    /// ```
    /// - Parameters:
    ///   - validity: notBefore…notAfter; by default one day ago to 397 days from `now`.
    package func issueApplePushCertificate(
        topic: String, environment: ApplePushEnvironment, validity: ClosedRange<Date>? = nil, now: Date = Date()
    ) -> (certificateDER: [UInt8], key: P256KeyPair) {
        var extensions: [(oid: [UInt8], critical: Bool, value: [UInt8])] = [
            (DEROID.appleTopics, false, Self.appleTopicsValue(topic: topic)),
        ]
        if environment != .production { extensions.append((DEROID.appleDevelopment, false, DERWriter.element(DERTag.null, []))) }
        if environment != .development { extensions.append((DEROID.appleProduction, false, DERWriter.element(DERTag.null, []))) }
        return issueClientCertificate(commonName: "Apple Push Services: \(topic)", userID: topic, extraExtensions: extensions,
                                      validity: validity, now: now)
    }

    /// The topics extension's value as Apple writes it: a SEQUENCE of each topic (UTF8String)
    /// followed by a SEQUENCE naming its kind ("app", "voip", "complication").
    static func appleTopicsValue(topic: String) -> [UInt8] {
        let entries = [(topic, "app"), ("\(topic).voip", "voip"), ("\(topic).complication", "complication")]
        return DERWriter.element(DERTag.sequence, entries.flatMap { name, kind in
            DERWriter.utf8String(name) + DERWriter.sequence(DERWriter.utf8String(kind))
        })
    }
}

extension DEROID {
    /// Apple's push topics extension, 1.2.840.113635.100.6.3.6.
    package static let appleTopics: [UInt8] = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x63, 0x64, 0x06, 0x03, 0x06]
    /// Apple's development push marker, 1.2.840.113635.100.6.3.1.
    package static let appleDevelopment: [UInt8] = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x63, 0x64, 0x06, 0x03, 0x01]
    /// Apple's production push marker, 1.2.840.113635.100.6.3.2.
    package static let appleProduction: [UInt8] = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x63, 0x64, 0x06, 0x03, 0x02]
}
