@testable import PushCore
@testable import PushCrypto
import Foundation
import Dispatch
import Testing
@testable import LoopbackHTTP

/// `LoopbackTLS.reusing(caDirectory:)` when several serves start together on a new directory:
/// one CA wins and every caller serves a leaf it signed (before, each wrote its own and
/// `curl --cacert DIR/ca.pem` failed against the others).
@Suite struct LoopbackTLSCADirectoryTests {
    /// Issue 39: `removeTemporaryFiles()` removes the folder `generated()` made (tests left
    /// 19 per run), and never a kept CA directory.
    @Test func removeTemporaryFilesRemovesOnlyAGeneratedFolder() throws {
        let generated = try LoopbackTLS.generated()
        let folder = (generated.caCertificatePath as NSString).deletingLastPathComponent
        #expect(FileManager.default.fileExists(atPath: generated.caCertificatePath))
        generated.removeTemporaryFiles()
        #expect(!FileManager.default.fileExists(atPath: folder), "\(folder) is left behind")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-kept-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try LoopbackTLS.reusing(caDirectory: directory).removeTemporaryFiles()
        #expect(FileManager.default.fileExists(atPath: directory + "/ca.pem"), "a kept CA stays")
    }

    @Test func concurrentCallsOnANewDirectoryAllUseOneCA() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-race-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let callers = 6
        let results = Locked<[Result<LoopbackTLS, LoopbackTLSError>]>([])
        // Threads of their own, released together, so every caller is past the "is there a
        // CA?" look before the first has made one (a shared pool may run them one by one).
        let gate = DispatchGroup()
        gate.enter()
        let done = DispatchGroup()
        for _ in 0..<callers {
            done.enter()
            Thread.detachNewThread {
                gate.wait()
                let result = Result { () throws(LoopbackTLSError) in try LoopbackTLS.reusing(caDirectory: directory) }
                results.withLock { $0.append(result) }
                done.leave()
            }
        }
        gate.leave()
        #expect(done.wait(timeout: .now() + 120) == .success)
        let all = try results.snapshot.map { try $0.get() }
        #expect(all.count == callers)
        let onDisk = try String(contentsOfFile: "\(directory)/ca.pem", encoding: .utf8)
        #expect(all.allSatisfy { $0.caCertificatePEM == onDisk }, "every caller serves the CA in ca.pem")
        let key = try String(contentsOfFile: "\(directory)/ca-key.pem", encoding: .utf8)
        #expect(throws: Never.self) { try TestCertificateAuthority(keyPEM: key, certificatePEM: onDisk) }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(leftovers == ["ca-key.pem", "ca.pem"], "no drafts left behind")
    }

    /// A key without its certificate (the winner between its two links, or a crash there)
    /// is waited for, then said plainly.
    @Test func aKeyWithoutItsCertificateIsAnUnusableDirectory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-half-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let authority = TestCertificateAuthority.generate(commonName: "half")
        try authority.keyPEM.write(toFile: "\(directory)/ca-key.pem", atomically: true, encoding: .utf8)
        #expect(throws: LoopbackTLSError.self) { try LoopbackTLS.reusing(caDirectory: directory) }
    }
}
