import Foundation
import PushCore
import PushCrypto

/// Test-only TLS for the loopback fakes: a certificate authority of our own and a leaf it
/// signs for `localhost`, `127.0.0.1` and `::1` (FakeAPNs has its own leaf issued with
/// Apple's push hosts added), so an unmodified client connects by trusting one CA file.
///
/// **This TLS protects nothing.** Its keys sit in temporary files, its code is not
/// constant-time, and it exists only so real senders can reach a fake without patches.
///
/// ```swift
/// let tls = try LoopbackTLS.generated()
/// var configuration = FakeAPNs.Configuration()
/// configuration.tls = tls                    // FakeAPNs serves https://127.0.0.1:PORT
/// // the client trusts tls.caCertificatePath (SSL_CERT_FILE, --cacert, a truststore…)
/// defer { tls.removeTemporaryFiles() }        // the folder generated() made
/// ```
public struct LoopbackTLS: Sendable {
    /// The CA certificate, PEM: what a client trusts.
    public let caCertificatePEM: String
    /// A file holding ``caCertificatePEM``, for `SSL_CERT_FILE`, `--cacert`,
    /// `NODE_EXTRA_CA_CERTS` or a truststore import.
    public let caCertificatePath: String
    /// What servers present: the leaf (signed by the CA) and its key.
    package let identity: TLSServerIdentity
    /// The CA itself, to issue client certificates a server with this TLS trusts
    /// (`APNsClientCertificate` in FakeAPNs).
    package let authority: TestCertificateAuthority
    /// The temporary folder ``generated()`` made for `ca.pem`; nil for a kept CA directory.
    private var temporaryDirectory: String?

    /// The names the leaf certificate is valid for (a server may ask for a leaf with more:
    /// ``identity(alsoFor:)``).
    public static let dnsNames = TestCertificateAuthority.defaultDNSNames
    /// The addresses the leaf certificate is valid for: 127.0.0.1 and ::1.
    public static let ipAddresses: [[UInt8]] = [[127, 0, 0, 1], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]]

    /// A fresh CA and leaf; the CA certificate is written to `ca.pem` in a new temporary
    /// directory. Trust it anew on every run (or use ``reusing(caDirectory:)``).
    /// - Throws: ``LoopbackTLSError`` when the file cannot be written.
    public static func generated() throws(LoopbackTLSError) -> LoopbackTLS {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("pushcontracts-tls-\(UUID().uuidString)").path
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw LoopbackTLSError(.unusableDirectory, "cannot create \(directory): \(error.localizedDescription)")
        }
        let authority = TestCertificateAuthority.generate(commonName: "PushContracts loopback test CA")
        do {
            var tls = try LoopbackTLS(authority: authority, caPath: "\(directory)/ca.pem", writeCA: true)
            tls.temporaryDirectory = directory
            return tls
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    /// Removes the temporary folder ``generated()`` wrote ``caCertificatePath`` in, once no
    /// client needs to trust the CA any more (a test's end, a server's exit). Nothing for a
    /// CA kept with ``reusing(caDirectory:)``, which is meant to outlive the run.
    public func removeTemporaryFiles() {
        guard let temporaryDirectory else { return }
        try? FileManager.default.removeItem(atPath: temporaryDirectory)
    }

    /// The CA kept in `caDirectory` (`ca.pem` and `ca-key.pem`): created on first use,
    /// reused afterwards, so a client trusts it once. A new leaf is issued each time.
    /// - Throws: ``LoopbackTLSError`` when the directory cannot be created or written, or
    ///   holds files that are not a CA certificate and key.
    public static func reusing(caDirectory: String) throws(LoopbackTLSError) -> LoopbackTLS {
        let caPath = "\(caDirectory)/ca.pem"
        let keyPath = "\(caDirectory)/ca-key.pem"
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        if files.fileExists(atPath: caDirectory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw LoopbackTLSError(.unusableDirectory, "\(caDirectory) exists and is not a directory; pass a directory for the CA")
            }
        } else {
            do {
                try files.createDirectory(atPath: caDirectory, withIntermediateDirectories: true)
            } catch {
                throw LoopbackTLSError(.unusableDirectory, "cannot create \(caDirectory): \(error.localizedDescription)")
            }
        }
        if files.fileExists(atPath: caPath) || files.fileExists(atPath: keyPath) {
            return try LoopbackTLS(authority: existingAuthority(caPath: caPath, keyPath: keyPath), caPath: caPath, writeCA: false)
        }
        // Several serves may start together on a new directory: each writes its CA under
        // names of its own, then links the key into place, which fails when a key is there.
        // The first link wins; the others read the winner's CA, so all trust one ca.pem.
        let authority = TestCertificateAuthority.generate(commonName: "PushContracts loopback test CA")
        let unique = UUID().uuidString
        let keyDraft = "\(keyPath).\(unique).tmp", caDraft = "\(caPath).\(unique).tmp"
        defer {
            unlink(keyDraft)
            unlink(caDraft)
        }
        guard files.createFile(atPath: keyDraft, contents: Data(authority.keyPEM.utf8), attributes: [.posixPermissions: 0o600]),
              files.createFile(atPath: caDraft, contents: Data(authority.certificatePEM.utf8)) else {
            throw LoopbackTLSError(.unusableDirectory, "cannot write in \(caDirectory); pass a writable directory")
        }
        do throws(SystemError) {
            try systemCall("link(\(keyPath))") { link(keyDraft, keyPath) }
        } catch let error where error.errno == EEXIST {
            return try LoopbackTLS(authority: existingAuthority(caPath: caPath, keyPath: keyPath), caPath: caPath, writeCA: false)
        } catch {
            throw LoopbackTLSError(.unusableDirectory, "cannot create \(keyPath): \(error); pass a writable directory")
        }
        do throws(SystemError) {
            try systemCall("link(\(caPath))") { link(caDraft, caPath) }
        } catch {
            throw LoopbackTLSError(.unusableDirectory, "cannot create \(caPath): \(error); delete \(keyPath) and pass a writable directory")
        }
        return try LoopbackTLS(authority: authority, caPath: caPath, writeCA: false)
    }

    /// How long a reader waits for the certificate of a CA whose key another process has
    /// just linked into place (it links the certificate right after).
    static let partnerFileWait: Duration = .seconds(2)

    /// The CA in `caPath` and `keyPath`. When only the key is there yet, waits (bounded) for
    /// the certificate the process that created the key is about to link.
    private static func existingAuthority(caPath: String, keyPath: String) throws(LoopbackTLSError) -> TestCertificateAuthority {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: partnerFileWait)
        var certificatePEM: String?
        var keyPEM: String?
        while true {
            certificatePEM = try? String(contentsOfFile: caPath, encoding: .utf8)
            keyPEM = try? String(contentsOfFile: keyPath, encoding: .utf8)
            let keyOnly = keyPEM != nil && certificatePEM == nil
            guard keyOnly, clock.now < deadline else { break }
            usleep(10_000)
        }
        guard let certificatePEM, let keyPEM else {
            throw LoopbackTLSError(.unusableDirectory, "cannot read \(caPath) and \(keyPath); delete both to start a new CA")
        }
        do {
            return try TestCertificateAuthority(keyPEM: keyPEM, certificatePEM: certificatePEM)
        } catch {
            throw LoopbackTLSError(.unusableDirectory, "\(caPath) and \(keyPath) are not a CA certificate and its P-256 key (\(error)); delete both to start a new CA")
        }
    }

    /// A leaf from this CA for ``dnsNames``, `names` and ``ipAddresses``: what a server that
    /// answers for more host names presents (FakeAPNs: Apple's push hosts).
    package func identity(alsoFor names: [String]) -> TLSServerIdentity {
        let leaf = authority.issueServerCertificate(dnsNames: Self.dnsNames + names, ipAddresses: Self.ipAddresses)
        return TLSServerIdentity(certificateChain: [leaf.certificateDER], privateKey: leaf.key)
    }

    private init(authority: TestCertificateAuthority, caPath: String, writeCA: Bool) throws(LoopbackTLSError) {
        if writeCA, !FileManager.default.createFile(atPath: caPath, contents: Data(authority.certificatePEM.utf8)) {
            throw LoopbackTLSError(.unusableDirectory, "cannot write \(caPath); pass a writable directory")
        }
        let leaf = authority.issueServerCertificate(dnsNames: Self.dnsNames, ipAddresses: Self.ipAddresses)
        caCertificatePEM = authority.certificatePEM
        caCertificatePath = caPath
        self.authority = authority
        identity = TLSServerIdentity(certificateChain: [leaf.certificateDER], privateKey: leaf.key)
    }
}

/// Why ``LoopbackTLS`` could not set up its CA.
public struct LoopbackTLSError: Error, Equatable, CustomStringConvertible, CodedError, Sendable {
    /// The kinds of problem.
    public enum Code: Hashable, Sendable {
        /// The CA directory (or a file in it) cannot be created, written or read.
        case unusableDirectory
    }

    /// The CA directory (or a file in it) cannot be created, written or read.
    public static var unusableDirectory: Self { Self(.unusableDirectory, "") }

    /// The kind of problem; what `==` compares.
    public let code: Code
    /// What went wrong and what to do next.
    public let message: String

    init(_ code: Code, _ message: String) { (self.code, self.message) = (code, message) }
}
