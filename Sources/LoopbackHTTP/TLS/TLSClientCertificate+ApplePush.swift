// What a client certificate shaped like Apple's push certificates says: its topics and
// environments (the extensions PushCrypto's test CA writes, ApplePushEnvironment).
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
