// What a client certificate shaped like Apple's push certificates says: its topics and
// environments (the extensions ApplePushEnvironment names and the test CA writes for FakeAPNs).
// Apple's knowledge lives here, in FakeAPNs: the transport hands over the certificate it
// verified (TLSClientCertificate) and knows nothing of Apple's extensions.
import LoopbackHTTP
import PushCrypto

extension TLSClientCertificate {
    /// The topics the certificate's Apple topics extension names (the UTF8Strings at its top
    /// level), in order; empty if the extension is absent or unreadable. A certificate with
    /// only a UID (older, single-topic certificates) names its topic through ``subjectUserID``.
    package var appleTopics: [String] {
        guard let value = certificate.extensionValue(Self.appleTopicsExtension) else { return [] }
        var outer = DERReader(value)
        guard var list = try? DERReader(outer.read(DERTag.sequence, "topics SEQUENCE")) else { return [] }
        var topics: [String] = []
        while let tag = list.peekTag, let contents = try? list.read(tag, "topic") {
            if tag == 0x0c { topics.append(String(decoding: contents, as: UTF8.self)) }
        }
        return topics
    }

    /// Apple's topics extension, 1.2.840.113635.100.6.3.6.
    static let appleTopicsExtension = ApplePushEnvironment.topicsExtension
    /// Apple's development-environment marker, 1.2.840.113635.100.6.3.1.
    static let appleDevelopmentExtension = ApplePushEnvironment.developmentMarker
    /// Apple's production-environment marker, 1.2.840.113635.100.6.3.2.
    static let appleProductionExtension = ApplePushEnvironment.productionMarker

    /// Which environments the Apple markers name: nil when the certificate has neither.
    package var appleEnvironment: ApplePushEnvironment? {
        let development = certificate.extensionValue(Self.appleDevelopmentExtension) != nil
        let production = certificate.extensionValue(Self.appleProductionExtension) != nil
        switch (development, production) {
        case (true, true): return .both
        case (true, false): return .development
        case (false, true): return .production
        case (false, false): return nil
        }
    }
}
