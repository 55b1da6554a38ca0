@testable import PushCore
@testable import PushCrypto
import Foundation
@testable import LoopbackHTTP
import PushTestSupport

/// Test-side TLS helpers: an identity, a ClientHello builder, and a driver that runs a
/// ``TLSServerConnection`` over byte chunks.
enum TLSTestSupport {
    /// A fixture made once with openssl (valid until 2126): a P-256 CA, a leaf it signed for
    /// `localhost` and `127.0.0.1`, and the leaf's private key. Fixed bytes keep these tests
    /// independent of our own certificate writer (tested with the CA code).
    static let caPEM = """
        -----BEGIN CERTIFICATE-----
        MIIBvzCCAWWgAwIBAgIUGbM5BWkVo0vcw5q4m9MDehAmT/kwCgYIKoZIzj0EAwIw
        LDEqMCgGA1UEAwwhUHVzaENvbnRyYWN0cyBUTFMgdGVzdCBmaXh0dXJlIENBMCAX
        DTI2MTIwMTE1NDkxOVoYDzIxMjYxMTA3MTU0OTE5WjAsMSowKAYDVQQDDCFQdXNo
        Q29udHJhY3RzIFRMUyB0ZXN0IGZpeHR1cmUgQ0EwWTATBgcqhkjOPQIBBggqhkjO
        PQMBBwNCAARjwu6K3xmpUSsv3QMbUGBnHZStX+/x98W0mOfZhSegIIAZTSf2SAr5
        LZjos48bFHLBo8z3/jRWV69Y/ix1jNKbo2MwYTAdBgNVHQ4EFgQU/OtBUFkf/XTg
        unakehjiQ07+BVQwHwYDVR0jBBgwFoAU/OtBUFkf/XTgunakehjiQ07+BVQwDwYD
        VR0TAQH/BAUwAwEB/zAOBgNVHQ8BAf8EBAMCAQYwCgYIKoZIzj0EAwIDSAAwRQIh
        AM3Fi7ggKmdyOLkb8y8UF6LdZahzrrAM+LALGvPc4KiBAiBBSlhaBk33hzxVDDll
        PHTG09pGLz83WIKg955C6fbXWA==
        -----END CERTIFICATE-----
        """
    static let leafDER = hexBytes("""
            308201d83082017da003020102021439686bf2447f9c305a1b6437d046db
            d3284eb390300a06082a8648ce3d040302302c312a302806035504030c21
            50757368436f6e74726163747320544c5320746573742066697874757265
            2043413020170d3236313230313135343931395a180f3231323631313037
            3135343931395a30143112301006035504030c096c6f63616c686f737430
            59301306072a8648ce3d020106082a8648ce3d0301070342000478e907cb
            944fa1b5dc3e359a48b2f114309523ca6a555365adf211362756513a4b93
            176379fa986a70b2580bbcbd5819f5d90620175246514e25cbf16882710f
            a3819230818f301a0603551d110413301182096c6f63616c686f73748704
            7f000001300c0603551d130101ff04023000300e0603551d0f0101ff0404
            0302078030130603551d25040c300a06082b06010505070301301d060355
            1d0e041604145dc193cbd5681f781b8fdab25abf2e90081add62301f0603
            551d23041830168014fceb4150591ffd74e0ba76a47a18e2434efe055430
            0a06082a8648ce3d040302034900304602210096c8e90c263382f1ccace0
            b2cc24c14c31c8c89433f8b884ab1b298aa079b0c0022100e305683c942b
            f215fbd3108162b564a187a41848840e5b092a021561ec318c45
        """)
    static let leafKey = hexBytes("803e72668a1739b08dc6f98f402cf1de6d1a897410116807f9866a0111397384")
    static let identity = TLSServerIdentity(certificateChain: [leafDER], privateKey: P256KeyPair(privateKey: leafKey) ?? .generate())

    /// The CA certificate as a PEM file a peer can trust.
    static let caFile: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pushcontracts-test-ca-\(getpid()).pem").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(caPEM.utf8))
        return path
    }()

    /// Random bytes served in order from a list (then zeros), so a handshake is reproducible.
    static func fixedRandom(_ chunks: [[UInt8]]) -> @Sendable (Int) -> [UInt8] {
        let queue = Locked(chunks)
        return { count in
            queue.withLock { queue in
                guard !queue.isEmpty else { return [UInt8](repeating: 1, count: count) }
                return queue.removeFirst()
            }
        }
    }

    /// A ClientHello handshake message; nil arguments leave the extension out.
    static func clientHello(
        versions: [UInt16]? = [0x0304],
        suites: [UInt16] = [0x1301],
        groups: [UInt16]? = [0x001d, 0x0017],
        shares: [(UInt16, [UInt8])]? = [(0x001d, [UInt8](repeating: 9, count: 32))],
        signatureAlgorithms: [UInt16]? = [0x0403, 0x0804],
        alpn: [String]? = nil,
        serverName: String? = nil,
        sessionID: [UInt8] = [UInt8](repeating: 0xaa, count: 32)
    ) -> [UInt8] {
        TLSByteWriter.handshakeMessage(.clientHello) { body in
            body.append(UInt16(0x0303))
            body.append([UInt8](repeating: 0x42, count: 32))
            body.appendVector(lengthBytes: 1) { $0.append(sessionID) }
            body.appendVector(lengthBytes: 2) { list in for suite in suites { list.append(suite) } }
            body.append([1, 0])
            body.appendVector(lengthBytes: 2) { extensions in
                func add(_ type: UInt16, _ data: (inout TLSByteWriter) -> Void) {
                    extensions.append(type)
                    extensions.appendVector(lengthBytes: 2, data)
                }
                if let serverName {
                    add(0) { data in data.appendVector(lengthBytes: 2) { list in list.append(UInt8(0)); list.appendVector(lengthBytes: 2) { $0.append(Array(serverName.utf8)) } } }
                }
                if let groups { add(10) { data in data.appendVector(lengthBytes: 2) { list in for group in groups { list.append(group) } } } }
                if let signatureAlgorithms {
                    add(13) { data in data.appendVector(lengthBytes: 2) { list in for algorithm in signatureAlgorithms { list.append(algorithm) } } }
                }
                if let alpn {
                    add(16) { data in data.appendVector(lengthBytes: 2) { list in for name in alpn { list.appendVector(lengthBytes: 1) { $0.append(Array(name.utf8)) } } } }
                }
                if let versions { add(43) { data in data.appendVector(lengthBytes: 1) { list in for version in versions { list.append(version) } } } }
                if let shares {
                    add(51) { data in
                        data.appendVector(lengthBytes: 2) { list in
                            for (group, key) in shares { list.append(group); list.appendVector(lengthBytes: 2) { $0.append(key) } }
                        }
                    }
                }
            }
        }
    }

    /// A plaintext handshake record around `message`.
    static func record(_ message: [UInt8], type: UInt8 = 22) -> [UInt8] {
        [type, 0x03, 0x01, UInt8(message.count >> 8), UInt8(message.count & 0xff)] + message
    }

    /// Feeds `bytes` to `connection` in chunks of `chunk` bytes; returns the events (writes
    /// joined into one) and the plaintext.
    static func feed(_ connection: inout TLSServerConnection, _ bytes: [UInt8], chunk: Int = Int.max) -> (events: [TLSEvent], plaintext: [UInt8]) {
        var events: [TLSEvent] = []
        var plaintext: [UInt8] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + max(1, min(chunk, bytes.count)))
            bytes[offset..<end].withUnsafeBytes { connection.receive($0, into: &events, plaintext: &plaintext) }
            offset = end
        }
        var joined: [TLSEvent] = []
        for event in events {
            if case .write(let more) = event, case .write(let earlier)? = joined.last {
                joined[joined.count - 1] = .write(earlier + more)
            } else {
                joined.append(event)
            }
        }
        return (joined, plaintext)
    }
}
