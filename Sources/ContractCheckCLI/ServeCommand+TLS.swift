import LoopbackHTTP
import Foundation

extension ServeCommand.Options {
    /// The TLS `--tls` asks for: the CA kept in `--tls-ca-dir`, else a fresh one; nil
    /// without `--tls`.
    func loopbackTLS() throws(LoopbackTLSError) -> LoopbackTLS? {
        guard tls else { return nil }
        if let tlsCADirectory { return try LoopbackTLS.reusing(caDirectory: tlsCADirectory) }
        return try LoopbackTLS.generated()
    }
}

extension ServeCommand {
    /// Removes the temporary folder of a CA made for one run (`--tls` without
    /// `--tls-ca-dir`): nothing can trust it after serve exits.
    static func removeGeneratedCA(_ tls: LoopbackTLS) {
        let folder = TextFiles.folder(of: tls.caCertificatePath)
        guard folder.contains("pushcontracts-tls-") else { return }  // only the folder `generated()` made
        try? FileManager.default.removeItem(atPath: folder)
    }
}
