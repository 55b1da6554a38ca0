@testable import PushCrypto
import Testing
@testable import LoopbackHTTP
import PushTestSupport

/// RFC 8448 §3 ("Simple 1-RTT Handshake"): from its x25519 shared secret and transcript
/// hashes, every secret, key, IV and Finished value of the key schedule, byte for byte.
/// Breaking the "tls13 " label prefix, a label, or the transcript a secret is derived
/// from fails these.
@Suite struct TLSKeyScheduleTests {
    enum RFC8448 {
        static let sharedSecret = hexBytes("8b d4 05 4f b5 5b 9d 63 fd fb ac f9 f0 4b 9f 0d 35 e6 d6 3f 53 75 63 ef d4 62 72 90 0f 89 49 2d")
        static let earlySecret = hexBytes("33 ad 0a 1c 60 7e c0 3b 09 e6 cd 98 93 68 0c e2 10 ad f3 00 aa 1f 26 60 e1 b2 2e 10 f1 70 f9 2a")
        static let handshakeSecret = hexBytes("1d c8 26 e9 36 06 aa 6f dc 0a ad c1 2f 74 1b 01 04 6a a6 b9 9f 69 1e d2 21 a9 f0 ca 04 3f be ac")
        /// Transcript-Hash(ClientHello, ServerHello).
        static let helloHash = hexBytes("86 0c 06 ed c0 78 58 ee 8e 78 f0 e7 42 8c 58 ed d6 b4 3f 2c a3 e6 e9 5f 02 ed 06 3c f0 e1 ca d8")
        static let clientHandshakeTraffic = hexBytes("b3 ed db 12 6e 06 7f 35 a7 80 b3 ab f4 5e 2d 8f 3b 1a 95 07 38 f5 2e 96 00 74 6a 0e 27 a5 5a 21")
        static let serverHandshakeTraffic = hexBytes("b6 7b 7d 69 0c c1 6c 4e 75 e5 42 13 cb 2d 37 b4 e9 c9 12 bc de d9 10 5d 42 be fd 59 d3 91 ad 38")
        static let serverHandshakeKey = hexBytes("3f ce 51 60 09 c2 17 27 d0 f2 e4 e8 6e e4 03 bc")
        static let serverHandshakeIV = hexBytes("5d 31 3e b2 67 12 76 ee 13 00 0b 30")
        static let clientHandshakeKey = hexBytes("db fa a6 93 d1 76 2c 5b 66 6a f5 d9 50 25 8d 01")
        static let clientHandshakeIV = hexBytes("5b d3 c7 1b 83 6e 0b 76 bb 73 26 5f")
        static let masterSecret = hexBytes("18 df 06 84 3d 13 a0 8b f2 a4 49 84 4c 5f 8a 47 80 01 bc 4d 4c 62 79 84 d5 a4 1d a8 d0 40 29 19")
        /// Transcript-Hash(ClientHello … server Finished).
        static let serverFinishedHash = hexBytes("96 08 10 2a 0f 1c cc 6d b6 25 0b 7b 7e 41 7b 1a 00 0e aa da 3d aa e4 77 7a 76 86 c9 ff 83 df 13")
        static let clientApplicationTraffic = hexBytes("9e 40 64 6c e7 9a 7f 9d c0 5a f8 88 9b ce 65 52 87 5a fa 0b 06 df 00 87 f7 92 eb b7 c1 75 04 a5")
        static let serverApplicationTraffic = hexBytes("a1 1a f9 f0 55 31 f8 56 ad 47 11 6b 45 a9 50 32 82 04 b4 f4 4b fb 6b 3a 4b 4f 1f 3f cb 63 16 43")
        static let serverFinished = hexBytes("9b 9b 14 1d 90 63 37 fb d2 cb dc e7 1d f4 de da 4a b4 2c 30 95 72 cb 7f ff ee 54 54 b7 8f 07 18")
        static let clientFinished = hexBytes("a8 ec 43 6d 67 76 34 ae 52 5a c1 fc eb e1 1a 03 9e c1 76 94 fa c6 e9 85 27 b6 42 f2 ed d5 ce 61")

        static let clientHello = hexBytes("""
            01 00 00 c0 03 03 cb 34 ec b1 e7 81 63 ba 1c 38 c6 da cb 19 6a 6d
            ff a2 1a 8d 99 12 ec 18 a2 ef 62 83 02 4d ec e7 00 00 06 13 01 13
            03 13 02 01 00 00 91 00 00 00 0b 00 09 00 00 06 73 65 72 76 65 72
            ff 01 00 01 00 00 0a 00 14 00 12 00 1d 00 17 00 18 00 19 01 00 01
            01 01 02 01 03 01 04 00 23 00 00 00 33 00 26 00 24 00 1d 00 20 99
            38 1d e5 60 e4 bd 43 d2 3d 8e 43 5a 7d ba fe b3 c0 6e 51 c1 3c ae
            4d 54 13 69 1e 52 9a af 2c 00 2b 00 03 02 03 04 00 0d 00 20 00 1e
            04 03 05 03 06 03 02 03 08 04 08 05 08 06 04 01 05 01 06 01 02 01
            04 02 05 02 06 02 02 02 00 2d 00 02 01 01 00 1c 00 02 40 01
            """)
        static let serverHello = hexBytes("""
            02 00 00 56 03 03 a6 af 06 a4 12 18 60 dc 5e 6e 60 24 9c d3 4c 95
            93 0c 8a c5 cb 14 34 da c1 55 77 2e d3 e2 69 28 00 13 01 00 00 2e
            00 33 00 24 00 1d 00 20 c9 82 88 76 11 20 95 fe 66 76 2b db f7 c6
            72 e1 56 d6 cc 25 3b 83 3d f1 dd 69 b1 b0 4e 75 1f 0f 00 2b 00 02
            03 04
            """)
        static let serverRandom = Array(serverHello[6..<38])
        static let serverPrivateKey = hexBytes("b1 58 0e ea df 6d d5 89 b8 ef 4f 2d 56 52 57 8c c8 10 e9 98 01 91 ec 8d 05 83 08 ce a2 16 a2 1e")
        /// The client's Finished as the record the client sent, under its handshake key.
        static let clientFinishedRecord = hexBytes("""
            17 03 03 00 35 75 ec 4d c2 38 cc e6 0b 29 80 44 a7 1e 21 9c 56 cc 77 b0 51 7f e9 b9
            3c 7a 4b fc 44 d8 7f 38 f8 03 38 ac 98 fc 46 de b3 84 bd 1c ae ac ab 68 67 d7 26 c4
            05 46
            """)
    }

    @Test func transcribedMessagesHaveTheirDocumentedLengths() {
        #expect(RFC8448.clientHello.count == 196)
        #expect(RFC8448.serverHello.count == 90)
        #expect(RFC8448.clientFinishedRecord.count == 5 + 0x35)
        #expect(SHA256.hash(RFC8448.clientHello + RFC8448.serverHello) == RFC8448.helloHash)
    }

    @Test func secretsFromTheSharedSecret() {
        #expect(TLSKeySchedule.earlySecret == RFC8448.earlySecret)
        #expect(TLSKeySchedule.handshakeSecret(sharedSecret: RFC8448.sharedSecret) == RFC8448.handshakeSecret)
        #expect(TLSKeySchedule.masterSecret(handshakeSecret: RFC8448.handshakeSecret) == RFC8448.masterSecret)
        let secrets = TLSKeySchedule.Secrets(sharedSecret: RFC8448.sharedSecret, helloHash: RFC8448.helloHash)
        #expect(secrets.clientHandshake == RFC8448.clientHandshakeTraffic)
        #expect(secrets.serverHandshake == RFC8448.serverHandshakeTraffic)
        let application = secrets.applicationSecrets(serverFinishedHash: RFC8448.serverFinishedHash)
        #expect(application.client == RFC8448.clientApplicationTraffic)
        #expect(application.server == RFC8448.serverApplicationTraffic)
    }

    @Test func trafficKeysAndIVs() {
        func key(_ secret: [UInt8]) -> [UInt8] { TLSKeySchedule.expandLabel(secret, "key", context: [], length: 16) }
        func iv(_ secret: [UInt8]) -> [UInt8] { TLSKeySchedule.expandLabel(secret, "iv", context: [], length: 12) }
        #expect(key(RFC8448.serverHandshakeTraffic) == RFC8448.serverHandshakeKey)
        #expect(iv(RFC8448.serverHandshakeTraffic) == RFC8448.serverHandshakeIV)
        #expect(key(RFC8448.clientHandshakeTraffic) == RFC8448.clientHandshakeKey)
        #expect(iv(RFC8448.clientHandshakeTraffic) == RFC8448.clientHandshakeIV)
    }

    @Test func hkdfLabelLayout() {
        // RFC 8448 prints the info of each expansion; "key" and "iv" are short enough to quote.
        #expect(TLSKeySchedule.hkdfLabel("key", context: [], length: 16) == hexBytes("00 10 09 74 6c 73 31 33 20 6b 65 79 00"))
        #expect(TLSKeySchedule.hkdfLabel("iv", context: [], length: 12) == hexBytes("00 0c 08 74 6c 73 31 33 20 69 76 00"))
    }

    @Test func finishedValues() {
        // The server's Finished covers the transcript through CertificateVerify; RFC 8448
        // gives the client's transcript (through the server Finished) as serverFinishedHash.
        #expect(TLSKeySchedule.finishedVerifyData(trafficSecret: RFC8448.clientHandshakeTraffic,
                                                  transcriptHash: RFC8448.serverFinishedHash) == RFC8448.clientFinished)
        #expect(TLSKeySchedule.expandLabel(RFC8448.serverHandshakeTraffic, "finished", context: [], length: 32)
                == hexBytes("00 8d 3b 66 f8 16 ea 55 9f 96 b5 37 e8 85 c3 1f c0 68 bf 49 2c 65 2f 01 f2 88 a1 d8 cd c1 9f c8"))
    }

    @Test func clientFinishedRecordOpensUnderTheClientHandshakeKey() throws {
        var cipher = try #require(TLSRecordCipher(trafficSecret: RFC8448.clientHandshakeTraffic))
        let record = RFC8448.clientFinishedRecord
        let (type, content) = try cipher.open(record[5...], header: record[0..<5])
        #expect(type == .handshake)
        #expect(content == [0x14, 0, 0, 0x20] + RFC8448.clientFinished)
    }

    @Test func sealingReproducesTheClientFinishedRecord() throws {
        var cipher = try #require(TLSRecordCipher(trafficSecret: RFC8448.clientHandshakeTraffic))
        var output: [UInt8] = []
        cipher.seal(([0x14, 0, 0, 0x20] + RFC8448.clientFinished)[...], type: .handshake, into: &output)
        #expect(output == RFC8448.clientFinishedRecord)
    }
}
