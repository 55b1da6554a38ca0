@testable import PushCrypto
import Foundation
import Testing
@testable import LoopbackHTTP

/// The client-chain cache: a chain is parsed and its signatures checked once, its dates on
/// every handshake; it holds a bounded number of chains; what does not parse is not kept.
@Suite struct TLSCertificateChainCacheTests {
    /// A clock the test moves.
    final class Clock: @unchecked Sendable {  // `now` is only touched under `lock`
        private let lock = NSLock()
        private var value: Date
        init(_ value: Date) { self.value = value }
        var now: Date {
            get { lock.lock(); defer { lock.unlock() }; return value }
            set { lock.lock(); value = newValue; lock.unlock() }
        }
    }

    @Test func aCachedChainIsStillCheckedAgainstTheClock() throws {
        let now = Date()
        let leaf = TLSClientAuthenticationTests.authority.issueClientCertificate(
            commonName: "Provider", validity: (now - 3600)...(now + 3600))
        let clock = Clock(now)
        let policy = try TLSClientAuthentication(trustedAuthorities: [TLSClientAuthenticationTests.authority.certificateDER],
                                                 clock: { clock.now })
        for (offset, expected) in [(0.0, TLSClientCertificate.Trust.trusted), (7200, .expired), (-7200, .notYetValid), (0, .trusted)] {
            clock.now = now + offset
            let checked = try policy.check([leaf.certificateDER])
            #expect(checked.trust == expected, "clock now + \(offset) s")
            #expect(checked.leaf.der == leaf.certificateDER)
        }
        #expect(policy.chains.count == 1, "one chain, walked once")
        let other = TLSClientAuthenticationTests.otherAuthority.issueClientCertificate(commonName: "Provider")
        #expect(try policy.check([other.certificateDER]).trust == .untrustedIssuer)
        #expect(policy.chains.count == 2)
    }

    @Test func theCacheIsBoundedAndKeepsOnlyWhatParses() throws {
        let leaf = TLSClientAuthenticationTests.authority.issueClientCertificate(commonName: "Provider")
        let policy = try TLSClientAuthentication(trustedAuthorities: [TLSClientAuthenticationTests.authority.certificateDER])
        #expect(throws: CryptoEncodingError.self) { try policy.check([[0x30, 0x03, 0x02, 0x01, 0x01]]) }
        #expect(policy.chains.count == 0)
        // Distinct chains: the leaf followed by a different unreadable "intermediate" each time.
        for index in 0...TLSCertificateChainCache.capacity + 5 {
            #expect(try policy.check([leaf.certificateDER, [UInt8(truncatingIfNeeded: index), 0xff]]).trust == .trusted)
            #expect(policy.chains.count <= TLSCertificateChainCache.capacity)
        }
        let large = [UInt8](repeating: 0, count: TLSCertificateChainCache.maximumBytes)
        let before = policy.chains.count
        #expect(try policy.check([leaf.certificateDER, large]).trust == .trusted)
        #expect(policy.chains.count == before, "a chain above the byte bound is checked but not kept")
    }
}
