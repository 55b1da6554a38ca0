import LoopbackHTTP
import Foundation

extension ServeCommand.Options {
    /// The TLS `ServeOption.tls` asks for: the CA kept in `ServeOption.tlsCADir`, else a fresh one; nil
    /// without `ServeOption.tls`.
    func loopbackTLS() throws(LoopbackTLSError) -> LoopbackTLS? {
        guard tls else { return nil }
        if let tlsCADirectory { return try LoopbackTLS.reusing(caDirectory: tlsCADirectory) }
        return try LoopbackTLS.generated()
    }
}
