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
